"""The table under Discord's rate limits (the fake's defaults: 5 posts and 5 edits per 5 s in a channel): a burst
of clicks and an auction with fast bidders end showing the newest state, never an older one after it, every click
answered in time and no loop on 429s; a channel that keeps answering 403 is left alone for a while, far from
Discord's invalid-request budget, and `turista status` counts what it refused."""

from __future__ import annotations

import asyncio
import io
import json
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from bot import monitor
from bot.face import ids
from devkit.world import World
from fakediscord import FakeMessage, RateLimits
from fakediscord.models import walk_components


def shown_versions(message: FakeMessage) -> list[int]:
    """The version each payload applied to the message showed (those with buttons), in order."""
    versions = []
    for payload in message.history:
        parsed = [ids.parse(c["custom_id"]) for c in walk_components(payload.get("components") or [])
                  if "custom_id" in c]
        found = [p.version for p in parsed if p]
        if found:
            versions.append(max(found))
    return versions


@pytest.fixture
def rate_limits() -> RateLimits:
    """Discord's limits on Discord's own clock, not the tests' (`tests/e2e/conftest.py`)."""
    return RateLimits()


def assert_never_stale(world: World) -> None:
    for message in world.bot_messages():
        versions = shown_versions(message)
        assert versions == sorted(versions), f"message {message.id} showed versions {versions}"


async def test_a_burst_of_clicks_ends_on_the_newest_table(world: World) -> None:
    assert world.fake.rate_limiter.limits == RateLimits()  # Discord's limits, as the fake has them by default
    gid = await world.open_table(world.ana, [world.beto, world.carl])
    st = await world.start(gid, world.ana)
    table = world.table()
    assert table is not None
    # Everyone at once: the player whose turn it is rolls while the others ask for the board and the status.
    others = [u for u in (world.ana, world.beto, world.carl) if u is not world.user_of(gid, st.current)]
    burst = [world.fake.click(world.user_of(gid, st.current), table, world.custom_id(table, "roll"))]
    for user in others * 3:
        burst.append(world.fake.click(user, table, world.custom_id(table, "status")))
    for reply in await asyncio.gather(*burst):
        await reply.wait()  # answered, and within 3 s (the fake raises otherwise)
    # Then turns as fast as people can click them: more posts and edits than the channel's buckets hold.
    decisions = 0
    st = await world.settled(gid)
    while decisions < 24 and st.phase != "over":
        await world.play_turn_step(gid, st)
        decisions += 1
        st = await world.settled(gid, timeout=20)
    table = world.table()
    assert table is not None and world.version_of(table) == st.version
    assert_never_stale(world)
    limiter = world.fake.rate_limiter
    # The bot waits for the buckets it is told of: a 429 is rare, and never followed by a loop of them.
    assert len(limiter.throttled) <= 3, limiter.throttled
    assert limiter.invalid_requests() <= 3


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"TURISTA_AUCTION_QUIET": "5000"}


async def test_fast_bidders_see_the_newest_bid(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto, world.carl, world.dora])
    await world.start(gid, world.ana)
    st = await world.play_until(gid, lambda st: st.phase == "buy" and not st.debts, buy=lambda st: False)
    await world.act(gid, world.user_of(gid, st.current), world.table(), "decline")  # type: ignore[arg-type]
    st = await world.settled(gid)
    assert st.auction is not None
    table_edits = len(world.table().history)  # type: ignore[union-attr]
    bids = 0
    for _ in range(14):  # each bid edits the auction (the click's answer) and the table (an edit of the channel)
        st = world.game(gid).state
        assert st is not None and st.auction is not None
        seat = next(s for s in st.auction.active if s != st.auction.bidder)
        auction = world.with_verb("bid")
        assert auction is not None
        await world.act(gid, world.user_of(gid, seat), auction, "bid")
        bids += 1
    st = await world.settled(gid, timeout=20)
    assert st.auction is not None and st.auction.bid > 0
    auction, table = world.with_verb("bid"), world.table()
    assert auction is not None and table is not None
    assert world.version_of(auction) == world.version_of(table) == st.version
    assert f"{st.auction.bid:,}".replace(",", "") in auction.text.replace(",", "").replace(".", "")
    assert_never_stale(world)
    # The table skipped the states a newer one replaced while Discord throttled the channel.
    assert len(table.history) - table_edits < bids
    await world.eventually(lambda: "outdated edit(s) while Discord throttled" in world.bot.log(),
                           what="the log to say so")
    assert len(world.fake.rate_limiter.throttled) <= 3


@pytest.mark.parametrize("bot_env", [{"TURISTA_TIME_SCALE": "0.002", "TURISTA_AUCTION_QUIET": "5000"}])
async def test_a_channel_that_refuses_the_bot_is_backed_off(world: World, tmp_path: Path) -> None:
    # A decision's clock of 60 s lasts 0.12 s here: the clock plays for the people, then computers take their
    # seats, and the game goes on by itself as fast as it can, each move asking to show itself.
    gid = await world.open_table(world.ana, [world.beto, world.carl, world.dora], turn_timeout=60)
    await world.start(gid, world.ana)
    limiter = world.fake.rate_limiter
    refused_before = limiter.count(status=403)
    version = world.game(gid).version
    # The bot's permissions are taken away: every post and edit in any channel is refused from now on.
    posts = world.fake.fail("POST", "/channels/{channel}/messages", status=403, code=50013, times=None)
    edits = world.fake.fail("PATCH", "/channels/{channel}/messages/{message}", status=403, code=50013, times=None)
    await asyncio.sleep(5.0)
    moves = world.game(gid).version - version
    refused = limiter.count(status=403) - refused_before
    # Each move would ask for an edit and often a post: the channel saw a handful of them in all.
    assert moves > 10 and 1 <= refused <= 6, f"{refused} requests refused in 5 s, over {moves} moves"
    assert limiter.invalid_requests() < 20 and not limiter.banned
    posts.clear()
    edits.clear()
    # Once the channel takes messages again, the bot posts there again by itself (if the game is not over).
    posted = limiter.count("POST", "/messages", status=200)
    await world.fake.wait_for(lambda: limiter.count("POST", "/messages", status=200) > posted
                              or world.game(gid).status != "active", timeout=30, what="a post that goes through")
    assert "its channel refuses the bot's messages (403" in world.bot.log()
    await world.bot.stop()
    written = json.loads((tmp_path / "cache" / "discord-requests.json").read_text())
    assert written["refused"] >= refused and written["last_10_min"]["invalid"] >= refused
    out = io.StringIO()
    with redirect_stdout(out):
        assert monitor.main(["--db", str(tmp_path / "turista.db"), "--cache", str(tmp_path / "cache")]) == 0
    assert f"Discord refused {written['last_10_min']['refused']} and throttled" in out.getvalue()
    await world.bot.start()  # the fixture stops it again

"""An auction whose message Discord refuses never closes unseen: its quiet period starts when its message is
first shown, through a restart too, and the deadline it then runs to is kept in the store."""

from __future__ import annotations

import asyncio
from datetime import datetime

import pytest

from devkit.world import World
from fakediscord.snowflake import snowflake_time

QUIET = 3.0


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"TURISTA_AUCTION_QUIET": str(int(QUIET))}


async def test_an_auction_is_quiet_for_its_time_from_when_people_see_it(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    await world.start(gid, world.ana)
    st = await world.play_until(gid, lambda st: st.phase == "buy" and not st.debts, buy=lambda st: False)
    thread = world.game(gid).where
    # Discord refuses every new message in the game's thread: the auction's among them.
    outage = world.fake.fail("POST", "/channels/{channel}/messages", status=403, code=50013, times=None,
                             channel=thread)
    await world.act(gid, world.user_of(gid, st.current), world.table(), "decline")  # type: ignore[arg-type]
    await world.eventually(lambda: outage.hits >= 1, what="the auction's message to be refused")
    await asyncio.sleep(2 * QUIET)
    row = world.game(gid)
    assert row.state is not None and row.state.auction is not None, "the auction closed unseen"
    assert row.deadline is None and world.with_verb("pass_bid") is None

    # A restart during the outage changes nothing: the auction still waits to be seen.
    await world.bot.kill()
    await world.bot.start()
    await asyncio.sleep(QUIET + 1)
    row = world.game(gid)
    assert row.state is not None and row.state.auction is not None and row.deadline is None

    outage.clear()
    auction = await world.fake.wait_for(lambda: world.with_verb("pass_bid"), timeout=20,
                                        what="the auction's message once Discord takes it")
    # Timed from when Discord took the message and when it closed it, not from when this test looked: a busy
    # machine only makes the bot later, never the auction shorter.
    shown = snowflake_time(auction.id).timestamp()
    deadline = await world.eventually(lambda: world.game(gid).deadline, what="the quiet period's end to be kept")
    assert QUIET - 0.5 <= deadline - shown <= QUIET + 5  # from its showing, not from the outage's start
    await world.fake.wait_for(lambda: not auction.custom_ids(), timeout=15, what="the auction to close")
    assert auction.edited_timestamp is not None
    assert datetime.fromisoformat(auction.edited_timestamp).timestamp() - shown >= QUIET - 0.5
    st = world.game(gid).state
    assert st is not None and st.auction is None

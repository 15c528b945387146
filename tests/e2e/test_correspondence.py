"""A correspondence game (hours per decision, time scaled): reminders at half and three quarters of a decision's
clock, none sent twice across a restart; an auction that stays open until its clock runs out."""

from __future__ import annotations

import time

import pytest

from devkit.world import World
from fakediscord.snowflake import snowflake_time

FOUR_HOURS = 4 * 3600


@pytest.fixture
def bot_env() -> dict[str, str]:
    # Four hours last 7.2 s; an auction's quiet period of the live pace would close it in 1.5 s.
    return {"TURISTA_TIME_SCALE": "0.0005", "TURISTA_AUCTION_QUIET": "3000"}


def reminders(world: World) -> list:
    return [m for m in world.bot_messages() if m.content and m.content.startswith("⏰")]


async def test_reminders_at_half_and_three_quarters_survive_a_restart(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], turn_timeout=FOUR_HOURS)
    st = await world.start(gid, world.ana)
    deadline = world.game(gid).deadline
    assert deadline is not None
    clock = FOUR_HOURS * 0.0005
    user = world.user_of(gid, st.current)
    table = world.table()
    assert table is not None and "<t:" in table.text  # who the game waits for, since when
    # Privately, the games that wait on you, with a link to the table message.
    mine = await world.slash(user, "turista my-games")
    link = f"https://discord.com/channels/{world.channel.guild.id}/{table.channel.id}/{table.id}"
    assert mine.ephemeral and "Te espera a ti: tu turno" in (mine.content or "") and link in (mine.content or "")
    other = world.beto if user is world.ana else world.ana
    theirs = await world.slash(other, "turista my-games")
    assert "Espera a" in (theirs.content or "") and link in (theirs.content or ""), theirs.content
    first = await world.fake.wait_for_message(world.channel, lambda m: m.content.startswith("⏰"), timeout=15,
                                              threads=True)
    # Plain words in the content, so that the push notification says them; the person it waits for mentioned.
    assert f"<@{user.id}>" in first.content and not first.embeds
    posted = snowflake_time(first.id).timestamp()
    assert deadline - clock / 2 - 0.5 <= posted < deadline - clock / 4
    # A restart between the two: the first is not sent again, the second comes at three quarters.
    await world.bot.kill()
    await world.bot.start()
    await world.fake.wait_for(lambda: len(reminders(world)) >= 2, timeout=15, what="the second reminder")
    second = reminders(world)[1]
    assert deadline - clock / 4 - 0.5 <= snowflake_time(second.id).timestamp() < deadline
    await world.fake.wait_for(lambda: world.game(gid).version > st.version, timeout=15, what="the move played")
    assert time.time() >= deadline - 0.1
    assert len([m for m in reminders(world) if f"<@{user.id}>" in m.content]) == 2


async def test_an_auction_stays_open_until_its_clock_runs_out(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], turn_timeout=FOUR_HOURS)
    await world.start(gid, world.ana)
    st = await world.play_until(gid, lambda st: st.phase == "buy" and not st.debts, buy=lambda st: False)
    square = st.seats[st.current].pos
    decliner = world.user_of(gid, st.current)
    bidder = world.user_of(gid, 1 - st.current)
    await world.act(gid, decliner, world.table(), "decline")  # type: ignore[arg-type]
    await world.settled(gid)
    auction = world.with_verb("bid")
    assert auction is not None and "3000 s" not in auction.text
    await world.act(gid, bidder, auction, "bid")
    bid_at = time.time()
    # No quiet period: the one who has not bid is reminded, and the auction closes on its clock.
    reminder = await world.fake.wait_for_message(world.channel, lambda m: m.content.startswith("⏰"), timeout=15,
                                                 threads=True)
    assert f"<@{decliner.id}>" in reminder.content and f"<@{bidder.id}>" not in reminder.content
    await world.fake.wait_for(lambda: not auction.custom_ids(), timeout=15, what="the auction to close")
    assert time.time() - bid_at >= FOUR_HOURS * 0.0005 - 0.5
    st = world.game(gid).state
    assert st is not None and st.auction is None and st.owner[square] == world.game(gid).seat_of(bidder.id)

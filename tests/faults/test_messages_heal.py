"""A table Discord fails to post or edit heals by itself: a server error or a rate limit is tried again, a
message deleted or refused to the bot is replaced by a fresh one (and the log says why), and a table that
cannot go up at all goes up as soon as Discord takes it, without anyone clicking or typing anything."""

from __future__ import annotations

import pytest

from devkit.world import World
from tests.faults.turns import ana_may_end_her_turn

MESSAGE = "/channels/{channel}/messages/{message}"
MESSAGES = "/channels/{channel}/messages"


async def a_game_waiting_for_ana(world: World) -> tuple[int, int]:
    """Ana and Beto at a table; Ana's turn, nothing rolled yet: the game id and the version."""
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    while world.user_of(gid, st.current) != world.ana or st.auction or st.trade or st.debts:
        await world.play_turn_step(gid, st)
        st = await world.settled(gid)
    return gid, st.version


async def a_roll_typed_by_ana(world: World) -> None:
    """`/roll`: its answer is private, so the table is edited on its own (a click on the table would carry
    the table's edit in its answer; tests/e2e/test_click_answer.py covers that answer failing)."""
    answer = await world.slash(world.ana, "roll")
    assert answer.ephemeral and "⚠️" not in (await answer.wait_message()).content


@pytest.mark.parametrize(("status", "code", "why"), [
    (404, 10008, "it was deleted"),
    (403, 50005, "Discord refuses the edit"),
])
async def test_a_table_that_cannot_be_edited_is_posted_afresh(world: World, status: int, code: int,
                                                               why: str) -> None:
    gid, _ = await a_game_waiting_for_ana(world)
    table = world.table()
    assert table is not None
    refused = world.fake.fail("PATCH", MESSAGE, status=status, code=code, times=1, message=table.id)
    await a_roll_typed_by_ana(world)
    st = await world.settled(gid)
    assert refused.hits == 1
    fresh = world.table()
    assert fresh is not None and fresh.id != table.id and world.version_of(fresh) == st.version
    assert f"cannot be edited ({why}" in world.bot.log()
    await world.eventually(lambda: world.game(gid).messages["table"].message_id == fresh.id,
                           what="the fresh table to be recorded")
    await world.play_turn_step(gid, st)
    assert world.game(gid).version > st.version


async def test_server_errors_and_rate_limits_are_tried_again(world: World) -> None:
    gid, _ = await a_game_waiting_for_ana(world)
    table = world.table()
    assert table is not None
    # 503 is not among the statuses discord.py retries by itself; the 429s it waits out on its own.
    failing = world.fake.fail("PATCH", MESSAGE, status=503, times=3, message=table.id)
    limited = world.fake.fail("PATCH", MESSAGE, status=429, times=2, message=table.id)
    await a_roll_typed_by_ana(world)
    st = await world.settled(gid, timeout=30)
    assert (failing.hits, limited.hits) == (3, 2)
    assert world.table() is table and world.version_of(table) == st.version, "the same table, edited"
    assert "could not edit the table (503" in world.bot.log()
    await world.play_turn_step(gid, st)
    assert world.game(gid).version > st.version


async def test_a_table_refused_again_and_again_goes_up_once_discord_takes_it(world: World) -> None:
    gid, _ = await a_game_waiting_for_ana(world)
    ana = world.game(gid).seat_of(world.ana.id)
    assert ana is not None
    await world.play_until(gid, lambda st: ana_may_end_her_turn(st, ana), buy=lambda st: False)
    # Every post of the next turn's table is refused until the fault is cleared.
    refused = world.fake.fail("POST", MESSAGES, status=403, code=50013, reason="Missing Permissions", times=None,
                              channel=world.game(gid).where)
    await world.act(gid, world.ana, world.table(), "end_turn")  # type: ignore[arg-type]
    ended = world.game(gid).version
    # Refused once, and again when the game tries to heal (the turn's ping beside a layout table is refused too).
    await world.eventually(lambda: "its messages are still not up to date" in world.bot.log(), timeout=30,
                           what="the new table to be refused twice")
    refused.clear()
    st = await world.settled(gid, timeout=60)
    assert st.version == ended, "nobody could play while the table was refused"
    await world.eventually(lambda: "its messages are up to date again" in world.bot.log(),
                           what="the log to say the table is back")
    await world.play_turn_step(gid, st)
    assert world.game(gid).version > st.version

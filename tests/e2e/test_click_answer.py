"""A click on the table is answered by the table's own edit; if that edit is slow or fails, the click is
deferred and the table edited as before."""

from __future__ import annotations

import asyncio

import pytest

from devkit.world import World
from fakediscord.replies import DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE


async def test_a_click_on_the_table_is_answered_by_the_new_table(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    table = world.table()
    assert table is not None and world.version_of(table) == st.version
    edits, board = len(table.history), table.attachments[0].data
    reply = await world.act(gid, world.user_of(gid, st.current), table, "roll")
    assert reply.response_type == UPDATE_MESSAGE and reply.message is table
    # The answer itself carried the new table: its buttons, the account of the roll and a new board.
    after = world.game(gid).state
    assert after is not None and after.version > st.version
    assert world.version_of(table) == after.version and len(table.history) == edits + 1
    assert [a.filename for a in table.attachments] == ["board.png"] and table.attachments[0].data != board


async def test_a_failed_answer_is_deferred_and_the_table_edited(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    table = world.table()
    assert table is not None
    # Refused once, as Discord refuses an answer it thinks late (server errors are retried by discord.py).
    world.fake.fail_next("POST", "/callback", status=404, code=10062, message="Unknown interaction")
    reply = await world.act(gid, world.user_of(gid, st.current), table, "roll")
    assert reply.response_type == DEFERRED_UPDATE_MESSAGE and not reply.followups
    after = await world.settled(gid)
    assert after.version > st.version and world.version_of(table) == after.version
    assert "could not be answered with its message's edit (404" in world.bot.log()


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"TURISTA_AUCTION_QUIET": "30"}


async def test_a_click_whose_edit_waits_is_deferred_in_time(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    await world.start(gid, world.ana)
    st = await world.play_until(gid, lambda st: st.phase == "buy" and not st.debts, buy=lambda st: False)
    table = world.table()
    assert table is not None
    # Declining opens an auction: its message is posted before the table is edited. Discord takes a second
    # to post it, so the click is deferred on time rather than kept waiting for the table's edit.
    held = world.fake.hold("POST", "/channels/{channel}/messages", delay=1.0, times=1)
    reply = await world.act(gid, world.user_of(gid, st.current), table, "decline")
    assert reply.response_type == DEFERRED_UPDATE_MESSAGE and not reply.followups
    await held.reached(1)
    after = await world.settled(gid)
    assert after.auction is not None and world.version_of(table) == after.version
    assert world.with_verb("bid") is not None


async def test_the_last_edits_are_recorded_at_a_stop_and_a_restart_leaves_the_table_alone(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    table = world.table()
    assert table is not None
    await world.act(gid, world.user_of(gid, st.current), table, "roll")
    st = await world.settled(gid)
    # An edit is recorded with the next action; a stop records the ones still waiting.
    await world.bot.stop()
    assert world.game(gid).messages["table"].version == st.version == world.version_of(table)
    edits = len(table.history)
    await world.bot.start()
    status = await world.click(world.beto, table, "status")  # the game answers again
    assert status.ephemeral
    await asyncio.sleep(1.0)  # start-up's restore has had its time
    assert len(table.history) == edits, "an up-to-date table is not edited at start-up"

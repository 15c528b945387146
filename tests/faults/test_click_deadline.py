"""A click is acknowledged within Discord's 3 s even when Discord refuses its answer again and again: the click
is deferred the moment its answer (the table's edit) is refused, each try of the deferral goes out once, and a
try that could not be over in time is never sent."""

from __future__ import annotations

import time

import pytest

from devkit.world import World
from fakediscord.replies import DEFERRED_UPDATE_MESSAGE

CALLBACK = "/interactions/{interaction}/{token}/callback"


async def a_table_waiting_for_a_roll(world: World) -> tuple[int, int]:
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    return gid, st.version


@pytest.mark.parametrize(("status", "retry_after"), [(500, 0.0), (502, 0.0), (429, 1.0)])
async def test_a_click_refused_three_times_is_deferred_in_time(world: World, status: int,
                                                               retry_after: float) -> None:
    gid, version = await a_table_waiting_for_a_roll(world)
    table = world.table()
    assert table is not None
    # The table's own edit is slow too (a second), so the click would be deferred only after it, at the end of
    # the action; discord.py would wait 1 s and 3 s after a server error, and every 429's retry_after.
    world.fake.hold("PATCH", "/channels/{channel}/messages/{message}", delay=1.0, times=1, message=table.id)
    refused = world.fake.fail("POST", CALLBACK, status=status, retry_after=retry_after, times=3)
    user = world.user_of(gid, world.game(gid).state.current)  # type: ignore[union-attr]
    clicked = time.monotonic()
    reply = await (await world.fake.click(user, table, world.custom_id(table, "roll"))).wait(timeout=10)
    assert reply.response_type == DEFERRED_UPDATE_MESSAGE and refused.hits == 3
    assert time.monotonic() - clicked < 3.0
    after = await world.settled(gid)
    assert after.version > version and world.version_of(table) == after.version
    assert world.fake.errors == []  # no answer came late


async def test_a_click_discord_keeps_refusing_gets_no_late_answer(world: World) -> None:
    gid, version = await a_table_waiting_for_a_roll(world)
    table = world.table()
    assert table is not None
    refused = world.fake.fail("POST", CALLBACK, status=429, retry_after=1.0, times=None)
    user = world.user_of(gid, world.game(gid).state.current)  # type: ignore[union-attr]
    reply = await world.fake.click(user, table, world.custom_id(table, "roll"))
    # The answer, the deferral at once, and two more a second apart (fewer if the machine is slow to try them): a
    # fifth could not be over in time. Until the bot says it gave up, however long that takes on a busy machine.
    given_up = "a click was not answered within Discord's 3 s"
    await world.eventually(lambda: given_up in world.bot.log(), timeout=60, what="the bot to give the click up")
    refused.clear()
    after = await world.settled(gid)  # the move is made and the table shows it all the same
    assert after.version > version and world.version_of(table) == after.version
    assert 2 <= refused.hits <= 4 and not reply.acknowledged and world.fake.errors == []
    log = world.bot.log()
    assert log.count(given_up) == 1
    # Discord shows this click as failed: nothing could have answered it in time.
    del world.fake.state.replies[reply.interaction_id]

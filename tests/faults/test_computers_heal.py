"""Computer seats never stop for good: a refused first table or a database that takes no writes for a
while only delays them, and the game goes on without a restart."""

from __future__ import annotations

import pytest

from devkit.world import World
from engine import new_game
from tests.faults.database import write_lock
from tests.faults.turns import computer_about_to_move

SEATS = ["Ana", "🤖 1", "🤖 2"]  # the host and two computers; the order of play depends on the seed alone


def seed_where_a_computer_starts() -> int:
    return next(seed for seed in range(1, 500)
                if new_game("turismundo", SEATS, seed, computers=["", "normal", "normal"])[0].current != 0)


@pytest.fixture
def bot_env(request: pytest.FixtureRequest) -> dict[str, str]:
    if request.node.name.startswith("test_the_first_table_refused"):
        return {"TURISTA_SEED": str(seed_where_a_computer_starts())}
    return {}


async def test_the_first_table_refused_does_not_stop_a_computer_that_plays_first(world: World) -> None:
    gid = await world.open_table(world.ana, [], computers=2)
    lobby = next(m for m in reversed(world.bot_messages()) if world.custom_id_or_none(m, "start"))
    # The game's thread is started from the lobby message, and a thread takes its first message's id.
    refused = world.fake.fail("POST", "/channels/{channel}/messages", status=403, code=50013, times=1,
                              reason="Missing Permissions", channel=lobby.id)
    await world.click(world.ana, lobby, "start")
    await world.fake.wait_for(lambda: refused.hits == 1, timeout=10, what="the first table to be refused")
    # The computers may have played already: the start is read from the game's log.
    start = next(world.store.log(gid))
    opener = next(e for e in start.decoded_events() if e["code"] == "turn_started")
    assert opener["seat"] != 0, "the seed should let a computer play first"

    # The computers play their turns; then the game waits for Ana on a table with live buttons.
    st = await world.settled(gid, timeout=30)
    assert st.version > start.seq and world.game(gid).seat_of(world.ana.id) in st.seat_to_act()
    assert "Discord refused the first table" in world.bot.log()
    table = world.table()
    assert table is not None
    await world.play_turn_step(gid, st)
    assert world.game(gid).version > st.version


async def test_computers_wait_for_a_locked_database_and_go_on(world: World) -> None:
    # The computer has not started yet when another process takes the database's write lock.
    gid, ana, held, ended = await computer_about_to_move(world)
    with write_lock(world.bot.db_path):
        held.release()
        await world.eventually(lambda: "computer players: the database does not take writes" in world.bot.log(),
                               timeout=30, what="the computer's move to be refused by the locked database")
        assert world.game(gid).version == ended

    # Once the lock is gone the computer plays its turn, and the game waits for Ana again.
    st = await world.settled(gid, timeout=60)
    assert st.version > ended and st.current == ana
    log = world.bot.log()
    assert "computer players: the database takes writes again" in log and "computer players stopped" not in log
    await world.play_turn_step(gid, st)
    assert world.game(gid).version > st.version

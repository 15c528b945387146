"""A full disk under the database heals by itself: the computer seats wait and go on once there is space
again, a person's click is refused privately in their language and changes nothing, and the log says what
happened and when it was over. No restart, no error in the log, no answer later than Discord allows."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from devkit.world import World
from tests.faults.database import SmallDisk, small_disk
from tests.faults.turns import computer_about_to_move

FULL = "El disco del bot está lleno"  # Ana's language (es-419)


@pytest.fixture
def disk(tmp_path: Path) -> Iterator[SmallDisk]:
    with small_disk(tmp_path) as disk:
        yield disk


@pytest.fixture
def bot_env(tmp_path: Path, disk: SmallDisk) -> dict[str, str]:
    # The bot and the test open the database where the harness puts it; the file itself lives on the
    # small disk (SQLite follows the link, so its journal is written there too).
    (tmp_path / "turista.db").symlink_to(disk.path / "turista.db")
    return {}


async def test_a_full_disk_stops_nothing_for_good(world: World, disk: SmallDisk) -> None:
    # The computer has not moved yet when the disk fills up.
    gid, ana, held, ended = await computer_about_to_move(world)
    disk.fill()
    held.release()
    await world.eventually(lambda: "computer players: the database does not take writes (db_full" in world.bot.log(),
                           timeout=30, what="the computer's move to be refused by the full disk")
    assert world.game(gid).version == ended
    disk.free()

    # With space again the computer plays its turn, and the game waits for Ana.
    st = await world.settled(gid, timeout=60)
    assert st.version > ended and st.current == ana
    log = world.bot.log()
    assert "computer players: the database takes writes again" in log and "computer players stopped" not in log

    # Ana clicks while the disk is full: she is told privately, in her language, and the game stays as it was.
    table = world.table()
    assert table is not None
    verb = next(v for v in ("roll", "pay_fine", "end_turn") if world.custom_id_or_none(table, v))
    disk.fill()
    reply = await world.click(world.ana, table, verb)
    # The refusal is the click's answer, or follows it if the click had to be deferred meanwhile.
    refusal = reply if reply.response_type == 4 else (await reply.wait_followups(1, timeout=30))[0]
    assert refusal.ephemeral and FULL in (refusal.content or ""), refusal.content
    assert world.game(gid).version == st.version
    await world.eventually(lambda: "store error on a component: db_full" in world.bot.log(), timeout=10,
                           what="the refused click in the log")
    disk.free()

    # The same button works once there is space again.
    await world.act(gid, world.ana, table, verb)
    assert world.game(gid).version > st.version

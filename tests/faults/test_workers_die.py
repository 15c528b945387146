"""The picture workers never outlive the bot: killed (`kill -9`) in the middle of their warm-up or once they are
idle, the bot takes its workers with it at once, without a traceback, and the bot started again never shares the
machine with them."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.pictures.pool import WORKER_NICENESS
from devkit.world import World


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"TURISTA_RENDER_WORKERS": "2"}


def descendants(pid: int) -> list[int]:
    """The processes `pid` started, and theirs (the picture workers, multiprocessing's resource tracker)."""
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        try:
            children = [int(c) for c in Path(f"/proc/{current}/task/{current}/children").read_text().split()]
        except OSError:
            continue
        found += children
        todo += children
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def niceness(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[16])
    except (OSError, IndexError, ValueError):
        return None


def picture_workers(pid: int) -> list[int]:
    def spawned(child: int) -> bool:
        try:
            return b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            return False

    return [child for child in descendants(pid) if spawned(child)]


# A worker left behind lives on for good; one that dies with the bot takes a moment, longer on a busy machine.
DIE_WITHIN = 10.0


async def started(world: World) -> tuple[list[int], list[int], int]:
    """The bot's picture workers once both run, every process it started, and the bot's own niceness (its
    workers run at it until their warm-up is over, below it after)."""
    process = world.bot.process
    assert process is not None
    workers = await world.eventually(lambda: len(found := picture_workers(process.pid)) == 2 and found,
                                     timeout=10, what="the picture workers to start")
    bot = niceness(process.pid)
    assert bot is not None
    return workers, descendants(process.pid), bot


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux's /proc")
async def test_the_picture_workers_die_with_the_bot(world: World) -> None:
    # Just started: the workers are in the middle of their warm-up (nothing is kept on disk yet).
    workers, family, bot = await started(world)
    assert any(niceness(pid) == bot for pid in workers), "the warm-up was over before the kill"
    await world.bot.kill()
    await world.eventually(lambda: not any(alive(pid) for pid in family), timeout=DIE_WITHIN,
                           what="the workers to die with the bot")

    # Started again, the warm-up over: idle workers go the same way.
    await world.bot.start()
    workers, family, bot = await started(world)
    await world.eventually(lambda: all(niceness(pid) == min(19, bot + WORKER_NICENESS) for pid in workers), timeout=30,
                           what="the warm-up to end")
    await world.bot.kill()
    await world.eventually(lambda: not any(alive(pid) for pid in family), timeout=DIE_WITHIN,
                           what="the workers to die with the bot")

    # And the bot answers at once when it is back: a game is played on its pictures.
    await world.bot.start()
    gid = await world.open_table(world.ana, [world.beto])
    st = await world.start(gid, world.ana)
    await world.play_turn_step(gid, st)
    assert "BrokenPipeError" not in world.bot.log()  # the fixture also finds no traceback nor ERROR

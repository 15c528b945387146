"""Start → first table: how long the players of a new game look at an empty thread.

    python bench/start.py [--runs 5] [--workers N]

The real bot (`python -m bot`, picture workers as in production: one per core unless `--workers` says) against
the fake Discord. Each run opens a table with two people on a fresh database and, from the click on Start to
the game's first table message with its board:

- `cold`: the bot was stopped with the lobby waiting and started again; Start is clicked the moment it has
  connected (its picture workers have just started). What the bot keeps on disk between runs is there.
- `cold_bare`: the same with the bot's cache folder emptied before the start: the first start after an
  install, or after a release that draws the board differently.
- `warm`: a second table, once the picture workers have been idle for a second.

Prints one JSON line: each figure's median and slowest over the runs (ms), every run's figure, and
`connect_ms`: from the process's start to its commands synced and its gateway connected (the part of a
restart players see as the bot being offline; `connect_bare_ms` the same with the cache folder emptied), with
`reference_ms`, a fixed loop of Python before and after (`bench.harness.REFERENCE_LOOP`), to tell a slower bot
from a slower machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This script's folder is not a package: make the repository importable when it is run by path.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.harness import launch_bot, reference_ms, workers_idle  # noqa: E402
from bot.store import Store  # noqa: E402
from devkit.world import TEST_SETTINGS, Bot, World, bot_environment  # noqa: E402
from fakediscord import FakeChannel, FakeDiscord, FakeUser  # noqa: E402


async def started(bot: Bot) -> float:
    """Start the bot's process; seconds until it has connected (its commands registered before, or unchanged
    since the last start and not sent again)."""
    fake = bot.fake
    began = time.perf_counter()
    bot.process = await launch_bot(fake, bot.env, bot.log_path)
    await fake.wait_for(lambda: fake.state.command_syncs > 0 and bot.online(), timeout=60,
                        what="the bot to register its commands and connect")
    return time.perf_counter() - began


async def start_to_table(world: World, gid: int, host: FakeUser, channel: FakeChannel) -> float:
    """Click Start on the lobby of `gid`; seconds until its first table message shows with its board."""
    lobby = next(m for m in reversed(world.bot_messages(channel)) if world.custom_id_or_none(m, "start"))

    def first_table() -> bool:
        table = world.table(channel)
        return table is not None and any(a.filename == "board.png" for a in table.attachments)

    began = time.perf_counter()
    reply = await world.fake.click(host, lobby, world.custom_id(lobby, "start"))
    await world.fake.wait_for(first_table, timeout=60, what=f"the first table of game {gid}")
    took = time.perf_counter() - began
    await reply.wait()
    return took


async def one_run(folder: Path, workers: int | None) -> dict[str, float]:
    """One run of each figure on a fresh database (seconds)."""
    cache = folder / "cache"
    settings = {**TEST_SETTINGS, "TURISTA_CACHE": str(cache), "TURISTA_STATUS_MINUTES": "0"}
    settings.pop("TURISTA_RENDER_WORKERS")  # one worker per core, as in production
    if workers is not None:
        settings["TURISTA_RENDER_WORKERS"] = str(workers)
    figures: dict[str, float] = {}
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Mesa de pruebas", channels=("mesa", "otra", "tercera"))
        people = [fake.add_user(name, guild, locale="es-419") for name in ("Ana", "Beto", "Carl", "Dora")]
        db = folder / "turista.db"
        bot = Bot(fake, db, folder / "bot.log", bot_environment(db, settings))
        store = Store(db)
        world = World(fake, guild, guild.channel("mesa"), guild.channel("otra"), *people, bot, store)
        try:
            for figure, channel, bare in (("cold", world.channel, False),
                                          ("cold_bare", guild.channel("tercera"), True)):
                await started(bot)
                gid = await world.open_table(world.ana, [world.beto], channel=channel)
                assert bot.process is not None
                await workers_idle(bot.process.pid)  # a run of some length before the restart
                await bot.stop()
                if bare:
                    shutil.rmtree(cache, ignore_errors=True)
                figures["connect_bare" if bare else "connect"] = await started(bot)
                figures[figure] = await start_to_table(world, gid, world.ana, channel)
                await bot.stop()
            await started(bot)
            assert bot.process is not None
            await workers_idle(bot.process.pid)
            gid = await world.open_table(world.carl, [world.dora], channel=world.other)
            figures["warm"] = await start_to_table(world, gid, world.carl, world.other)
        finally:
            await bot.stop()
            store.close()
    return figures


def summary(name: str, values: list[float]) -> dict[str, Any]:
    ms = [round(1000 * v) for v in values]
    return {f"{name}_ms": {"median": round(statistics.median(ms)), "max": max(ms), "runs": ms}}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--workers", type=int, default=None, help="picture workers (default: one per core)")
    args = parser.parse_args()
    out: dict[str, Any] = {"runs": args.runs, "reference_ms": [reference_ms()]}
    runs: list[dict[str, float]] = []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory(prefix="turista-start-") as folder:
            runs.append(await one_run(Path(folder), args.workers))
    for name in ("cold", "cold_bare", "warm", "connect", "connect_bare"):
        out.update(summary(name, [run[name] for run in runs]))
    out["reference_ms"].append(reference_ms())
    print(json.dumps(out), flush=True)


if __name__ == "__main__":
    asyncio.run(main())

"""Interactions per second of the whole bot (real discord.py processes against the fake Discord on loopback),
with one and with two bot processes, on SQLite and on PostgreSQL.

    python bench/shards.py [--seconds 20] [--runs 3] [--guilds 8]

Each configuration starts GUILDS games of two people (one guild each, spread over 2 gateway shards) and
drives them all at once: each game's players click what a cautious player clicks (roll, buy, end the turn,
pass in auctions), the next click as soon as the table shows the last one applied. An interaction is one
such click, from the fake's delivery to the move stored and the table message edited (board picture
included). The bots run two shards in all: one process running both, or two processes running one each.
SQLite is one shared file (WAL) on this machine; PostgreSQL a local server with durable commits (fsync on).

Prints one JSON line per configuration: interactions/s over the measured window (median of RUNS, after a
warm-up), and the bot processes' CPU milliseconds per interaction (user + system, from /proc, the picture workers
included: what the bot itself costs, whatever else the shared machine does), and the resident memory of
the largest bot process with its workers. The driver and the fake Discord run in this
process and share the machine's cores with the bots, as players' clients never would.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.harness import cpu_seconds, family, rss_mb  # noqa: E402
from bot.store import Store  # noqa: E402
from devkit.pgcluster import ThrowawayCluster  # noqa: E402
from devkit.world import TEST_SETTINGS, Bot, World, bot_environment  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402

SHARDS = 2
WARMUP_S = 3.0


async def one_run(db: str, processes: int, guilds: int, seconds: float, folder: Path) -> tuple[float, float, float]:
    """(interactions per second, bot CPU ms per interaction, largest bot RSS in MB) for one configuration."""
    async with FakeDiscord() as fake:
        tables = [fake.add_guild(f"Mesa {k}", channels=("mesa",), on_shard=(k % SHARDS, SHARDS)) for k in range(guilds)]
        users = [(fake.add_user(f"Ana{k}", g), fake.add_user(f"Beto{k}", g)) for k, g in enumerate(tables)]
        shard_sets = [tuple(range(SHARDS))] if processes == 1 else [(k,) for k in range(SHARDS)]
        bots = []
        for n, shards in enumerate(shard_sets):
            env = bot_environment(db, {**TEST_SETTINGS, "TURISTA_SHARD_COUNT": str(SHARDS),
                                       "TURISTA_SHARDS": ",".join(map(str, shards)), "TURISTA_STATUS_MINUTES": "0"})
            bots.append(Bot(fake, Path(db), folder / f"bot-{n}.log", env, shards=shards, shard_count=SHARDS))
        for bot in bots:
            await bot.start()
        store = Store(db)
        flat = [u for pair in users for u in pair]
        world = World(fake, tables[0], tables[0].channel("mesa"), tables[-1].channel("mesa"), *flat[:4], bots[0], store)
        try:
            games = []
            for k, guild in enumerate(tables):
                channel = guild.channel("mesa")
                gid = await world.open_table(users[k][0], [users[k][1]], channel=channel)
                await world.start(gid, users[k][0], channel)
                games.append((gid, channel))
            clicks = 0
            counting = False

            async def drive(gid: int, channel: object) -> None:
                nonlocal clicks
                while True:
                    st = await world.settled(gid, channel)  # type: ignore[arg-type]
                    if st.phase == "over":
                        return
                    await world.play_turn_step(gid, st, channel)  # type: ignore[arg-type]
                    clicks += counting

            drivers = [asyncio.create_task(drive(gid, channel)) for gid, channel in games]
            await asyncio.sleep(WARMUP_S)
            bot_pids = [bot.process.pid for bot in bots if bot.process is not None]
            pids = [member for pid in bot_pids for member in family(pid)]
            cpu_before = {p: cpu_seconds(p) for p in pids}
            counting, started = True, time.perf_counter()
            await asyncio.sleep(seconds)
            counting, elapsed = False, time.perf_counter() - started
            cpu_after = {p: cpu_seconds(p) for p in pids}
            cpu = sum(cpu_after[p] - cpu_before[p] for p in pids)
            rss = max(rss_mb(p) for p in bot_pids)
            measured = clicks
            for task in drivers:
                task.cancel()
            await asyncio.gather(*drivers, return_exceptions=True)
        finally:
            for bot in bots:
                await bot.stop()
            store.close()
    return measured / elapsed, 1000 * cpu / max(measured, 1), rss


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="measured window per run")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--guilds", type=int, default=8, help="games played at once, one per guild")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="turista-bench-") as tmp, ThrowawayCluster(durable=True) as cluster:
        folder = Path(tmp)
        for database in ("sqlite", "postgresql"):
            for processes in (1, 2):
                rates, costs, memory = [], [], []
                for run in range(args.runs):
                    db = cluster.new_schema() if database == "postgresql" else str(folder / f"{processes}-{run}.db")
                    rate, cost, rss = await one_run(db, processes, args.guilds, args.seconds, folder)
                    rates.append(rate)
                    costs.append(cost)
                    memory.append(rss)
                    print(f"{database}, {processes} process(es), run {run + 1}: {rate:.1f}/s, {cost:.1f} ms CPU",
                          file=sys.stderr)
                print(json.dumps({
                    "database": database, "processes": processes, "shards": SHARDS, "games": args.guilds,
                    "interactions_per_s": round(statistics.median(rates), 1),
                    "bot_cpu_ms_per_interaction": round(statistics.median(costs), 1),
                    "bot_rss_mb": round(max(memory)),
                }), flush=True)


if __name__ == "__main__":
    asyncio.run(main())

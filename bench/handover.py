"""CPU time of a store write made for the event loop: in the loop itself, through the default thread pool
(`asyncio.to_thread`, as many threads as the bot gives it), or through the bot's writer thread
(`bot.table.storage.Writer`).

    python bench/handover.py [--runs 5] [--writes 2000]

Prints one JSON line: per way, the median over `--runs` passes of the process's CPU time per `Store.apply`
(the moves of sample games, each pass into a fresh SQLite file), on one core with uvloop, as the bot runs.
The passes of the three ways are taken in turn; `writer_saves_us` is what a write through the writer costs
less than one through the pool.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.store import sample_game  # noqa: E402
from bot.run import event_loop_factory  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.table.storage import Writer  # noqa: E402
from devkit.synthetic import choose  # noqa: E402

DEFAULT_POOL_THREADS = 32  # the default pool's size when the bot still handed its writes to it

SETUP_SEED, MOVES_SEED, MAX_TURNS = 1, 2, 200
Move = tuple[int, int, engine.Action, list[dict], engine.State]


def start_games(store: Store, count: int) -> list[int]:
    """The same `count` sample games started in `store`, whichever store it is."""
    rng = random.Random(SETUP_SEED)
    return [sample_game(store, channel, rng, MAX_TURNS)[0] for channel in range(1, count + 1)]


def sample(folder: str, writes: int) -> tuple[int, list[Move]]:
    """`writes` moves of sample games (the games' count, and each move with the index of its game)."""
    rng = random.Random(SETUP_SEED)
    moves_rng = random.Random(MOVES_SEED)
    moves: list[Move] = []
    games = 0
    with Store(os.path.join(folder, "sample.db")) as store:
        while len(moves) < writes:
            games += 1
            _, state = sample_game(store, games, rng, MAX_TURNS)
            while len(moves) < writes and (action := choose(state, moves_rng)) is not None:
                new, events = engine.apply(state, action)
                moves.append((games - 1, state.version, action, events, new))
                state = new
    return games, moves


async def one_pass(way: str, games: int, moves: list[Move], folder: str) -> float:
    """CPU seconds per write of one pass, into a fresh file."""
    store = Store(os.path.join(folder, f"{way}-{time.monotonic_ns()}.db"))
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(max_workers=DEFAULT_POOL_THREADS)
    loop.set_default_executor(pool)
    writer = Writer(store.write_concurrency)
    ids = start_games(store, games)
    start = time.process_time()
    for index, version, action, events, new in moves:
        args: tuple[Any, ...] = (ids[index], version, 100, action, events, new)
        if way == "loop":
            store.apply(*args)
        elif way == "to_thread":
            await asyncio.to_thread(store.apply, *args)
        else:
            await writer(store.apply, *args)
    spent = time.process_time() - start
    writer.close()
    pool.shutdown()
    store.close()
    return spent / len(moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--writes", type=int, default=2000)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[-1]})  # the loop and the threads share a core
    ways = ("loop", "to_thread", "writer")
    spent: dict[str, list[float]] = {way: [] for way in ways}
    factory = event_loop_factory()
    with tempfile.TemporaryDirectory() as folder:
        games, moves = sample(folder, args.writes)
        for _ in range(args.runs):
            for way in ways:
                with asyncio.Runner(loop_factory=factory) as runner:
                    spent[way].append(runner.run(one_pass(way, games, moves, folder)))
    us = {way: round(1e6 * statistics.median(values), 1) for way, values in spent.items()}
    print(json.dumps({"writes": args.writes, "runs": args.runs, "cpu_us_per_write": us,
                      "writer_saves_us": round(us["to_thread"] - us["writer"], 1)}))


if __name__ == "__main__":
    main()

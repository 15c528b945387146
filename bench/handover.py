"""CPU time of a store write made for the event loop: in the loop itself, through the default thread pool
(`asyncio.to_thread`, as many threads as the bot gives it), or through the bot's writer thread
(`bot.writing.Writer`).

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
from bot.client import WORKER_THREADS  # noqa: E402
from bot.run import event_loop_factory  # noqa: E402
from bot.store import Store  # noqa: E402
from bot.store.synthetic import choose  # noqa: E402
from bot.writing import Writer  # noqa: E402

EDITIONS = ("turismundo", "mundial", "monopolio")
Move = tuple[int, int, engine.Action, list[dict], engine.State]


def games(writes: int) -> list[tuple[str, list[str], int, list[Move]]]:
    """Sample games (edition, names, seed, moves) with `writes` moves in all; a move names its game by index."""
    rng = random.Random(1)
    found: list[tuple[str, list[str], int, list[Move]]] = []
    count = 0
    while count < writes:
        edition, names, seed = rng.choice(EDITIONS), ["Ana", "Beto", "Cata"], rng.randrange(2**31)
        state, _ = engine.new_game(edition, names, seed, engine.Settings(max_turns=200))
        moves: list[Move] = []
        while count < writes and (action := choose(state, rng)) is not None:
            new, events = engine.apply(state, action)
            moves.append((len(found), state.version, action, events, new))
            state, count = new, count + 1
        found.append((edition, names, seed, moves))
    return found


async def one_pass(way: str, sample: list[tuple[str, list[str], int, list[Move]]], folder: str) -> float:
    """CPU seconds per write of one pass, into a fresh file."""
    path = os.path.join(folder, f"{way}-{time.monotonic_ns()}.db")
    store = Store(path)
    loop = asyncio.get_running_loop()
    pool = ThreadPoolExecutor(max_workers=WORKER_THREADS)
    loop.set_default_executor(pool)
    writer = Writer(store.write_concurrency)
    ids = []
    for k, (edition, names, seed, _) in enumerate(sample):
        gid = store.create_game(1, k + 1, 100, edition, {"max_turns": 200}, seed)
        for i, name in enumerate(names):
            store.add_seat(gid, 100 + i, name)
        state, events = engine.new_game(edition, names, seed, store.game(gid).engine_settings())
        store.start_game(gid, state, events)
        ids.append(gid)
    moves = [move for *_, game_moves in sample for move in game_moves]
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
    sample = games(args.writes)
    ways = ("loop", "to_thread", "writer")
    spent: dict[str, list[float]] = {way: [] for way in ways}
    factory = event_loop_factory()
    with tempfile.TemporaryDirectory() as folder:
        for _ in range(args.runs):
            for way in ways:
                with asyncio.Runner(loop_factory=factory) as runner:
                    spent[way].append(runner.run(one_pass(way, sample, folder)))
    us = {way: round(1e6 * statistics.median(values), 1) for way, values in spent.items()}
    print(json.dumps({"writes": args.writes, "runs": args.runs, "cpu_us_per_write": us,
                      "writer_saves_us": round(us["to_thread"] - us["writer"], 1)}))


if __name__ == "__main__":
    main()

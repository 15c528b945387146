"""Replays drawn while tables play: do the tables' boards wait for them?

    python bench/replay_load.py [--seconds 20] [--runs 2] [--turns 300] [--part pool,bot]

Two parts, each printing one JSON line per case (the medians over `--runs`, the cases taking turns in each run
so that the machine's drift falls on all of them alike):

- `pool`: the picture pool in this process, as the bot starts it (a worker per core for the boards, and the
  replays' own worker at the lowest priority). Two tables each ask their worker for the board after every move
  of a sample game, as soon as the previous one is back plus a person's pause (`--pause`); meanwhile replays of
  `--turns`-turn games are drawn one after the other (`own`: by the replays' worker, as the bot does), or by
  the first table's own board worker (`shared`: what the bot would do without a worker of its own), or none
  (`none`). Figures: board_ms {p50, p95, p99, max} over both tables, boards, replays drawn and their seconds.
- `bot`: the real bot (`python -m bot`, production settings: a picture worker per core, computer seats thinking
  1.5 s, SQLite) against the fake Discord, on the cores of `bench/e2e.py`, with two tables of two people and
  a computer (`bench.e2e.Table`: people click as soon as their table waits for them). Each run plays
  `--seconds` with nobody asking for a replay (`quiet`) and `--seconds` while a third person asks for one
  replay after the other (`/turista replay` of finished `--turns`-turn games written to the database before
  the start, a different game each time: the bot keeps the last few it drew), the order alternating between
  runs. Figures: board_ms (click to the board that shows its outcome) and ack_ms {p50, p95, p99, max},
  clicks, replays and their seconds (the command to the posted picture), late_acks_over_1s, reference_ms.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This folder holds bench/render.py, named like the package: take the folder off the import path so that
# `import render` finds the package, and put the repository root on it.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from bench.e2e import Table  # noqa: E402
from bench.harness import ChannelWatch, Cores, launch_bot, percentile, reference_ms, workers_idle  # noqa: E402
from bot.pictures import drawing  # noqa: E402
from bot.pictures.pool import Pictures  # noqa: E402
from bot.store import Store  # noqa: E402
from devkit.synthetic import stored_game  # noqa: E402
from devkit.world import bot_environment  # noqa: E402
from engine import Action, State, apply_inplace, clone, to_json  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402
from render.sample import play  # noqa: E402

REPLAY_GAMES = 24  # finished games to replay, each once at most (the bot keeps the last few replays it drew)


def quantiles(values: list[float]) -> dict[str, float]:
    return {q: percentile(values, v) for q, v in (("p50", .5), ("p95", .95), ("p99", .99), ("max", 1))}


def median(runs: list[dict[str, Any]], key: str) -> Any:
    values = [r[key] for r in runs]
    if isinstance(values[0], dict):
        return {k: round(statistics.median(v[k] for v in values), 1) for k in values[0]}
    return round(statistics.median(values), 2)


# -- the pool -------------------------------------------------------------------------------------------------
def boards(seed: int) -> list[tuple[State, tuple[dict, ...]]]:
    """The states after each move of a sample game, with the move's events: what a table's boards show."""
    first, steps = play("turismundo", seed=seed, turns=120)
    st = clone(first)
    out = []
    for action, _ in steps:
        events = tuple(apply_inplace(st, action))
        out.append((clone(st), events))
    return out


async def pool_case(mode: str, seconds: float, pause: float, games: list[tuple[State, list[Action]]],
                    tables: list[list[tuple[State, tuple[dict, ...]]]]) -> dict[str, Any]:
    pool = Pictures(warm=False)
    pool.start()
    try:
        # Every worker ready for the edition played (and the replays' process started) before the clock starts.
        await asyncio.gather(*(pool.prepare("turismundo", "es", table=k) for k in range(max(1, pool.workers))))
        await pool.replay(*games[0], "en")
        latencies: list[float] = []
        replays: list[float] = []
        until = time.perf_counter() + seconds

        async def table(k: int) -> None:
            moves = tables[k]
            n = 0
            while time.perf_counter() < until:
                state, events = moves[n % len(moves)]
                n += 1
                start = time.perf_counter()
                await pool.drawn(bytes([k]) + n.to_bytes(4, "big"), k, to_json(state), "es", events, (), None)
                latencies.append(time.perf_counter() - start)
                await asyncio.sleep(pause)

        async def replaying() -> None:
            for n in range(1, 10_000):
                if time.perf_counter() >= until:
                    return
                first, actions = games[n % len(games)]
                start = time.perf_counter()
                if mode == "own":
                    pool._replays.clear()  # each replay drawn, none taken from the few the pool keeps
                    await pool.replay(first, actions, "es")
                else:  # the first table's worker, in the queue of its boards
                    await pool._run(0, drawing.replay, to_json(first), actions, "es")
                replays.append(time.perf_counter() - start)

        work = [table(0), table(1)] + ([replaying()] if mode != "none" else [])
        await asyncio.gather(*work)
    finally:
        pool.shutdown()
    return {"mode": mode, "board_ms": quantiles(latencies), "boards": len(latencies), "replays": len(replays),
            "replay_s": round(statistics.median(replays), 2) if replays else 0.0}


async def pool_part(args: argparse.Namespace) -> None:
    tables = [boards(seed) for seed in (1, 2)]
    games = []
    for seed in range(3, 3 + 4):
        first, steps = play("turismundo", seed=seed, turns=args.turns)
        games.append((first, [a for a, _ in steps]))
    modes = ("none", "own", "shared")
    runs: dict[str, list[dict[str, Any]]] = {m: [] for m in modes}
    for run in range(args.runs):
        for mode in modes if run % 2 == 0 else reversed(modes):
            result = await pool_case(mode, args.seconds, args.pause, games, tables)
            print(f"# {json.dumps(result)}", file=sys.stderr, flush=True)
            runs[mode].append(result)
    for mode in modes:
        print(json.dumps({"part": "pool", "mode": mode, "turns": args.turns,
                          **{k: median(runs[mode], k) for k in ("board_ms", "boards", "replays", "replay_s")}}),
              flush=True)


# -- the bot --------------------------------------------------------------------------------------------------
async def bot_run(args: argparse.Namespace, tmp: Path, cores: Cores, order: tuple[str, ...]) -> dict[str, dict]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench", channels=("mesa-0", "mesa-1", "replays"))
        people = [[fake.add_user(f"p{k}a", guild), fake.add_user(f"p{k}b", guild)] for k in range(2)]
        asker = fake.add_user("viewer", guild)
        db = tmp / f"replays-{time.monotonic_ns()}.db"
        rng = random.Random(1)
        with Store(db) as store:
            games = [stored_game(store, guild.id, guild.channel("replays").id,
                                 [(asker.id, "viewer", ""), (None, "Lupita", "normal"), (None, "Chabelo", "normal"),
                                  (None, "Profe", "dificil")], turns=args.turns, seed=rng.randrange(1, 10**6))
                     for _ in range(REPLAY_GAMES)]
        process = await launch_bot(fake, bot_environment(db, cores.bot_settings()), tmp / "replays.log", cores)
        results: dict[str, dict] = {}
        try:
            await fake.wait_for(lambda: fake.connected and fake.state.command_syncs > 0, 60, "the bot")
            cores.pin_workers(process.pid)
            store = Store(db)
            watch = ChannelWatch(fake)
            tables = [Table(fake, store, watch, guild.channel(f"mesa-{k}"), people[k]) for k in range(2)]
            await asyncio.gather(*(t.open() for t in tables))
            await workers_idle(process.pid)
            left = list(games)
            for phase in order:
                out: dict[str, list[float]] = {k: [] for k in ("ack", "all_acks", "board", "lost")}
                replays: list[float] = []
                start = time.perf_counter()
                until = start + args.seconds

                async def replaying(until: float = until, replays: list[float] = replays) -> None:
                    while time.perf_counter() < until and left:
                        game = left.pop(0)
                        asked = time.perf_counter()
                        reply = await (await fake.slash(asker, guild.channel("replays"), "turista replay",
                                                        options={"game": game})).wait(10)
                        await reply.wait_message(lambda m: bool(m.attachments), timeout=120)
                        replays.append(time.perf_counter() - asked)
                        # The replays' worker starts at the first replay, on the bot's core: on the workers' cores,
                        # as on a machine of the bot's own, where nothing pins it.
                        cores.pin_workers(process.pid)

                work = [t.play(start, until, out) for t in tables]
                if phase == "replays":
                    work.append(replaying())
                await asyncio.gather(*work)
                results[phase] = {"board_ms": quantiles(out["board"]), "ack_ms": quantiles(out["ack"]),
                                  "clicks": len(out["ack"]), "replays": len(replays),
                                  "replay_s": round(statistics.median(replays), 1) if replays else 0.0,
                                  "late_acks_over_1s": sum(1 for a in out["all_acks"] if a > 1.0)}
            store.close()
        finally:
            await process.stop(timeout=15)
    return results


async def bot_part(args: argparse.Namespace) -> None:
    cores = Cores.split()
    cores.pin_load()
    phases = ("quiet", "replays")
    runs: dict[str, list[dict[str, Any]]] = {p: [] for p in phases}
    with tempfile.TemporaryDirectory(prefix="turista-replays-") as folder:
        reference = reference_ms(cores.bot)
        for run in range(args.runs):
            order = phases if run % 2 == 0 else tuple(reversed(phases))
            results = await bot_run(args, Path(folder), cores, order)
            for phase in phases:
                print(f"# {phase}: {json.dumps(results[phase])}", file=sys.stderr, flush=True)
                runs[phase].append(results[phase])
        reference = (reference + reference_ms(cores.bot)) / 2
    for phase in phases:
        keys = ("board_ms", "ack_ms", "clicks", "replays", "replay_s", "late_acks_over_1s")
        print(json.dumps({"part": "bot", "phase": phase, "turns": args.turns,
                          **{k: median(runs[phase], k) for k in keys}, "reference_ms": round(reference, 1)}),
              flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="seconds of each case or phase")
    parser.add_argument("--runs", type=int, default=2)
    parser.add_argument("--turns", type=int, default=300, help="the length of the games replayed")
    parser.add_argument("--pause", type=float, default=0.05, help="seconds between two boards of a table (pool)")
    parser.add_argument("--part", default="pool,bot")
    args = parser.parse_args()
    parts = set(args.part.split(","))
    if "pool" in parts:
        asyncio.run(pool_part(args))
    if "bot" in parts:
        asyncio.run(bot_part(args))


if __name__ == "__main__":
    main()

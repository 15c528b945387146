"""Time of `render.board()` (drawing plus PNG encoding) on an early, a mid and a late game, and as a picture
worker draws it: the boards of many tables interleaved.

    python bench/render.py [--edition turismundo] [--seed 5] [--tables 25]

Prints one JSON line: {"early": {"median_ms", "p95_ms", "png_bytes"}, "mid": {...}, "late": {...},
"interleaved": {"tables", "boards", "mean_ms", "median_ms", "p95_ms", "runs_mean_ms"}} (png_bytes: the
largest picture of the stage). "interleaved" is what one picture worker does under load: each table's boards
always go to the same worker, so it draws the next board of one table, then of another, each with the events
of the table's turn so far (as the bot passes them); its mean is the CPU time per board (the median over
INTERLEAVED_RUNS runs of each run's mean). Times are CPU time of this process (the machine is shared), the
median over RUNS passes of each stage's window. The game is played by the deterministic sample policy so
that the figures compare across runs. The first call of an edition (drawing the printed board and learning
its palette, about half a second) is made before timing: a running bot pays it once.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

# This script is named like the package it measures: take its own folder off the import path so that
# `import render` finds the package (and the repository root on, for a checkout that is not installed).
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from engine import State, apply_inplace, clone  # noqa: E402
from render import board, prepare  # noqa: E402
from render.board import BANDS, clear_caches  # noqa: E402
from render.sample import play, simple_choice  # noqa: E402

# Each stage is timed on the states that follow WINDOW consecutive actions of one game, ending at that turn:
# every call draws a different position, as the bot does after each turn, so caches of texts that did not
# change help exactly as much as they do in play, and no more.
STAGES = {"early": 1, "mid": 60, "late": 160}
WINDOW = 60
RUNS = 5
INTERLEAVED_RUNS = 3


def _states(edition: str, seed: int, turn: int) -> list[State]:
    first, steps = play(edition, seed=seed, turns=max(turn, 1), choose=simple_choice)
    st = clone(first)
    states = [clone(st)]
    for action, _ in steps:
        apply_inplace(st, action)
        states.append(clone(st))
    return states[:WINDOW] if turn <= 1 else states[-WINDOW:]


def measure(edition: str, seed: int) -> dict[str, dict[str, float]]:
    start = time.process_time()
    prepare(edition)  # the printed board, its palette, fonts and sprites: once per process
    prepare_ms = (time.process_time() - start) * 1000
    out: dict[str, dict[str, float]] = {}
    for stage, turn in STAGES.items():
        times, sizes, repeats = [], [], []
        states = _states(edition, seed, turn)
        for _ in range(RUNS):
            # Each pass starts with nothing kept but the printed board: every board after the first reuses
            # what the previous actions drew, as a table's next board does, and nothing more.
            clear_caches()
            prepare(edition)
            BANDS.clear()
            board(states[0])
            for state in states[1:]:
                start = time.process_time()
                png = board(state)
                times.append((time.process_time() - start) * 1000)
                sizes.append(len(png))
                start = time.process_time()
                board(state)
                repeats.append((time.process_time() - start) * 1000)
        times.sort()
        out[stage] = {
            "median_ms": round(statistics.median(times), 2),
            "p95_ms": round(times[min(len(times) - 1, int(len(times) * 0.95))], 2),
            "png_bytes": max(sizes),
            "same_board_again_ms": round(statistics.median(repeats), 3),
        }
    out["prepare_ms"] = {"median_ms": round(prepare_ms, 1)}
    return out


# A worker's tables: each plays its own game; the boards of the first WARM actions of every table fill the
# caches untimed (a worker that has been drawing for a while), the next TIMED are timed, table after table.
TABLE_TURNS = 40
WARM = 20
TIMED = 60


def table_boards(edition: str, seed: int, actions: int = WARM + TIMED) -> list[tuple[State, tuple[dict, ...]]]:
    """The last `actions` boards of a sample game up to TABLE_TURNS turns: each state after an action with the
    events of its turn so far (from the turn's `turn_started` on, as the bot's table shows them)."""
    first, steps = play(edition, seed=seed, turns=TABLE_TURNS, choose=simple_choice)
    st = clone(first)
    out: list[tuple[State, tuple[dict, ...]]] = []
    turn: list[dict] = []
    for action, events in steps:
        apply_inplace(st, action)
        for event in events:
            if event["code"] == "turn_started":
                turn = []
            turn.append(event)
        out.append((clone(st), tuple(turn)))
    return out[-actions:]


def interleaved(edition: str, seed: int, tables: int) -> dict[str, float]:
    games = [table_boards(edition, seed + 100 * k) for k in range(tables)]
    means, all_times = [], []
    for _ in range(INTERLEAVED_RUNS):
        clear_caches()
        prepare(edition)
        times = []
        for i in range(WARM + TIMED):
            for game in games:
                state, events = game[i]
                start = time.process_time()
                board(state, events=events)
                if i >= WARM:
                    times.append((time.process_time() - start) * 1000)
        means.append(statistics.mean(times))
        all_times += times
    all_times.sort()
    return {
        "tables": tables,
        "boards": len(all_times) // INTERLEAVED_RUNS,
        "mean_ms": round(statistics.median(means), 2),
        "median_ms": round(statistics.median(all_times), 2),
        "p95_ms": round(all_times[int(len(all_times) * 0.95)], 2),
        "runs_mean_ms": [round(m, 2) for m in means],
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", default="turismundo")
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--tables", type=int, default=25, help="tables interleaved (one of two workers: 25 of 50)")
    args = parser.parse_args()
    out: dict[str, object] = dict(measure(args.edition, args.seed))
    out["interleaved"] = interleaved(args.edition, args.seed, args.tables)
    print(json.dumps(out))


if __name__ == "__main__":
    main()

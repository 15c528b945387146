"""Time of `render.board()` (drawing plus PNG encoding) on an early, a mid and a late game.

    python bench/render.py [--edition turismundo] [--seed 5]

Prints one JSON line: {"early": {"median_ms", "p95_ms", "png_bytes"}, "mid": {...}, "late": {...}}
(png_bytes: the largest picture of the stage). Times are CPU time of this process (the machine is shared), the
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edition", default="turismundo")
    parser.add_argument("--seed", type=int, default=5)
    args = parser.parse_args()
    print(json.dumps(measure(args.edition, args.seed)))


if __name__ == "__main__":
    main()

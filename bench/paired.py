"""Two checkouts' engines in paired runs: which plays faster, on a machine whose speed drifts.

    python bench/paired.py OLD NEW [--rounds 20] [--games 100] [--editions a,b]

OLD and NEW are folders holding the repository (a copy of an earlier commit, say, made with `git worktree add`
or `git archive`); each is measured as it is, compiled if it holds a build, else from its sources. For each
edition, `--rounds` pairs of short runs: one process plays `--games` games of four `normal` seats with OLD's
engine, one with NEW's, in turn and in both orders (old first in even rounds, new first in odd ones), so that
a slow spell of the machine falls on both. Prints one JSON line per edition: each side's median player turns
per CPU second, and the ratio new / old of each pair (its median, and in how many pairs new was faster).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

RUN = (
    "import json, sys; sys.path.insert(0, '.'); from engine.simulate import Options, run; "
    "run(Options(edition={edition!r}, games=1, seed=99)); "
    "o = run(Options(edition={edition!r}, games={games}, seed=1)); "
    "print(json.dumps([o['turns_mean'] * {games}, o['cpu_seconds']]))"
)


def rate(folder: Path, edition: str, games: int) -> float:
    """Player turns per CPU second of `games` games played by the engine in `folder` (one untimed game first)."""
    done = subprocess.run([sys.executable, "-c", RUN.format(edition=edition, games=games)], cwd=folder,
                          capture_output=True, text=True, check=True)  # fmt: skip
    turns, cpu = json.loads(done.stdout)
    return turns / cpu


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("old", type=Path)
    p.add_argument("new", type=Path)
    p.add_argument("--rounds", type=int, default=20)
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--editions", default="monopolio,mundial,turismundo")
    a = p.parse_args()
    for edition in a.editions.split(","):
        olds, news = [], []
        for k in range(a.rounds):
            if k % 2 == 0:
                olds.append(rate(a.old, edition, a.games))
                news.append(rate(a.new, edition, a.games))
            else:
                news.append(rate(a.new, edition, a.games))
                olds.append(rate(a.old, edition, a.games))
        ratios = [n / o for o, n in zip(olds, news, strict=True)]
        line = {
            "edition": edition,
            "pairs": a.rounds,
            "games": a.games,
            "old_turns_per_second": round(statistics.median(olds)),
            "new_turns_per_second": round(statistics.median(news)),
            "new_over_old": round(statistics.median(ratios), 3),
            "new_faster_in": sum(r > 1 for r in ratios),
        }
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

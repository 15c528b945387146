"""Instructions per player turn, counted by valgrind: the engine's speed as a figure a rerun reproduces.

    python bench/instructions.py [--games 20] [--seed 1] [--editions a,b]

CPU time on a shared machine moves by a third from one minute to the next; the instructions a game executes
do not. For each edition this plays `--games` games of four `normal` computer seats (as bench/engine.py does)
under `valgrind --tool=cachegrind`, and again only the start-up (imports, the edition's files and tables),
and prints one JSON line: {"edition", "build", "games", "turns", "instructions_per_turn"}, the difference of
the two counts over the player turns played. It measures this repository's engine as "build" says: compiled
when the checkout holds a build (`TURISTA_COMPILE=1 pip install -e`), else its sources (a checkout without the
build, or after `git clean -fX engine`). Needs valgrind; each edition takes 10 to 40 seconds.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from engine import COMPILED  # noqa: E402
from engine.edition import available  # noqa: E402

START = "from engine.ai.view import table; from engine.simulate import Options, run; table({edition!r})"
GAMES = START + "; print(run(Options(edition={edition!r}, games={games}, seed={seed}))['turns_mean'] * {games})"


def count(code: str) -> tuple[int, str]:
    """Instructions executed by `python -c code` in the repository (which imports its engine), and what it
    printed."""
    done = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-c", code],
        cwd=ROOT, capture_output=True, text=True, check=True,
    )  # fmt: skip
    found = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{done.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), done.stdout


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--editions", default=",".join(available()))
    a = p.parse_args()
    if shutil.which("valgrind") is None:
        print("bench/instructions.py needs valgrind (apt-get install valgrind)", file=sys.stderr)
        return 2
    for edition in a.editions.split(","):
        start, _ = count(START.format(edition=edition))
        total, out = count(GAMES.format(edition=edition, games=a.games, seed=a.seed))
        turns = round(float(out.split()[-1]))
        line = {
            "edition": edition,
            "build": "compiled" if COMPILED else "python",
            "games": a.games,
            "turns": turns,
            "instructions_per_turn": round((total - start) / turns),
        }
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

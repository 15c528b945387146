"""How long a computer player takes to decide: every decision of whole games, timed one by one.

    python bench/ai.py [--games 40] [--seed 1] [--levels dificil,normal,facil]

For each edition and level, four-seat games (the level under test in one seat, rotating, `normal` in the
others) are played to their end (or the simulator's turn limit). Every decision of the seat under test is
timed in CPU time (`time.process_time_ns`, so other work on the machine does not distort it); a call that
answers "nothing to do now" is no decision. One JSON line per edition and level: decisions timed, the median, the 99th
percentile and the slowest, in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.ai import choose  # noqa: E402
from engine.edition import available  # noqa: E402
from engine.rules import apply_inplace, new_game  # noqa: E402
from engine.simulate import DEFAULT_MAX_TURNS, Driver, game_seed, seat_levels  # noqa: E402
from engine.state import Settings  # noqa: E402


def timings(edition: str, level: str, games: int, seed: int) -> list[int]:
    """CPU nanoseconds of each decision `choose` makes for the seats playing `level`."""
    out: list[int] = []
    clock = time.process_time_ns
    for game in range(games):
        levels = seat_levels((level, "normal", "normal", "normal"), 4, game)
        st, _ = new_game(
            edition, ["A", "B", "C", "D"], seed=game_seed(seed, game), settings=Settings(max_turns=DEFAULT_MAX_TURNS),
            computers=levels,
        )  # fmt: skip
        driver = Driver()
        while (action := driver.next_action(st)) is not None:
            for seat, s in enumerate(st.seats):
                if s.computer == level and not s.out:
                    started = clock()
                    move = choose(st, seat, level)
                    spent = clock() - started
                    if move is not None:  # a decision, not "nothing to do now"
                        out.append(spent)
            apply_inplace(st, action)
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=40)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--levels", default="dificil,normal,facil")
    p.add_argument("--editions", default=",".join(available()))
    a = p.parse_args()
    for edition in a.editions.split(","):
        for level in a.levels.split(","):
            ns = sorted(timings(edition, level, a.games, a.seed))
            ms = [x / 1e6 for x in ns]
            line = {
                "edition": edition,
                "level": level,
                "decisions": len(ms),
                "median_ms": round(ms[len(ms) // 2], 3),
                "p99_ms": round(ms[int(len(ms) * 0.99)], 3),
                "max_ms": round(ms[-1], 3),
            }
            print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

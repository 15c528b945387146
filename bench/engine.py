"""Engine speed with computer players: one JSON line per edition.

    python bench/engine.py [--games 300] [--seed 1] [--players 4] [--runs 5] [--editions a,b]

Each line: {"edition", "build", "games", "games_per_second", "turns_per_second", "turns_per_second_runs",
"turns_per_second_spread", "runs", "actions_per_second", "peak_rss_mb", "max_state_json_bytes"}. "build" says
whether the engine ran compiled ("compiled", installed with TURISTA_COMPILE=1: see docs/simulator.md) or as its Python
sources ("python"). The timed games run on one core with every seat a `normal` computer player, rates per second
of this process's CPU time (so that other work on the machine does not distort them). Each edition plays the
same games `--runs` times, the editions taking turns (A, B, C, A, B, C, ...), so that a slow spell of the
machine falls on every edition rather than on all the runs of one (after one untimed game per edition, which
reads its files); the rates are those of the median run,
"turns_per_second_runs" lists every run's player turns per second in the order played, and
"turns_per_second_spread" is (fastest - slowest) / median of them. The largest state is measured in separate
games that encode the state after every action (encoding is not part of the timed loop). `peak_rss_mb` is the
process's peak resident memory so far.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine import COMPILED  # noqa: E402
from engine.edition import available  # noqa: E402
from engine.rules import apply_inplace, new_game  # noqa: E402
from engine.simulate import Driver, Options, game_seed, run  # noqa: E402
from engine.state import to_json  # noqa: E402


def largest_state(edition: str, players: int, games: int, seed: int) -> int:
    biggest = 0
    for game in range(games):
        names = [f"P{i}" for i in range(players)]
        st, _ = new_game(edition, names, seed=game_seed(seed, game), computers=["normal"] * players)
        driver = Driver()
        while (action := driver.next_action(st)) is not None:
            apply_inplace(st, action)
            size = len(to_json(st))
            if size > biggest:
                biggest = size
    return biggest


def peak_rss_mb() -> float:
    # Linux reports ru_maxrss in KiB.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--editions", default=",".join(available()))
    p.add_argument("--runs", type=int, default=5)
    a = p.parse_args()
    editions = a.editions.split(",")
    runs: dict[str, list[dict]] = {edition: [] for edition in editions}
    for edition in editions:
        # One game first, untimed: the edition's files are read and its tables built once per process.
        run(Options(edition=edition, players=a.players, games=1, seed=a.seed))
    for _ in range(a.runs):
        for edition in editions:
            runs[edition].append(run(Options(edition=edition, players=a.players, games=a.games, seed=a.seed)))
    for edition in editions:
        done = runs[edition]
        out = sorted(done, key=lambda o: o["cpu_seconds"])[len(done) // 2]
        cpu = out["cpu_seconds"]
        rates = [round(o["turns_mean"] * a.games / o["cpu_seconds"]) for o in done]
        median = round(out["turns_mean"] * a.games / cpu)
        line = {
            "edition": edition,
            "build": "compiled" if COMPILED else "python",
            "games": a.games,
            "runs": len(done),
            "games_per_second": round(a.games / cpu, 1),
            "turns_per_second": median,
            "turns_per_second_runs": rates,
            "turns_per_second_spread": round((max(rates) - min(rates)) / median, 3),
            "actions_per_second": round(out["actions_mean"] * a.games / cpu),
            "peak_rss_mb": round(peak_rss_mb(), 1),
            "max_state_json_bytes": largest_state(edition, a.players, 10, a.seed),
        }
        print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

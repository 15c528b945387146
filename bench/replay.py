"""The replay's drawing time, size and memory for games of 50, 150 and 300 turns of every edition, per format;
the drawing time of the profile card and the time to write the ranking's lines.

    python bench/replay.py [--editions turismundo mundial monopolio] [--turns 50 150 300]
                           [--formats gif webp apng] [--lang es] [--runs 1]

Each case runs in a fresh process, as a picture worker would draw it: the game is played first by the computer
players (`render.sample.play`, the first seed from 0 whose game lasts the turns asked), the edition is
prepared (`render.prepare`, as a worker does when it starts), then `render.replay` is timed. Prints one JSON
line per case: {"edition", "turns", "format", "frames", "bytes", "cpu_s", "cpu_ratio", "peak_rss_mb",
"rss_rise_mb"}: cpu_s the CPU time of the replay (the median of --runs), cpu_ratio that time over the CPU time
of a fixed loop of pure Python measured at the start and the end (`bench.harness.REFERENCE_LOOP`: the
machine's speed drifts, the ratio much less), peak_rss_mb the process's largest resident size, rss_rise_mb
how much of it the replay added. Then one line {"profile": {...}, "ranking": {...}, "reference_ms"}: the
profile card's median drawing time (1100 x 700, PNG included) and the ranking's lines for a season of
RANKING_ROWS people (`render.ranking`: the table is an embed, not a picture), in ms and over the reference.
"""

from __future__ import annotations

import argparse
import io
import json
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

# This folder holds bench/render.py, named like the package measured: take the folder off the import path
# so that `import render` finds the package, and put the repository root on it.
_HERE = Path(__file__).resolve().parent
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _HERE]
sys.path.insert(0, str(_HERE.parent))

from PIL import Image  # noqa: E402

EDITIONS = ("turismundo", "mundial", "monopolio")
TURNS = (50, 150, 300)
FORMATS = ("gif", "webp", "apng")
SEEDS = 200  # seeds tried for a game that lasts long enough
RANKING_ROWS = 1_000


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def game(edition: str, turns: int) -> tuple:
    """The first seeded game of four computer seats that is still on after `turns` turns, cut there."""
    from engine import apply_inplace, clone
    from render.sample import play

    for seed in range(SEEDS):
        first, steps = play(edition, seed=seed, turns=turns)
        st = clone(first)
        for action, _ in steps:
            apply_inplace(st, action)
        if st.turn > turns:
            return first, steps, seed
    raise SystemExit(f"no game of {edition} lasts {turns} turns in {SEEDS} seeds")


def one_case(edition: str, turns: int, fmt: str, lang: str, runs: int) -> dict:
    """Runs in the child process."""
    from render import prepare, replay

    first, steps, seed = game(edition, turns)
    prepare(edition, lang)
    base = _rss_mb()
    times, data = [], b""
    for _ in range(runs):
        start = time.process_time()
        data = replay(first, steps, lang, fmt=fmt)
        times.append(time.process_time() - start)
    frames = Image.open(io.BytesIO(data)).n_frames
    return {"edition": edition, "turns": turns, "seed": seed, "format": fmt, "frames": frames, "bytes": len(data),
            "cpu_s": round(statistics.median(times), 3), "peak_rss_mb": round(_rss_mb(), 1),
            "rss_rise_mb": round(_rss_mb() - base, 1)}


def profile_case(lang: str, runs: int) -> dict:
    from render.profile import profile_card
    from render.sample import sample_profile as sample_card

    card = sample_card()
    profile_card(card, lang)  # fonts and flags, once per process
    times = []
    for _ in range(max(runs, 20)):
        start = time.process_time()
        png = profile_card(card, lang)
        times.append(time.process_time() - start)
    return {"median_ms": round(1000 * statistics.median(times), 1), "bytes": len(png)}


def ranking_case(runs: int) -> dict:
    from render.ranking import RankingRow, ranking_lines

    rows = [RankingRow(f"Player {k}", 40 - k / 30, 5 + k % 50, k % 9, (k % 7 - 3) / 2, k % 10 == 0)
            for k in range(RANKING_ROWS)]
    times = []
    for _ in range(max(runs, 20)):
        start = time.process_time()
        ranking_lines(rows, "es")
        times.append(time.process_time() - start)
    return {"rows": RANKING_ROWS, "median_ms": round(1000 * statistics.median(times), 2)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--editions", nargs="+", default=list(EDITIONS))
    parser.add_argument("--turns", nargs="+", type=int, default=list(TURNS))
    parser.add_argument("--formats", nargs="+", default=list(FORMATS), choices=FORMATS)
    parser.add_argument("--lang", default="es", choices=("es", "en"))
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--case", nargs=3, metavar=("EDITION", "TURNS", "FORMAT"), help=argparse.SUPPRESS)
    parser.add_argument("--profile-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.case:
        edition, turns, fmt = args.case
        print(json.dumps(one_case(edition, int(turns), fmt, args.lang, args.runs)))
        return 0
    if args.profile_only:
        print(json.dumps(profile_case(args.lang, args.runs)))
        return 0

    from bench.harness import reference_ms  # in this process only: it brings the fake Discord along

    def child(*extra: str) -> dict:
        out = subprocess.run([sys.executable, __file__, "--lang", args.lang, "--runs", str(args.runs), *extra],
                             capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    reference = reference_ms()
    results = []
    for edition in args.editions:
        for turns in args.turns:
            for fmt in args.formats:
                results.append(child("--case", edition, str(turns), fmt))
    profile = child("--profile-only")
    ranking = ranking_case(args.runs)
    reference = (reference + reference_ms()) / 2
    for r in results:
        r["cpu_ratio"] = round(1000 * r["cpu_s"] / reference, 1)
        print(json.dumps(r))
    profile["ratio"] = round(profile["median_ms"] / reference, 3)
    ranking["ratio"] = round(ranking["median_ms"] / reference, 4)
    print(json.dumps({"profile": profile, "ranking": ranking, "reference_ms": round(reference, 1)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Pictures from the command line, from a sample game played by computer seats.

python -m render board --edition turismundo --seed 3 --turns 60 --out board.png
python -m render deed --edition turismundo --square 7 [--seed 3 --turns 60] --out deed.png
python -m render summary --edition turismundo --seed 3 --turns 400 --out summary.png
python -m render replay --edition turismundo --seed 3 --turns 150 --out replay.gif
python -m render profile --sample full --out profile.png
python -m render ranking --lang en

--width 550 (a desktop channel) or --width 350 (a phone) writes the picture as Discord previews it: scaled
down to that width, to judge what a reader sees without clicking. A replay is drawn that wide (550 by default),
as an animated GIF (--format webp or apng to compare).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from engine import available, load
from render.board import board
from render.deed import deed
from render.png import preview
from render.profile import profile_card
from render.ranking import ranking_lines
from render.replay import FORMATS, REPLAY_WIDTH, replay
from render.sample import final_state, play, sample_profile, sample_ranking
from render.summary import history_from_log, summary


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Draw Turista pictures.")
    sub = parser.add_subparsers(dest="picture", required=True)
    for name, help_text in (
        ("board", "the board after a sample game"),
        ("deed", "a title deed (with its owner after --turns of a sample game)"),
        ("summary", "the end-of-game picture of a sample game"),
        ("replay", "the animated replay of a sample game"),
    ):
        p = sub.add_parser(name, help=help_text)
        p.add_argument("--edition", default="turismundo", choices=available())
        p.add_argument("--seed", type=int, default=3)
        p.add_argument("--turns", type=int, default={"deed": 0, "replay": 150}.get(name, 60))
        p.add_argument("--seats", type=int, default=4, choices=range(2, 7))
        p.add_argument("--lang", default="es", choices=("es", "en"))
        p.add_argument("--out", type=Path, required=True)
        p.add_argument("--width", type=int, default=0, help="scale down to this width, as Discord previews it")
        if name == "deed":
            p.add_argument("--square", type=int, required=True)
        if name == "replay":
            p.add_argument("--format", default="gif", choices=sorted(FORMATS))
    p = sub.add_parser("profile", help="a sample profile card")
    p.add_argument("--sample", default="full", choices=("full", "new", "long"))
    p.add_argument("--lang", default="es", choices=("es", "en"))
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--width", type=int, default=0, help="scale down to this width, as Discord previews it")
    p = sub.add_parser("ranking", help="the lines of a sample season's table, as the ranking embed shows them")
    p.add_argument("--lang", default="es", choices=("es", "en"))
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "python -m render") -> int:
    args = _parser(prog).parse_args(argv)
    if args.picture == "ranking":
        lines = ranking_lines(sample_ranking(), args.lang)
        print("\n".join(lines.ranked))
        if lines.provisional:
            print("\n" + "\n".join(lines.provisional))
        return 0
    if args.picture == "profile":
        png = profile_card(sample_profile(args.sample), args.lang)
    elif args.picture == "deed":
        squares = len(load(args.edition).squares)
        if not 0 <= args.square < squares:
            print(f"--square must be between 0 and {squares - 1}", file=sys.stderr)
            return 2
        state = None
        if args.turns:
            first, steps = play(args.edition, args.seed, args.turns, args.seats)
            state = final_state(first, steps)
        png = deed(args.edition, args.square, state, args.lang)
    elif args.picture == "replay":
        first, steps = play(args.edition, args.seed, args.turns, args.seats)
        data = replay(first, steps, args.lang, fmt=args.format, width=args.width or REPLAY_WIDTH)
        args.out.write_bytes(data)
        print(f"{args.out}: {len(data):,} bytes")
        return 0
    else:
        first, steps = play(args.edition, args.seed, args.turns, args.seats)
        if args.picture == "board":
            last_events = steps[-1][1] if steps else []
            png = board(final_state(first, steps), args.lang, events=last_events)
        else:
            png = summary(history_from_log(first, steps), args.lang)
    if args.width:
        png = preview(png, args.width)
    args.out.write_bytes(png)
    print(f"{args.out}: {len(png):,} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())

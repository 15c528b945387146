"""`kill -9` at random moments against the real bot and the fake Discord; afterwards every open game must
wait for a decision its messages let a person make, and every game's log must replay (`store verify`).

    python bench/kill_loop.py [--kills 50] [--seed 1] [--between 0.3] [--log bot.log]

Two tables (two people and a computer seat each) in two channels; the people click as soon as their game
waits for them. Each round kills the bot (SIGKILL) either after a random 0-40 moves of play (and a pause of
0-50 ms), or while Discord has posted one of its messages but holds the answer (the window between a post and
its save), then starts it again: rounds are counted in moves, not seconds, so a busy machine plays as much.
A game that ends is replaced by a new one. Prints one JSON line:

    kills, kills_between_post_and_save, moves_recorded, games, games_answerable (their pending decision made
    through the buttons after the last restart), verified_ok, verify_failures, errors_logged, seconds
"""

from __future__ import annotations

import argparse
import asyncio
import json
import shutil
import sys
import tempfile
from pathlib import Path

# This script's folder is not a package: make the repository importable when it is run by path.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from devkit.kills import run  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kills", type=int, default=50)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--between", type=float, default=0.3,
                        help="share of the kills made while a post is held between Discord and the bot")
    parser.add_argument("--log", type=Path, help="keep the bot's log there")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="turista-kills-") as folder:
        try:
            print(json.dumps(asyncio.run(run(args.kills, args.seed, Path(folder), args.between))), flush=True)
        finally:
            if args.log is not None and (Path(folder) / "bot.log").exists():
                shutil.copyfile(Path(folder) / "bot.log", args.log)


if __name__ == "__main__":
    main()

"""`turista sandbox` (or `python -m bot sandbox`): a local table in the terminal.

The real bot runs in its own process against the bundled fake Discord on 127.0.0.1; the terminal plays the
users. What you type goes through the same slash commands, buttons, selects and modals as on a server.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys
from collections.abc import Sequence
from pathlib import Path

from engine import available

NAMES = ("Ana", "Beto", "Carla", "Diego", "Elena", "Fer")


def parse_args(argv: Sequence[str] | None, prog: str = "python -m bot sandbox") -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=prog, description="A local table in the terminal: the real bot against a bundled fake Discord. Once "
        "it runs, type help (ayuda) for what you can type; /quit or Ctrl+D ends it.")
    parser.add_argument("--players", type=int, default=2, help="people at the table (1-6), named Ana, Beto…")
    parser.add_argument("--computers", type=int, default=0, help="computer seats added when a table opens")
    parser.add_argument("--edition", default="turismundo", help=f"edition of /turista new: {', '.join(available())}")
    parser.add_argument("--seed", type=int, default=None,
                        help="seed of every game at the table: the same seed draws the same turn order and dice, so "
                             "a script plays the same game each time")
    parser.add_argument("--script", type=Path, default=None, help="read the inputs from this file")
    parser.add_argument("--record", type=Path, default=None,
                        help="write what you type (form answers too) to this file, to replay it with --script")
    parser.add_argument("--out", type=Path, default=Path("sandbox-out"), metavar="FOLDER",
                        help="where sessions keep their files: each one makes a folder in it named by its start "
                             "time (sandbox-out/YYYY-MM-DD-HHMM/) with the pictures, the database and the bot's log "
                             "(default: sandbox-out)")
    parser.add_argument("--lang", choices=("es", "en"), default="es", help="the players' Discord language")
    parser.add_argument("--manager", metavar="NAME", default=None,
                        help="this person manages the server (Manage Server), as /turista season new asks; "
                             "otherwise nobody at the table does")
    parser.add_argument("--pace", type=float, default=0.3, metavar="SECONDS",
                        help="how long a computer seat waits before each move (default: 0.3; the bot's own "
                             "default is 1.5)")
    parser.add_argument("--no-open", action="store_true",
                        help="open no picture (otherwise the table's board opens in the picture viewer once a "
                             "turn, when the terminal has one)")
    args = parser.parse_args(argv)
    if not 1 <= args.players <= len(NAMES):
        parser.error("--players must be between 1 and 6")
    if args.computers < 0 or args.players + args.computers > 6:
        parser.error("--computers must be 0 or more, and a table has at most 6 seats")
    if args.manager is not None and args.manager.casefold() not in {n.casefold() for n in NAMES[: args.players]}:
        parser.error(f"--manager must be one of the people at the table: {', '.join(NAMES[: args.players])}")
    if args.edition not in available():
        parser.error(f"unknown edition {args.edition!r}")
    if args.script is not None and not args.script.is_file():
        parser.error(f"no such script: {args.script}")
    if args.script is not None and args.record is not None:
        parser.error("--record writes what you type: it does not go with --script")
    if args.pace < 0:
        parser.error("--pace cannot be negative")
    if args.out.exists() and not args.out.is_dir():
        parser.error(f"--out {args.out} is a file: give a folder (made if missing) for the sessions' files")
    return args


def main(argv: Sequence[str] | None = None, prog: str = "python -m bot sandbox") -> int:
    args = parse_args(argv, prog)
    from bot.sandbox.table import SANDBOX, Sandbox

    try:
        sandbox = Sandbox(args, names=list(NAMES[: args.players]))
    except OSError as error:  # the folder for the session's files cannot be made
        print(f"{prog}: {error.filename or args.out}: {error.strerror}", file=sys.stderr)
        return 2
    # A SIGTERM (`kill`, a closed terminal's session manager, `timeout`) leaves as Ctrl+C does: by default it
    # would end this process at once and leave the bot's process running, reconnecting to a fake that is gone.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        return asyncio.run(sandbox.run())
    except KeyboardInterrupt:
        # Ctrl+C leaves at once, as /quit and Ctrl+D do (the bot was stopped on the way out).
        print()
        print(SANDBOX.text(args.lang, "sandbox.bye"), flush=True)
        return 130


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

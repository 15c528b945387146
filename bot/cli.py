"""`turista`: one command for the bot, the sandbox, the database, the simulator and the pictures.

Each subcommand is the `main(argv, prog)` of its own module, the same one that `python -m bot`,
`python -m bot.store`, `python -m engine.simulate` and `python -m render` run: both spellings share one
argument parser, and `turista COMMAND --help` shows it.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from importlib import metadata

# name -> (module whose main(argv, prog) runs it, one line of help)
COMMANDS: dict[str, tuple[str, str]] = {
    "run": ("bot.run", "run the bot on Discord (DISCORD_TOKEN in the environment or .env)"),
    "sandbox": ("bot.sandbox", "play at a table in the terminal against a bundled fake Discord"),
    "store": ("bot.store.__main__", "the game database: verify, export, backup, restore, migrate, rerate"),
    "status": ("bot.monitor", "how many games are open and how long ago the last action was"),
    "commands": ("bot.commands.__main__", "the slash commands' registration: check it offline, or sync it now"),
    "selftest": ("bot.selftest", "post a test table in a channel of real Discord, read it back, delete it"),
    "simulate": ("engine.simulate", "play whole games with computer players and print figures"),
    "render": ("render.__main__", "draw a board, a title deed or an end-of-game picture"),
}


def version() -> str:
    try:
        return metadata.version("turista")
    except metadata.PackageNotFoundError:  # run from a checkout that was never installed
        return "unknown (not installed)"


class _Version(argparse.Action):
    """`--version`: the package's version and whether its engine runs compiled or from its sources."""

    def __call__(self, parser: argparse.ArgumentParser, *_: object) -> None:
        from engine import which_build

        print(f"turista {version()} (engine: {which_build()})")
        parser.exit()


def main(argv: Sequence[str] | None = None, *, prog: str = "turista", default: str | None = None) -> int:
    """Dispatch to a subcommand; `default` is the one run when none is named (`python -m bot` runs the bot)."""
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Turista Mundial, the Mexican world-travel board game, played in a Discord channel.",
        epilog=f"`{prog} COMMAND --help` explains a command.",
    )
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and which engine runs, and exit")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", required=default is None)
    for name, (_, summary) in COMMANDS.items():
        # Each command's own parser reads the rest of the line, so none is declared here.
        commands.add_parser(name, help=summary, add_help=False)
    args, rest = parser.parse_known_args(argv)
    name = args.command or default
    module = importlib.import_module(COMMANDS[name][0])
    return int(module.main(rest, prog=f"{prog} {name}") or 0)


if __name__ == "__main__":
    sys.exit(main())

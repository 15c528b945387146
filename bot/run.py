"""`turista run` (or `python -m bot`): run the Turista bot with the settings of the environment or `.env`.

SIGTERM (what systemd and most process managers send) and SIGINT (Ctrl+C) both stop the bot the same
careful way: no new computer moves or timers, the action in progress in every channel finishes and is
stored, then the connection closes.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import sys
import textwrap
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from bot.config import Config, load_config, with_shards
from bot.invite import invite_link, permission_names

if TYPE_CHECKING:
    from bot.client import TuristaBot

log = logging.getLogger("turista.bot")

_PERMISSIONS_SAID = textwrap.fill(
    f"The permissions: {permission_names()}. Without the two thread permissions each game is played in its "
    "channel instead of a thread of its own, and its lobby says why.", width=104, initial_indent=" " * 4,
    subsequent_indent=" " * 4)

NO_TOKEN_GUIDE = f"""\
Turista needs a Discord bot token, and DISCORD_TOKEN is not set.

 1. Open https://discord.com/developers/applications and press "New Application"; give it a name.
 2. In "Bot", press "Reset Token" and copy the token. No privileged intents are needed.
 3. Put it in a file named .env next to where you run the bot (see .env.example):
        DISCORD_TOKEN=the-token-you-copied
        TURISTA_DB=turista.db
    or export DISCORD_TOKEN in the environment. Keep it secret: anyone with it controls the bot.
 4. Invite the bot to your server with this link (replace APP_ID with the "Application ID" of
    "General Information"); scopes bot + applications.commands:
        {invite_link()}
{_PERMISSIONS_SAID}
 5. Start it again with: turista run   (or: python -m bot)
    While developing, set TURISTA_DEV_GUILD to your server's id so commands appear at once.

To try the game without Discord, play at a local table against the bundled fake Discord:
        turista sandbox
"""


def configure_logging(level: str) -> None:
    # The format reads no thread, process or source line: Python's logging HOWTO ("Optimization") lists these
    # as the costs to switch off then, and the bot logs a line per move.
    logging.logThreads = False
    logging.logProcesses = False
    logging.logMultiprocessing = False
    logging._srcfile = None
    logging.basicConfig(
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )


def parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=prog,
        description="Run the Turista bot on Discord. Settings come from the environment or from a .env file "
        "in the working directory (DISCORD_TOKEN, TURISTA_DB, ...; see .env.example).",
    )
    parser.add_argument("--shard-count", metavar="N", default=None,
                        help="gateway shards in all (default: $TURISTA_SHARD_COUNT, else what Discord recommends)")
    parser.add_argument("--shards", metavar="IDS", default=None,
                        help="the shards this process runs, e.g. 0-3 or 0,2 (default: $TURISTA_SHARDS, else all)")
    return parser


async def serve(bot: TuristaBot, token: str) -> None:
    """Run until the connection ends or a SIGTERM/SIGINT asks the bot to stop (then close it gracefully)."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
    async with bot:
        running = asyncio.create_task(bot.start(token), name="turista-connection")
        stopping = asyncio.create_task(stop.wait(), name="turista-stop-signal")
        await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if stopping.done():
            log.info("stopping: letting the actions in progress finish")
            await bot.close()
        stopping.cancel()
        await running  # a failed login or connection raises here
    log.info("stopped")


def event_loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's event loop where it is installed (Linux and macOS), asyncio's own otherwise or with
    TURISTA_EVENT_LOOP=asyncio. uvloop answers a burst of clicks sooner: after a restart with 1,000 open
    games, every button answered 1.67 s after the connection against 1.85 s (bench/e2e.py, medians of three
    paired runs); with 50 busy games the CPU per click was the same."""
    if os.environ.get("TURISTA_EVENT_LOOP", "").strip().lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:
        return None
    return uvloop.new_event_loop


def database_problem(config: Config) -> str:
    """Why the database cannot serve the bot (one line: what is wrong, what to do), or "" when it can.

    Opening it creates or migrates it and makes one write; reading the open games is what a start does
    next. Both before connecting to Discord, so a bad file stops the bot with a sentence, not a traceback.
    """
    from bot.store import Store, StoreError
    from bot.store.advice import advice
    from bot.store.backend import shown

    try:
        with Store(config.db) as store:
            store.open_games()
    except StoreError as error:
        return advice(error, shown(config.db))
    return ""


def main(argv: Sequence[str] | None = None, prog: str = "python -m bot") -> int:
    args = parser(prog).parse_args(argv)
    config: Config = with_shards(load_config(), args.shard_count, args.shards)
    if not config.token:
        sys.stderr.write(NO_TOKEN_GUIDE)
        return 2
    configure_logging(config.log_level)
    problem = database_problem(config)
    if problem:
        sys.stderr.write(problem + "\n")
        return 1
    from bot import pictures

    # The picture workers start first: they warm up while discord.py is imported and the bot logs in, so a game
    # started the moment the bot is back finds them ready (the first table within a second of Start).
    pictures.start(config.render_workers, cache=config.cache)
    try:
        from bot.app import build_bot  # discord.py is only imported when there is something to run

        loop_factory = event_loop_factory()
        log.info("event loop: %s", "uvloop" if loop_factory is not None else "asyncio")
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(serve(build_bot(config), config.token))
    finally:
        pictures.shutdown()
    return 0

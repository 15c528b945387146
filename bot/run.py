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


class NoVoiceWarning(logging.Filter):
    """Drops discord.py's "PyNaCl is not installed, voice will NOT be supported" (and its "davey" twin), logged
    at every start: the bot never joins a voice channel, so the libraries for it are not installed and the
    warning says nothing an administrator can act on. discord.py offers no setting to turn it off; a filter
    on that one message leaves every other warning of discord.client as it is."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "voice will NOT be supported" not in str(record.msg)


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
    logging.getLogger("discord.client").addFilter(NoVoiceWarning())


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
        stopping.cancel()
        if stopping.done() and not stopping.cancelled():
            log.info("stopping: letting the actions in progress finish")
            await bot.close()
            # Every action is stored and the connection closed. A stop that came before the gateway was
            # connected leaves discord.py's shard launcher retrying on the closed session every 5 s, for ever.
            running.cancel()
            await asyncio.wait({running})
        else:
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


def connection_problem(error: Exception) -> tuple[int, str] | None:
    """The exit status and the one line for a failure to log in or connect to Discord; None for anything else
    (a bug keeps its traceback). Status 2 is a configuration mistake that restarting cannot fix, 3 a command
    registration Discord refused with no command of the bot left (`bot.registration.REFUSED_EXIT`), 1 a failure
    that may pass (systemd then restarts the bot)."""
    import aiohttp
    import discord

    from bot.registration import REFUSED_EXIT, RegistrationRefused

    if isinstance(error, RegistrationRefused):
        return REFUSED_EXIT, error.line
    if isinstance(error, discord.LoginFailure):
        return 2, ("Discord refused the token in DISCORD_TOKEN (reset since, or not a bot's token): press \"Reset "
                   "Token\" in the application's Bot page, put the new one in DISCORD_TOKEN and start again.")
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return 2, f"Discord refused the connection: {error}"
    if isinstance(error, aiohttp.ClientError | OSError | TimeoutError):
        return 1, (f"Discord cannot be reached ({error or type(error).__name__}). Check this machine's network "
                   "connection and DNS, then start the bot again (under systemd it starts again by itself).")
    if isinstance(error, discord.GatewayNotFound | discord.DiscordServerError | discord.ConnectionClosed):
        return 1, (f"Discord did not let the bot connect ({error}); it may be down for a while "
                   "(https://discordstatus.com). Start the bot again later (under systemd it starts again by itself).")
    return None


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
    from engine import which_build

    log.info("engine: %s", which_build())
    # The picture workers start first: they warm up while discord.py is imported and the bot logs in, so a game
    # started the moment the bot is back finds them ready (the first table within a second of Start).
    pictures.start(config.render_workers, cache=config.cache)
    try:
        from bot.app import build_bot  # discord.py is only imported when there is something to run

        loop_factory = event_loop_factory()
        log.info("event loop: %s", "uvloop" if loop_factory is not None else "asyncio")
        with asyncio.Runner(loop_factory=loop_factory) as runner:
            runner.run(serve(build_bot(config), config.token))
    except Exception as error:
        problem = connection_problem(error)
        if problem is None:
            raise
        code, line = problem
        sys.stderr.write(line + "\n")
        return code
    finally:
        pictures.shutdown()
    return 0

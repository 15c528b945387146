"""The Discord client: the store, the lobbies, the games in play with their faces, and the slash commands and
component handler it is given (`bot.app` assembles them, so nothing here depends on the handlers)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import os
import socket
import time
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import discord
from discord import app_commands

from bot import pictures, registration
from bot.config import Config
from bot.face import adapter
from bot.face.edits import Edits
from bot.face.i18n import CatalogueTranslator, lang_of
from bot.face.publisher import Publisher
from bot.face.replies import say
from bot.monitor import status_line
from bot.requests import GLOBAL_PACE, GlobalPace, RequestCounts
from bot.requests import line as requests_line
from bot.store import Store, StoreError
from bot.table.book import Book
from bot.table.lobby import Lobby
from bot.table.sessions import Sessions
from bot.table.storage import Storage
from words import language_of

log = logging.getLogger("turista.bot")
status_log = logging.getLogger("turista.status")
# Threads of the default pool: pictures drawn in the bot's own process (no worker processes) go there; the store
# has threads of its own (`bot.table.storage`).
WORKER_THREADS = 8
PICTURES_READY_WITHIN = 5.0  # seconds the start waits at most for the picture workers (see `setup_hook`)
REQUESTS_WRITTEN_EVERY = 15.0  # seconds between two writes of Discord's answer counts for `turista status`

ComponentHandler = Callable[[discord.Interaction], Awaitable[None]]


class Tree(app_commands.CommandTree["TuristaBot"]):
    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        original = getattr(error, "original", error)
        lang = lang_of(interaction)
        if isinstance(original, StoreError):
            from words import text

            message = "⚠️ " + text(lang, f"error.{original.code}")
            log.warning("store error in /%s: %s", interaction.command and interaction.command.qualified_name,
                        original.code)
        else:
            from bot.face.i18n import t

            message = "⚠️ " + t(lang, "error.internal")
            log.error("command /%s failed", interaction.command and interaction.command.qualified_name,
                      exc_info=original)
        with contextlib.suppress(discord.HTTPException):
            await say(interaction, message)


class TuristaBot(discord.AutoShardedClient):
    """One bot process: the gateway shards it runs (all of them unless the config names some), and the
    games of their guilds. Discord sends a guild's interactions to its shard only, so each process serves
    exactly its own guilds; at start-up it resumes only their games."""

    def __init__(self, config: Config, *, commands: Sequence[app_commands.Command | app_commands.Group],
                 components: ComponentHandler) -> None:
        intents = discord.Intents.none()
        intents.guilds = True  # the guild cache gives each table its language; nothing privileged is needed
        self.requests = RequestCounts()  # Discord's answers, refusals and rate limits counted (`turista status`)
        # Under Discord's global limit, which counts every process of the bot together: a process running a part of
        # the shards takes that part of it.
        share = len(config.shards) / config.shard_count if config.shards and config.shard_count else 1.0
        self.pace = GlobalPace(max(1, round(GLOBAL_PACE * share)))
        super().__init__(intents=intents, allowed_mentions=discord.AllowedMentions.none(),
                         http_trace=self.requests.trace(self.pace),
                         guild_ready_timeout=0.1 if config.local else 2.0,
                         shard_count=config.shard_count,
                         shard_ids=list(config.shards) if config.shards is not None else None)
        adapter.lighter_clicks(self)
        if config.rest_url is not None:
            # discord.py has no setting for its REST base: every request's URL (interaction callbacks and webhooks
            # included) is built from this class attribute, which is how rate-limit proxies such as nirn-proxy
            # are put in front of it. One value for the process, which runs one bot.
            discord.http.Route.BASE = config.rest_url
            log.info("REST requests go to %s", config.rest_url)
        self.config = config
        self.tree = Tree(self)
        self.commands = list(commands)
        self.components = components
        self.storage: Storage
        self.sessions: Sessions
        self.lobby: Lobby
        self.status_reports: asyncio.Task[None] | None = None
        self.requests_written: asyncio.Task[None] | None = None
        self.lobby_edits = Edits(self, "the lobbies")  # the lobby messages' edits, within Discord's rate limits
        self._resumed = False

    async def setup_hook(self) -> None:
        asyncio.get_running_loop().set_default_executor(
            ThreadPoolExecutor(max_workers=WORKER_THREADS, thread_name_prefix="turista-worker"))
        # The store's calls run in threads of their own: its writes in its writer thread(s), its reads beside them.
        self.storage = Storage(await asyncio.to_thread(Store, self.config.db))
        self.sessions = Sessions(self.config, self.storage, self._face, self._guild_language)
        self.lobby = Lobby(self.config, self.storage, self.sessions.lock_for)
        await self._take_shards()
        if self.config.shards and self.storage.store.kind == "sqlite":
            # A file of this process's own keeps its new game ids apart from other processes' files, so
            # the files can later be split or merged (resharding). Harmless on a file several share.
            await self.storage.reserve_block(self.config.shards[0])
        await self.tree.set_translator(CatalogueTranslator())
        for command in self.commands:
            self.tree.add_command(command)
        guild = discord.Object(self.config.dev_guild) if self.config.dev_guild else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        # Only a registration that changed is sent: a restart costs none of Discord's registration limits, and a
        # refused one leaves the bot running with the commands Discord has (`bot.registration`).
        assert self.application_id is not None  # known once logged in, before this hook
        outcome = await registration.register(self.tree, self.storage, application_id=self.application_id,
                                              guild=guild)
        where = f" in guild {self.config.dev_guild}" if guild is not None else ""
        if outcome.action == "unchanged":
            log.info("commands%s unchanged since Discord accepted them: %d, not registered again", where,
                     outcome.commands)
        elif outcome.action == "synced":
            log.info("commands synced%s: %d", where, outcome.commands)
        # Interactions come once the gateway is connected: by then the picture workers (started with the process)
        # have the likeliest board ready, so a game started the moment the bot is back gets its first table at
        # once. They are usually ready before this point; a machine too busy for that delays the bot a little.
        if not await pictures.ready(within=PICTURES_READY_WITHIN):
            log.warning("pictures: the workers are not ready after %.0f s; connecting without them",
                        PICTURES_READY_WITHIN)
        if self.config.status_minutes > 0:
            self.status_reports = asyncio.create_task(self._report_status(), name="turista-status")
        if self.config.cache:
            self.requests_written = asyncio.create_task(self._write_requests(), name="turista-requests")

    async def _take_shards(self) -> None:
        """Take the leases of this process's shards in the database: a process still running on one of them (left
        behind by a deploy) has its writes refused from now on, and steps aside (`Sessions.step_aside`)."""
        count = self.config.shard_count or 1  # every shard in one process: one lease for all of them
        shards = self.config.shards if self.config.shards is not None else tuple(range(count))
        owner = f"{socket.gethostname()} pid {os.getpid()}"
        before = await self.storage.take_shards(count, shards, owner)
        self.storage.on_lease_lost = self.sessions.step_aside
        fence = self.storage.store.fence
        assert fence is not None
        log.info("leases of shard%s %s of %d taken by %s, epoch %d", "s" if len(shards) != 1 else "",
                 ",".join(map(str, shards)), count, owner, fence.epoch)
        for lease in before:
            log.info("shard %d of %d taken over from %s (epoch %d)", lease.shard, lease.shard_count, lease.owner,
                     lease.epoch)

    async def _report_status(self) -> None:
        """The status line in the log every few minutes, for an admin's monitoring (`turista status`)."""
        while not self.is_closed():
            await asyncio.sleep(self.config.status_minutes * self.config.minute)
            try:
                activity = await self.storage.activity()
            except StoreError as error:
                status_log.warning("status unavailable: %s", error.code)
                continue
            status_log.info("%s; %s", status_line(activity, time.time()), requests_line(self.requests.snapshot()))

    async def _write_requests(self) -> None:
        """Discord's answer counts in the cache folder every few seconds while they change (`turista status`)."""
        written = -1
        while not self.is_closed():
            if self.requests.answered != written:
                written = self.requests.answered
                self._requests_file()
            await asyncio.sleep(REQUESTS_WRITTEN_EVERY)

    def _requests_file(self) -> None:
        assert self.config.cache
        name = "shards-" + "-".join(map(str, self.config.shards)) if self.config.shards else ""
        try:
            self.requests.write(self.config.cache, name)
        except OSError as error:
            log.warning("could not write Discord's answer counts in %s: %s", self.config.cache, error)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        # Discord allows one IDENTIFY per 5 s (per concurrency bucket); a fake Discord on this machine has
        # no such limit, and five seconds per extra shard would only slow its tests down.
        if not self.config.local:
            await super().before_identify_hook(shard_id, initial=initial)

    def shards_text(self) -> str:
        mine = self.config.shards if self.config.shards is not None else range(self.shard_count or 1)
        return f"shard{'s' if len(mine) != 1 else ''} {','.join(map(str, mine))} of {self.shard_count}"

    async def on_ready(self) -> None:
        log.info("connected as %s to %d server(s), %s", self.user, len(self.guilds), self.shards_text())
        if not self._resumed:
            self._resumed = True
            await self.sessions.resume_all()
            # What start-up made (modules, catalogues, editions, the games resumed) lives as long as the
            # process: out of the collector's way, every full collection does not walk it again.
            gc.freeze()

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        if interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit):
            try:
                await self.components(interaction)
            except StoreError as error:
                from words import text

                log.warning("store error on a component: %s", error.code)
                await say(interaction, "⚠️ " + text(lang_of(interaction), f"error.{error.code}"))
            except Exception:
                log.exception("component %s failed", (interaction.data or {}).get("custom_id"))
                from bot.face.i18n import t

                with contextlib.suppress(discord.HTTPException):
                    await say(interaction, "⚠️ " + t(lang_of(interaction), "error.internal"))

    def table_lang(self, interaction: discord.Interaction) -> str:
        """The language of the shared table messages: the server's, else the person's who opened it."""
        if interaction.guild is not None and interaction.guild.preferred_locale:
            return language_of(str(interaction.guild.preferred_locale))
        return language_of(str(interaction.guild_locale or interaction.locale))

    def _face(self, game: int, book: Book) -> Publisher:
        return Publisher(game, book, client=self, storage=self.storage, config=self.config)

    def _guild_language(self, guild_id: int) -> str:
        """The language of a guild's shared table messages: its preferred locale, else Spanish."""
        guild = self.get_guild(guild_id)
        return language_of(str(guild.preferred_locale)) if guild else "es"

    async def close(self) -> None:
        if self.status_reports is not None:
            self.status_reports.cancel()
        if self.requests_written is not None:
            self.requests_written.cancel()
            self._requests_file()
        sessions = getattr(self, "sessions", None)
        if sessions is not None:
            await sessions.close()
        await self.lobby_edits.close()
        pictures.shutdown()
        await super().close()
        storage = getattr(self, "storage", None)
        if storage is not None:
            await asyncio.to_thread(storage.close)
            storage.store.close()


def bot_of(interaction: discord.Interaction) -> TuristaBot:
    """The bot an interaction reached: handlers find the store and the sessions through it."""
    return interaction.client  # type: ignore[return-value]

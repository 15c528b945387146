"""The games in play this process serves: their sessions, loaded from the store on first use, and the locks of
their channels (a channel's lobby and its game share one)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Coroutine
from typing import Any

from bot.config import Config
from bot.store import GameRow, LeaseLost, NoSuchGame
from bot.table.book import Book
from bot.table.face import Face
from bot.table.session import Session
from bot.table.storage import Storage

log = logging.getLogger("turista.game")
RESTORE_AT_ONCE = 4  # games whose messages start-up brings up to date at the same time

MakeFace = Callable[[int, Book], Face]  # (game id, the game's book) -> the face that shows it


class Sessions:
    def __init__(self, config: Config, storage: Storage, make_face: MakeFace, language: Callable[[int], str]) -> None:
        """`make_face`: the face of a game; `language`: the language of a guild's shared messages."""
        self.config = config
        self.storage = storage
        self.make_face = make_face
        self.language = language
        self.by_game: dict[int, Session] = {}
        self.loading = asyncio.Lock()
        self.locks: dict[int, asyncio.Lock] = {}
        self.closing = False  # the process is shutting down: no new computer moves or timers
        self.background: set[asyncio.Task[None]] = set()
        # The faces of games that ended: what they still do in the background (the lobby's last line) finishes
        # before the process stops.
        self.retired: weakref.WeakSet[Face] = weakref.WeakSet()
        # Start-up puts the messages of every open game right; a few at a time, so that the first clicks
        # after a restart do not queue behind a thousand posts.
        self.restoring = asyncio.Semaphore(RESTORE_AT_ONCE)
        # The shards (shard, shard count) another process took over: this one no longer acts on their games.
        self.lost: dict[tuple[int, int], LeaseLost] = {}

    def step_aside(self, error: LeaseLost) -> None:
        """Another process took over a shard of this one (its write was refused by the database): stop the clocks
        and computer players of that shard's games, and load none of them again; their clicks are answered that
        another process serves them now. Said once per shard in the log."""
        key = (error.shard, error.shard_count)
        if key in self.lost:
            return
        self.lost[key] = error
        log.warning("shard %d of %d: another process took it over (%s, epoch %s; this process held epoch %d); "
                    "this process steps aside and no longer acts on its games", error.shard, error.shard_count,
                    error.holder or "no lease held", error.holder_epoch, error.epoch)
        for session in list(self.by_game.values()):
            if self._lost(session.row) is not None:
                session.closed = True
                session.cancel_tasks()
                self.forget(session)

    def _lost(self, row: GameRow) -> LeaseLost | None:
        """The lease this process lost over the game's shard, if it did."""
        for (shard, count), error in self.lost.items():
            if (row.guild_id >> 22) % count == shard:
                return error
        return None

    def lock_for(self, channel_id: int) -> asyncio.Lock:
        """The one lock of a channel: its lobby and its game share it."""
        return self.locks.setdefault(channel_id, asyncio.Lock())

    async def for_game(self, gid: int) -> Session | None:
        session = self.by_game.get(gid)
        if session is not None:
            return session
        async with self.loading:
            if gid in self.by_game:
                return self.by_game[gid]
            try:
                row = await self.storage.game(gid)
            except NoSuchGame:
                return None
            if row.status != "active":
                return None
            if (lost := self._lost(row)) is not None:
                raise lost
            session = Session(self, row)
            self.by_game[gid] = session
            return session

    async def for_channel(self, channel_id: int) -> Session | None:
        session = next((s for s in self.by_game.values() if s.plays_in(channel_id)), None)
        if session is not None:
            return session
        row = await self.storage.game_by_channel(channel_id)
        if row is None or row.status != "active":
            return None
        return await self.for_game(row.id)

    def forget(self, session: Session) -> None:
        if self.by_game.get(session.gid) is session:
            del self.by_game[session.gid]
        self.retired.add(session.face)

    async def resume_all(self) -> None:
        """After a start: re-arm the timers of every open game and let computer seats carry on."""
        resumed = []
        async with self.loading:
            config = self.config
            if config.shards is None:  # every shard is this process's
                rows = await self.storage.open_games()
            else:
                rows = await self.storage.open_games(config.shard_count, config.shards)
            for row in rows:
                if row.status != "active" or row.state is None or self._lost(row) is not None:
                    continue
                session = self.by_game.get(row.id)  # a click may already have loaded it
                if session is None:
                    session = Session(self, row)
                    self.by_game[row.id] = session
                resumed.append(session)
        log.info("resumed %d open game(s)", len(resumed))
        for session in resumed:
            self.spawn(self._resume(session), f"turista-resume-{session.gid}")

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run `work` in the background, kept alive until it ends."""
        task = asyncio.create_task(work, name=name)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _resume(self, session: Session) -> None:
        async with self.restoring:
            await session.refresh()
        session.after_change()

    async def close(self, timeout: float = 5.0) -> None:
        """Stop timers and computer players, then let the work in progress in every channel finish, so a
        restart never cuts a move between the database and the table message."""
        self.closing = True
        for session in self.by_game.values():
            session.cancel_tasks()
        try:
            async with asyncio.timeout(timeout):
                for lock in list(self.locks.values()):
                    async with lock:
                        pass
                for session in list(self.by_game.values()):
                    async with session.lock:
                        await session.record_edits()
                    await session.face.close()
                for face in list(self.retired):
                    await face.close()
        except TimeoutError:
            log.warning("shutting down with work still in progress")

"""The messages of a game that carry a decision: the table, an open auction, a pending trade offer.

A `Publisher` belongs to one `Session` and is only called with the session's lock held: it turns the
state and the events of an action into posts and edits of the game's messages. Where each of those messages
is, and which version it shows, lives in the store (`messages`), never only in memory, so a restart finds
them all and brings each up to date (`restore`).

A post is marked in the store before it is sent and recorded after; its nonce is derived from what the
store holds (game, kind, version, the message it replaces), so the same post sent again after a crash
or a timeout is recognised by Discord (`enforce_nonce`) instead of appearing twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Protocol, TypeVar

import aiohttp
import discord
from discord.http import HTTPClient, Route, handle_message_parameters

from bot.config import Config
from bot.face import buttons, components, embeds, wire
from bot.face.replies import ClickAnswer
from bot.pictures import pool
from bot.store import GameRow, MessageRow, SeatRow, Store, StoreError
from bot.table.writing import Writer
from engine import State

log = logging.getLogger("turista.game")
T = TypeVar("T")

TRACKED = ("table", "auction", "offer")  # the kinds of message a game in play keeps (the lobby has its own)
RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)  # seconds between tries of a post or an edit Discord failed to answer
ENDED_AUCTION = ("auction_won", "auction_unsold")
ENDED_OFFER = ("trade_done", "trade_rejected", "trade_cancelled")
# What publishing may fail with, Discord (or the network) and the database, once the move is recorded.
PUBLISH_ERRORS = (discord.HTTPException, StoreError, TimeoutError, aiohttp.ClientError, OSError)


class Gone(Exception):
    """The message can no longer be edited (deleted, or no permission): a fresh one replaces it."""


def transient(error: BaseException) -> bool:
    """A failure of Discord or of the network that may go away: a rate limit, a server error, a timeout."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return isinstance(error, (TimeoutError, aiohttp.ClientError, OSError))


def nonce(game: int, kind: str, version: int, replaces: int | None) -> str:
    """The post's nonce (at most 25 characters): the same post, worked out again from the store after a
    crash, gets the same one; a fresh message in place of one that was deleted gets another."""
    key = f"turista:{game}:{kind}:{version}:{replaces or 0}".encode()
    return hashlib.blake2b(key, digest_size=10).hexdigest()


class _Host(Protocol):
    config: Config
    store: Store
    writes: Writer
    http: HTTPClient
    allowed_mentions: discord.AllowedMentions | None


class Owner(Protocol):
    """What a publisher needs of its game's session (`bot.table.session.Session`)."""

    bot: _Host
    row: GameRow
    gid: int
    lang: str
    state: State | None

    @property
    def seats(self) -> list[SeatRow]: ...

    @property
    def channel(self) -> discord.PartialMessageable: ...

    def user_of(self, seat: int) -> int | None: ...

    async def announce_winner(self, st: State) -> None: ...

    def show_progress(self, st: State) -> None: ...


class Publisher:
    def __init__(self, session: Owner) -> None:
        self.session = session
        self.turn_events: list[dict] = []  # what happened in the turn the table shows
        self.narration = embeds.Narration()  # the sentences of `turn_events`
        self.messages: dict[str, MessageRow] = {k: m for k, m in session.row.messages.items() if k in TRACKED}
        self._answer: ClickAnswer | None = None  # the click being answered by the edit of its message
        # Edits made since the store last heard of them: recorded with the next action (or at shutdown), not
        # each in a write of its own. A crash before that costs one edit at the next start-up.
        self.unrecorded: dict[str, MessageRow] = {}
        self._marked: dict[str, int] = {}  # posts whose mark (`Store.intend_post`) went in with the action

    def posts_ahead(self, events: list[dict]) -> list[tuple[str, int]]:
        """The posts `events` will make that can be marked in the store with the action itself (kind, channel
        id): a new turn's table, unless a post of the table is in doubt (that one is sent again first)."""
        row = self.messages.get("table")
        if (row is None or row.posting is None) and any(e["code"] == "turn_started" for e in events):
            return [("table", self.channel.id)]
        return []

    def marked(self, posting: list[tuple[str, int]], version: int) -> None:
        """The store holds the marks of `posting` (`posts_ahead`) for `version`: a crash from now on finds
        them, so from now on each is a post in doubt until it is recorded."""
        for kind, channel_id in posting:
            self._in_doubt(kind, channel_id, version)
            self._marked[kind] = version

    def _in_doubt(self, kind: str, channel_id: int, version: int) -> None:
        """The message of `kind` is being posted for `version`: in doubt until its id is recorded. The message
        it replaces stays known meanwhile, as the store keeps it (`Store.intend_post`)."""
        old = self.messages.get(kind)
        self.messages[kind] = MessageRow(kind, channel_id, old.message_id if old else None,
                                         old.version if old else version, posting=version)

    @property
    def gid(self) -> int:
        return self.session.gid

    @property
    def lang(self) -> str:
        return self.session.lang

    @property
    def channel(self) -> discord.PartialMessageable:
        return self.session.channel

    def message_id(self, kind: str) -> int | None:
        row = self.messages.get(kind)
        return None if row is None else row.message_id

    def editable(self, kind: str) -> bool:
        """Whether the message of `kind` is known and no post of it is in doubt (a post that failed or was
        cut may have gone out: it is sent again with its nonce rather than left beside an edited one)."""
        row = self.messages.get(kind)
        return row is not None and row.message_id is not None and row.posting is None

    # -- after an action -------------------------------------------------------------------------------
    async def publish(self, events: list[dict], answer: ClickAnswer | None = None) -> None:
        """Show what `events` changed; `answer`: the click that caused them, answered by its message's edit."""
        self._answer = answer
        try:
            await self._publish(events)
        finally:
            self._answer = None

    async def _publish(self, events: list[dict]) -> None:
        st = self.session.state
        assert st is not None
        turns: list[list[dict]] = []
        for event in events:
            if event["code"] == "turn_started":
                turns.append([event])
            elif turns:
                turns[-1].append(event)
            else:
                self.turn_events.append(event)
        # The auction and trade messages first: once the table shows a version, everything does.
        await self._auction_message(events)
        await self._trade_message(events)
        if turns:
            await self._retire_table()
            for number, finished in enumerate(turns[:-1]):
                _, embed = embeds.table(st, self.session.seats, finished, self.lang, live=False, game=self.gid,
                                        picture=False)
                key = nonce(self.gid, f"turn{number}", st.version, None)
                await self._retrying(lambda e=embed, k=key: self._send(  # type: ignore[misc]
                    self.channel.id, {"embed": e, "nonce": k, "allowed_mentions": components.NO_MENTIONS}),
                    "post a finished turn")
            self.turn_events = turns[-1]
            self.narration.forget()
            await self.post_table()
            self.session.show_progress(st)
        else:
            await self._show_table(live=st.phase != "over")
        if st.phase == "over":
            await self.session.announce_winner(st)

    def _mentions(self) -> discord.AllowedMentions:
        """Only the person the game waits for is pinged; names typed by players never ping anyone."""
        st = self.session.state
        users = [self.session.user_of(s) for s in (st.seat_to_act() if st else [])]
        return discord.AllowedMentions(everyone=False, roles=False,
                                       users=[discord.Object(u) for u in users if u][:1])

    # -- the table ---------------------------------------------------------------------------------------
    async def post_table(self) -> None:
        """A new table message showing the current version (the newest table is the live one)."""
        session = self.session
        st = session.state
        assert st is not None
        content, embed = embeds.table(st, session.seats, self.turn_events, self.lang, live=st.phase != "over",
                                      game=self.gid, narration=self.narration)
        view = buttons.table_view(self.gid, st, self.lang)
        file = await pool.board_file(st, self.lang, **self._picture_extras())
        kwargs: dict[str, Any] = {"embed": embed, "file": file, "allowed_mentions": self._mentions()}
        if view is not None:
            kwargs["view"] = view
        await self._post("table", content, kwargs, lambda: self._table_edit(live=True))

    def _picture_extras(self) -> dict[str, Any]:
        """What the board shows beside the state: this turn's events and the minutes left of the game."""
        extras: dict[str, Any] = {"table": self.gid, "events": self.turn_events}
        ends_at = self.session.row.settings.get("ends_at")
        if ends_at:
            minute = self.session.bot.config.minute
            extras["minutes_left"] = max(0, math.ceil((float(ends_at) - time.time()) / minute))
        return extras

    async def _table_edit(self, *, live: bool) -> dict[str, Any]:
        st = self.session.state
        assert st is not None
        content, embed = embeds.table(st, self.session.seats, self.turn_events, self.lang, live=live, game=self.gid,
                                      narration=self.narration)
        view = buttons.table_view(self.gid, st, self.lang) if live else None
        # The embed names `board.png`: the new picture below, or the one the message keeps.
        kwargs: dict[str, Any] = {"content": content, "embed": embed, "view": view,
                                  "allowed_mentions": components.NO_MENTIONS}
        if live or st.phase == "over":
            # An edit that leaves the picture as it is keeps the attachment the message already has.
            board = await pool.board_if_changed(st, self.lang, **self._picture_extras())
            if board is not None:
                kwargs["attachments"] = [board]
        return kwargs

    async def _show_table(self, *, live: bool) -> None:
        """The table shows the current version; a table that cannot be edited is replaced by a fresh one."""
        if not self.editable("table"):
            if live:
                await self.post_table()
            return
        try:
            await self._edit("table", await self._table_edit(live=live))
        except Gone:
            if live:
                await self.post_table()

    async def _retire_table(self) -> None:
        """A new turn: the previous table keeps its account of the turn but loses its buttons. If that edit
        fails, its buttons only answer "outdated": the new table still goes up."""
        if self.message_id("table") is None:
            return
        try:
            await self._edit("table", await self._table_edit(live=False), record=False)
        except Gone:
            pass
        except Exception as error:
            if not transient(error):
                raise
            log.warning("game %d: the previous table keeps its buttons (%s)", self.gid, error)

    # -- the auction -------------------------------------------------------------------------------------
    async def _auction_message(self, events: list[dict]) -> None:
        st = self.session.state
        assert st is not None
        ended = [e for e in events if e["code"] in ENDED_AUCTION]
        if "auction" in self.messages and (ended or st.auction is None):
            # The last result is this message's; a queued auction may already be open.
            edit: dict[str, Any] = {"view": None, "allowed_mentions": components.NO_MENTIONS}
            if ended:
                edit["content"] = None
                edit["embed"] = embeds.auction_result(st, ended[:1], self.lang, game=self.gid)
            await self._close("auction", edit)
        if st.auction is None:
            return
        opened = any(e["code"] == "auction_opened" for e in events)
        if self.editable("auction") and not opened:
            try:
                await self._edit("auction", await self._auction_edit())
                return
            except Gone:
                pass
        await self._post_auction()

    async def _post_auction(self) -> None:
        st = self.session.state
        assert st is not None and st.auction is not None
        embed = embeds.auction(st, self.lang, self.session.bot.config.auction_quiet, game=self.gid)
        file = await pool.deed_file(st.edition, st.auction.square, st, self.lang)
        await self._post("auction", None, {"embed": embed, "file": file,
                                           "view": buttons.auction_view(self.gid, st, self.lang),
                                           "allowed_mentions": components.NO_MENTIONS}, self._auction_edit)

    # -- the trade offer ---------------------------------------------------------------------------------
    async def _trade_message(self, events: list[dict]) -> None:
        st = self.session.state
        assert st is not None
        codes = {e["code"] for e in events}
        if "offer" in self.messages and (codes & set(ENDED_OFFER) or st.trade is None):
            outcome = [e for e in events if e["code"] in ENDED_OFFER]
            await self._close("offer", {"content": None, "embed": embeds.trade_outcome(st, outcome, self.lang,
                                                                                       game=self.gid),
                                        "view": None, "allowed_mentions": components.NO_MENTIONS})
        if st.trade is None:
            return
        if self.editable("offer") and "trade_proposed" not in codes:
            try:
                await self._edit("offer", await self._offer_edit())
                return
            except Gone:
                pass
        await self._post_offer()

    async def _post_offer(self) -> None:
        st = self.session.state
        assert st is not None and st.trade is not None
        target = self.session.user_of(st.trade.target)
        mentions = discord.AllowedMentions(everyone=False, roles=False,
                                           users=[discord.Object(target)] if target else False)
        content, embed = embeds.trade(st, self.session.seats, self.lang, game=self.gid)
        await self._post("offer", content, {"embed": embed, "view": buttons.trade_view(self.gid, st, self.lang),
                                            "allowed_mentions": mentions}, self._offer_edit)

    # -- after a start, or a failure -----------------------------------------------------------------------
    async def restore(self) -> None:
        """Every message that carries a pending decision shows the current version with its buttons, from
        what the store holds: a post a crash may have cut is sent again (its nonce finds it if it went
        through), a message that was deleted is posted afresh, a decision that is over loses its buttons."""
        st = self.session.state
        if st is None:
            return
        live = st.phase != "over"
        await self._restore("auction", live and st.auction is not None, self._post_auction, self._auction_edit)
        await self._restore("offer", live and st.trade is not None, self._post_offer, self._offer_edit)
        await self._restore("table", live, self.post_table, lambda: self._table_edit(live=True))
        await self.record_edits()  # at once: start-up and healing are rare, and may be followed by no action

    async def _auction_edit(self) -> dict[str, Any]:
        st = self.session.state
        assert st is not None
        return {"content": None,
                "embed": embeds.auction(st, self.lang, self.session.bot.config.auction_quiet, game=self.gid),
                "view": buttons.auction_view(self.gid, st, self.lang), "allowed_mentions": components.NO_MENTIONS}

    async def _offer_edit(self) -> dict[str, Any]:
        st = self.session.state
        assert st is not None
        content, embed = embeds.trade(st, self.session.seats, self.lang, game=self.gid)
        return {"content": content, "embed": embed, "view": buttons.trade_view(self.gid, st, self.lang),
                "allowed_mentions": components.NO_MENTIONS}

    async def _restore(self, kind: str, wanted: bool, post: Callable[[], Awaitable[None]],
                       edit: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        st = self.session.state
        assert st is not None
        row = self.messages.get(kind)
        if not wanted:
            if row is not None:
                await self._close(kind, {"view": None})
            return
        if row is None or not self.editable(kind):
            if row is not None and row.posting is not None:
                log.info("game %d: the %s message of version %d may not have gone out; sending it again",
                         self.gid, kind, row.posting)
            await post()
        elif row.version != st.version:  # recorded after an edit went through: it shows that version
            try:
                await self._edit(kind, await edit())
            except Gone:
                await post()

    # -- posting and editing, recorded in the store ----------------------------------------------------
    async def _post(self, kind: str, content: str | None, kwargs: dict[str, Any],
                    edit: Callable[[], Awaitable[dict[str, Any]]]) -> None:
        """Post the message of `kind` for the current version: marked in the store first, recorded after.
        A post of an earlier version that may have gone out (a crash or a timeout cut it) is sent again with
        its own nonce, so Discord hands back that message if it exists; `edit` then brings it up to date."""
        st = self.session.state
        assert st is not None
        store = self.session.bot.store
        channel = self.channel
        old = self.messages.get(kind)
        replaces = old.message_id if old else None
        version = old.posting if old is not None and old.posting is not None else st.version
        self._in_doubt(kind, channel.id, version)
        self.unrecorded.pop(kind, None)
        if self._marked.pop(kind, None) != version:
            await self._save(store.intend_post, self.gid, kind, channel.id, version)
        key = nonce(self.gid, kind, version, replaces)
        message_id = await self._retrying(lambda: self._send(channel.id, {"content": content, "nonce": key, **kwargs}),
                                          f"post the {kind}", files=self._files(kwargs))
        self.messages[kind] = MessageRow(kind, channel.id, message_id, version)
        await self._save(store.posted, self.gid, kind, channel.id, message_id, version)
        if version != st.version:
            await self._edit(kind, await edit())

    async def _edit(self, kind: str, kwargs: dict[str, Any], *, record: bool = True) -> None:
        """Edit the message of `kind` to show the current version (`record`: as its live message); raises
        `Gone` (logged, with the reason) if it was deleted or may not be edited."""
        st = self.session.state
        assert st is not None
        row = self.messages[kind]
        message_id = row.message_id
        assert message_id is not None
        try:
            if not await self._answered_with(message_id, kwargs):
                await self._retrying(lambda: self._send_edit(row.channel_id, message_id, kwargs), f"edit the {kind}",
                                     files=self._files(kwargs, "attachments"))
        except (discord.NotFound, discord.Forbidden) as error:
            why = "it was deleted" if isinstance(error, discord.NotFound) else "Discord refuses the edit"
            log.warning("game %d: the %s message %d cannot be edited (%s: %d %s); a new one replaces it",
                        self.gid, kind, row.message_id, why, error.status, error.text or "")
            raise Gone from error
        if not record:
            return
        self.messages[kind] = self.unrecorded[kind] = replace(row, version=st.version, posting=None)

    async def _answered_with(self, message_id: int, kwargs: dict[str, Any]) -> bool:
        """Whether the edit of `message_id` went out as the answer to the click on it. If that answer fails,
        the edit is made the usual way (an answer that reached Discord only shows the same thing twice)."""
        answer = self._answer
        if answer is None or not answer.take(message_id):
            return False
        try:
            await answer.update(kwargs)
            return True
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
            log.warning("game %d: a click could not be answered with its message's edit (%s)", self.gid,
                        _short(error))
            for file in self._files(kwargs, "attachments"):
                file.reset(seek=True)
            return False

    async def _close(self, kind: str, kwargs: dict[str, Any]) -> None:
        """The decision of `kind` is over: its message loses its buttons and is no longer tracked."""
        row = self.messages.get(kind)
        if row is not None and row.message_id is not None:
            try:
                await self._edit(kind, kwargs, record=False)
            except Gone:
                pass
            except Exception as error:
                if not transient(error):
                    raise
                log.warning("game %d: the %s message that ended keeps its buttons (%s)", self.gid, kind, error)
        self.messages.pop(kind, None)
        self.unrecorded.pop(kind, None)
        await self._save(self.session.bot.store.drop_message, self.gid, kind)

    async def record_edits(self) -> None:
        """Record the edits not recorded yet."""
        if self.unrecorded:
            shown, self.unrecorded = list(self.unrecorded.values()), {}
            await self._save(self.session.bot.store.shown, self.gid, shown)

    async def take_down(self) -> None:
        """The game stopped: no message keeps buttons."""
        for row in list(self.messages.values()):
            if row.message_id is not None:
                with contextlib.suppress(discord.HTTPException):
                    await self._send_edit(row.channel_id, row.message_id, {"view": None})

    # discord.py's `send` and `edit` build a whole `Message` from Discord's answer, which nothing here reads (a
    # post's id aside): the publisher's posts and edits go through its HTTP client, with the parameters those
    # methods would send (the client's default mentions merged in, as they do), in a body built at once
    # (`bot.face.wire`).
    async def _send(self, channel_id: int, fields: dict[str, Any]) -> int:
        """Post a message with `fields` (content, embed, file, view, nonce, allowed_mentions); its id."""
        bot = self.session.bot
        route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
        with handle_message_parameters(previous_allowed_mentions=bot.allowed_mentions, **fields) as params:
            data = await bot.http.request(route, **wire.body(params))
        return int(data["id"])

    async def _send_edit(self, channel_id: int, message_id: int, fields: dict[str, Any]) -> None:
        """Edit a message with `fields` (content, embed, attachments, view, allowed_mentions)."""
        bot = self.session.bot
        previous = bot.allowed_mentions if "content" in fields else None
        route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel_id,
                      message_id=message_id)
        with handle_message_parameters(previous_allowed_mentions=previous, **fields) as params:
            await bot.http.request(route, **wire.body(params))

    @staticmethod
    def _files(kwargs: dict[str, Any], key: str = "file") -> list[discord.File]:
        value = kwargs.get(key)
        if isinstance(value, discord.File):
            return [value]
        return [f for f in value or [] if isinstance(f, discord.File)]

    async def _retrying(self, call: Callable[[], Awaitable[T]], what: str,
                        files: list[discord.File] | None = None) -> T:
        """`call`, tried again after a rate limit, a server error or a timeout, a little later each time."""
        for attempt, delay in enumerate((*RETRY_DELAYS, None)):
            if attempt:
                for file in files or ():
                    file.reset(seek=True)
            try:
                return await call()
            except Exception as error:
                if delay is None or not transient(error):
                    raise
                log.warning("game %d: could not %s (%s); trying again in %.1f s", self.gid, what,
                            _short(error), delay)
                await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    async def _save(self, write: Callable[..., object], *args: Any) -> None:
        """Record a message in the store. A database that refuses the write does not stop the game: the
        message is up, and the next record of its kind (or a start-up that posts again) puts it right."""
        try:
            await self.session.bot.writes(write, *args)
        except StoreError as error:
            log.warning("game %d: could not record a message (%s): %s", self.gid, write.__name__, error.code)


def _short(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or ''}".strip()
    return type(error).__name__ + (f": {error}" if str(error) else "")

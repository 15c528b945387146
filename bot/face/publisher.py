"""The face of a game in Discord: the messages that carry a decision (the table, an open auction, a pending trade
offer), the lobby message's line about the game, one-off notices and the final standings.

A `Publisher` belongs to one game and is only called by its session, with the session's lock held, through the
`Face` interface (`bot.table.face`): each call brings the game as it is now (a `Table`) and what changed. It turns
them into posts and edits, and writes in the game's `Book` which message shows which version; the book is
recorded in the store (`messages`), never only in memory, so a restart finds every message and brings each up to
date (`restore`).

A post is marked in the store before it is sent and recorded after; its nonce is derived from what the store
holds (game, kind, version, the message it replaces), so the same post sent again after a crash or a timeout is
recognised by Discord (`enforce_nonce`) instead of appearing twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord

from bot.config import Config
from bot.face import adapter, attachments, buttons, components, embeds, layout, league, lobby_message, texts, threads
from bot.face.edits import RETRY_DELAYS, Edits
from bot.face.forbidden import ChannelBackoff, Withheld
from bot.face.i18n import t
from bot.face.replies import ClickAnswer
from bot.face.texts import seat_label
from bot.store import StoreError
from bot.table.book import Book
from bot.table.face import Notice, NotShown, Table
from bot.table.storage import Storage
from engine import standings
from words import alt

log = logging.getLogger("turista.game")
T = TypeVar("T")

ENDED_AUCTION = ("auction_won", "auction_unsold")
ENDED_OFFER = ("trade_done", "trade_rejected", "trade_cancelled")
LOBBY_EVERY = 60.0  # seconds between two updates of the game's state on its lobby message
# Discord limits the edits of messages older than an hour (JSON code 30046; it does not publish the numbers),
# and a long game's lobby message is such a message: it tells the game's state less often, and after a refusal
# not at all for a while. The game's result still reaches the channel: in a new message if the edit is refused.
OLD_MESSAGE = 3600.0
LOBBY_EVERY_OLD = 600.0
LOBBY_REFUSED_PAUSE = 3600.0
# What showing may fail with, Discord (or the network) and the database, once the move is recorded.
PUBLISH_ERRORS = (discord.HTTPException, StoreError, TimeoutError, aiohttp.ClientError, OSError, Withheld)
SEND_ERRORS = (discord.HTTPException, aiohttp.ClientError, TimeoutError, Withheld)  # what a post may fail with
Edit = Callable[[Table], Awaitable[dict[str, Any]]]


class Gone(Exception):
    """The message can no longer be edited (deleted, or no permission): a fresh one replaces it."""


def transient(error: BaseException) -> bool:
    """A failure of Discord or of the network that may go away: a rate limit, a server error, a timeout."""
    if isinstance(error, discord.HTTPException):
        if error.code == threads.OLD_MESSAGE_EDITS:
            return False  # an old message's edit refused: Discord means an hour or so, no retry waits that long
        return error.status == 429 or error.status >= 500
    return isinstance(error, (TimeoutError, aiohttp.ClientError, OSError))


def nonce(game: int, kind: str, version: int, replaces: int | None) -> str:
    """The post's nonce (at most 25 characters): the same post, worked out again from the store after a
    crash, gets the same one; a fresh message in place of one that was deleted gets another."""
    key = f"turista:{game}:{kind}:{version}:{replaces or 0}".encode()
    return hashlib.blake2b(key, digest_size=10).hexdigest()


class Publisher:
    def __init__(self, game: int, book: Book, *, client: discord.Client, storage: Storage, config: Config) -> None:
        self.game = game
        self.book = book
        self.client = client
        self.storage = storage
        self.config = config
        self.turn_events: list[dict] = []  # what happened in the turn the table shows
        self.narration = embeds.Narration()  # the sentences of `turn_events`
        self.lobby_shown = 0.0  # when the lobby message last showed the game's state (monotonic)
        self.lobby_refused: float | None = None  # when Discord last refused to edit it as an old message (monotonic)
        self._background: set[asyncio.Task[None]] = set()  # lobby lines being shown, kept alive until they end
        # The game's channel: left alone a while after a 403, and its edits kept within Discord's rate limits.
        self.channel = ChannelBackoff(game)
        self.edits = Edits(client, f"game {game}", forbidden=self.channel.refused)
        # Discord refused to edit this game's table as a layout (discord-api-docs #7529): from then on its table is
        # the classic embed table, in new messages (a layout cannot be edited into an embed).
        self.healed = False
        self.layouts: dict[int, bool] = {}  # a table, auction or offer -> whether this process posted it as a layout
        self.auction_square: int | None = None  # the title of the auction message, told by its alt text
        self.alts: dict[int, str] = {}  # a layout table -> the alt text of the board it shows

    # -- the face ------------------------------------------------------------------------------------------
    async def show(self, table: Table, events: list[dict], click: object | None = None) -> None:
        """Show what `events` changed; `click`: the `ClickAnswer` of the click that caused them, answered by its
        message's edit."""
        answer = click if isinstance(click, ClickAnswer) else None
        try:
            await self._publish(table, events, answer)
        except PUBLISH_ERRORS as error:
            raise NotShown(_short(error)) from error

    async def opened(self, table: Table, events: list[dict]) -> None:
        """The game's first table, telling how it started."""
        self.turn_events = list(events)
        self.narration.forget()
        try:
            await self.post_table(table)
        except PUBLISH_ERRORS as error:
            raise NotShown(_short(error)) from error

    async def restore(self, table: Table) -> None:
        """Every message that carries a pending decision shows the current version with its buttons, from
        what the store holds: a post a crash may have cut is sent again (its nonce finds it if it went
        through), a message that was deleted is posted afresh, a decision that is over loses its buttons."""
        st = table.state
        live = st.phase != "over"
        try:
            await self._restore(table, "auction", live and st.auction is not None, self._post_auction,
                                self._auction_edit)
            await self._restore(table, "offer", live and st.trade is not None, self._post_offer, self._offer_edit)
            await self._restore(table, "table", live, self.post_table, self._live_table_edit)
        except PUBLISH_ERRORS as error:
            raise NotShown(_short(error)) from error

    async def tell(self, table: Table, notice: Notice) -> None:
        """A one-off message for the table (a warning, "played for…"): the game never waits on it."""
        text = t(table.lang, notice.key, **self._notice_params(table, notice))
        mentions = discord.AllowedMentions(users=[discord.Object(u) for u in notice.ping]) if notice.ping \
            else components.NO_MENTIONS
        try:
            fields: dict[str, Any] = {"content": text}  # a reminder: the push notification shows its words
            if not notice.plain:
                content, embed = embeds.notice(text)
                fields = {"content": content, "embed": embed}
            await self.channel.send(lambda: adapter.send_message(
                self.client, table.where, {**fields, "allowed_mentions": mentions}))
        except SEND_ERRORS as error:
            log.warning("game %d: could not post a notice (%s): %s", self.game, _short(error), text[:80])

    def _notice_params(self, table: Table, notice: Notice) -> dict[str, Any]:
        params: dict[str, Any] = {}
        if notice.seat is not None:
            params["seat"] = seat_label(table.state, notice.seat)
        if notice.ping:
            params["who"] = " ".join(f"<@{u}>" for u in notice.ping)
        if notice.deadline is not None:
            # Discord shows the relative timestamp counting down in each reader's own words.
            params["deadline"] = f"<t:{math.ceil(notice.deadline)}:R>"
        if notice.since is not None:
            params["since"] = f"<t:{int(notice.since)}:R>"
        if notice.what:
            params["what"] = t(table.lang, f"waiting.{notice.what}")
        return params

    async def remind_directly(self, table: Table, notice: Notice) -> list[int]:
        """A reminder by direct message to each person `notice` names, with a link to the table; the people
        Discord refused it to (50007: they take no direct messages from the server), each logged once."""
        refused: list[int] = []
        text = t(table.lang, notice.key, **self._notice_params(table, notice))
        row = self.book.messages.get("table")
        if row is not None and row.message_id is not None:
            text = f"{text}\nhttps://discord.com/channels/{table.guild_id}/{row.channel_id}/{row.message_id}"
        for user in notice.ping:
            try:
                dm = await self.client.create_dm(discord.Object(user))
                await adapter.send_message(self.client, dm.id, {"content": text,
                                                                "allowed_mentions": components.NO_MENTIONS})
            except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
                log.warning("game %d: Discord refused a direct message to %d (%s); the reminder goes to the "
                            "channel instead", self.game, user, _short(error))
                refused.append(user)
        return refused

    async def ended(self, table: Table, ended_by: str) -> None:
        """`/turista end`: no message keeps buttons, and the ranking as it stands is posted with the end-of-game
        picture (the game itself has no winner)."""
        for kind, row in list(self.book.messages.items()):
            if row.message_id is not None:
                closed = await self._closed(table, kind)
                with contextlib.suppress(*PUBLISH_ERRORS):  # after an edit that waits, never overtaking it
                    await self.channel.send(lambda r=row, c=closed: self.edits.edit(  # type: ignore[misc]
                        r.channel_id, r.message_id, c, lambda: None))
        st = table.state
        await self._announce(table, t(table.lang, "over.ended", who=ended_by), standings(st))
        self._in_lobby(table, threads.result(table, ended_by), final=True)

    async def close(self) -> None:
        """Let the lobby lines and the waiting edits under way finish (the process stops, and its HTTP session with
        it)."""
        if self._background:
            await asyncio.wait(self._background)
        await self.edits.close()

    # -- after a move -----------------------------------------------------------------------------------------
    async def _publish(self, table: Table, events: list[dict], answer: ClickAnswer | None) -> None:
        st = table.state
        turns: list[list[dict]] = []
        for event in events:
            if event["code"] == "turn_started":
                turns.append([event])
            elif turns:
                turns[-1].append(event)
            else:
                self.turn_events.append(event)
        # The auction and trade messages first: once the table shows a version, everything does.
        await self._auction_message(table, events, answer)
        await self._trade_message(table, events, answer)
        if turns:
            await self._retire_table(table, answer)
            for number, finished in enumerate(turns[:-1]):
                _, embed = embeds.table(st, table.seats, finished, table.lang, live=False, game=self.game,
                                        picture=False)
                key = nonce(self.game, f"turn{number}", st.version, None)
                await self._retrying(lambda e=embed, k=key: self.channel.send(  # type: ignore[misc]
                    lambda: adapter.send_message(self.client, table.where, {
                        "embed": e, "nonce": k, "allowed_mentions": components.NO_MENTIONS})),
                    "post a finished turn")
            self.turn_events = turns[-1]
            self.narration.forget()
            await self.post_table(table)
            self._show_progress(table)
        else:
            await self._show_table(table, answer, live=st.phase != "over")
        if st.phase == "over":
            await self._announce(table, t(table.lang, "over.title", seat=seat_label(st, st.winner)), st.standings)
            self._in_lobby(table, threads.result(table), final=True)

    def _show_progress(self, table: Table) -> None:
        """Now and then, the lobby message in the channel tells how the game goes (in the background: no click
        waits for it); less often once it is an old message, and not while Discord refuses such edits."""
        lobby = table.lobby
        if lobby is None or lobby.message_id is None or self._lobby_refused():
            return
        now = time.monotonic()
        every = LOBBY_EVERY_OLD if threads.age(lobby.message_id) >= OLD_MESSAGE else LOBBY_EVERY
        if now - self.lobby_shown < every:
            return
        self.lobby_shown = now
        self._in_lobby(table, threads.progress(table))

    def _lobby_refused(self) -> bool:
        """Whether Discord refused to edit the lobby message, an old message, less than `LOBBY_REFUSED_PAUSE` ago."""
        return self.lobby_refused is not None and time.monotonic() - self.lobby_refused < LOBBY_REFUSED_PAUSE

    def _in_lobby(self, table: Table, line: str, *, final: bool = False) -> None:
        """Show `line` on the lobby message, in the background: the game never waits on it. `final`: the game's
        result, which reaches the channel in a new message if the lobby message cannot show it."""
        task = asyncio.create_task(self._show_in_lobby(table, line, final), name=f"turista-lobby-{self.game}")
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def _show_in_lobby(self, table: Table, line: str, final: bool) -> None:
        """Edit the lobby message once, never again on a refusal; a result it cannot show goes to a new message
        in the channel, if the game was played in a thread (a game played in the channel has its standings there
        already)."""
        if not self._lobby_refused():
            try:
                await threads.show_in_lobby(self.client, table, line)
                return
            except discord.HTTPException as error:
                if error.code == threads.OLD_MESSAGE_EDITS:
                    if self.lobby_refused is None:  # said once per game: it stays so for hours
                        log.warning("game %d: Discord refuses to edit the lobby message, an old one (%s; code %d): "
                                    "it shows the game's state less often now, and its result in a new message if "
                                    "need be", self.game, _short(error), error.code)
                    self.lobby_refused = time.monotonic()
                else:
                    log.warning("game %d: the lobby message could not show the game's state: %s", self.game,
                                _short(error))
                    if error.status != 404:  # a lobby message deleted: the result goes to a new one
                        return
            except (aiohttp.ClientError, TimeoutError) as error:
                log.warning("game %d: the lobby message could not show the game's state: %s", self.game,
                            _short(error))
                return
        if final and table.thread_id is not None:
            await self._post_result(table, line)

    async def _post_result(self, table: Table, line: str) -> None:
        """The game's result as a new message in its channel, where the lobby message could not show it."""
        key = nonce(self.game, "result", table.state.version, table.lobby.message_id if table.lobby else None)
        try:
            shown = threads.lobby_fields(table, line, as_layout=lobby_message.wanted(table.settings))
            await adapter.send_message(self.client, table.channel_id, {**shown, "nonce": key})
            log.info("game %d: its result went to a new message in channel %d", self.game, table.channel_id)
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
            log.warning("game %d: the channel could not be told the game's result: %s", self.game, _short(error))

    @staticmethod
    def _mentions(table: Table) -> discord.AllowedMentions:
        """Only the person the game waits for is pinged; names typed by players never ping anyone."""
        users = [table.user_of(s) for s in table.state.seat_to_act()]
        return discord.AllowedMentions(everyone=False, roles=False,
                                       users=[discord.Object(u) for u in users if u][:1])

    # -- the table ---------------------------------------------------------------------------------------
    def _layout(self, table: Table) -> bool:
        """Whether this game's new table messages are layouts (`bot.face.layout`) rather than embeds: where
        discord.py can send one, the table's house rules do not keep the classic table, and Discord has not
        refused to edit one of this game's."""
        return layout.SUPPORTED and not table.settings.classic_table and not self.healed

    def _is_layout(self, table: Table, message_id: int | None) -> bool:
        """Whether the message `message_id` (a table, an auction) is a layout: as this process posted it, else as
        it would be posted now (a restart; if that guess is wrong, Discord refuses the edit and a fresh table heals
        it)."""
        if message_id is None:
            return False
        return self.layouts.get(message_id, layout.SUPPORTED and not table.settings.classic_table)

    def _posted(self, kind: str, is_layout: bool, words: str | None = None) -> None:
        """Note what the new message of `kind` is (and the alt text of the board a table shows); forget what was
        noted of messages the game no longer follows."""
        message_id = self.book.message_id(kind) or 0
        self.layouts[message_id] = is_layout
        if words is not None:
            self.alts[message_id] = words
        followed = {row.message_id for row in self.book.messages.values()}
        for noted in (self.layouts, self.alts):
            for old in [m for m in noted if m not in followed]:
                del noted[old]

    async def post_table(self, table: Table) -> None:
        """A new table message showing the current version (the newest table is the live one)."""
        st = table.state
        live = st.phase != "over"
        waiting = texts.waiting_line(table)
        view = buttons.table_view(self.game, st, table.lang)
        file = await attachments.board_file(st, table.lang, **self._picture_extras(table))
        if self._layout(table):
            # The turn's ping first, as a message of its own (a mention in a layout notifies with an empty text),
            # so the table is the newest message of the channel.
            await self._ping(table)
            shown = layout.table(st, table.seats, self.turn_events, table.lang, live=live, game=self.game,
                                 alt=file.description or "", buttons=view, narration=self.narration,
                                 waiting=waiting)
            await self._post(table, "table", None, {"view": shown, "file": file,
                                                    "allowed_mentions": components.NO_MENTIONS},
                             self._live_table_edit)
            self._posted("table", True, file.description or "")
            return
        content, embed = embeds.table(st, table.seats, self.turn_events, table.lang, live=live,
                                      game=self.game, narration=self.narration, waiting=waiting)
        kwargs: dict[str, Any] = {"embed": embed, "file": file, "allowed_mentions": self._mentions(table)}
        if view is not None:
            kwargs["view"] = view
        await self._post(table, "table", content, kwargs, self._live_table_edit)
        self._posted("table", False)

    async def _ping(self, table: Table) -> None:
        """The turn's ping beside a layout table: a plain message that mentions the person the game waits for and
        says what for (nothing when it waits for a computer or for everyone); the game never waits on it."""
        line = layout.ping(table.state, table.seats, table.lang)
        if line is None:
            return
        key = nonce(self.game, "ping", table.state.version, None)
        try:
            await self.channel.send(lambda: adapter.send_message(self.client, table.where, {
                "content": line, "nonce": key, "allowed_mentions": self._mentions(table)}))
        except SEND_ERRORS as error:
            log.warning("game %d: the turn's ping could not be posted (%s)", self.game, _short(error))

    def _picture_extras(self, table: Table) -> dict[str, Any]:
        """What the board shows beside the state: this turn's events and the minutes left of the game."""
        extras: dict[str, Any] = {"table": self.game, "events": self.turn_events}
        ends_at = table.settings.ends_at
        if ends_at:
            extras["minutes_left"] = max(0, math.ceil((ends_at - time.time()) / self.config.minute))
        return extras

    async def _table_edit(self, table: Table, *, live: bool) -> dict[str, Any]:
        st = table.state
        if self._is_layout(table, self.book.message_id("table")):
            return await self._layout_edit(table, live=live)
        content, embed = embeds.table(st, table.seats, self.turn_events, table.lang, live=live, game=self.game,
                                      narration=self.narration, waiting=texts.waiting_line(table))
        view = buttons.table_view(self.game, st, table.lang) if live else None
        # The embed names `board.png`: the new picture below, or the one the message keeps.
        kwargs: dict[str, Any] = {"content": content, "embed": embed, "view": view,
                                  "allowed_mentions": components.NO_MENTIONS}
        if live or st.phase == "over":
            # An edit that leaves the picture as it is keeps the attachment the message already has.
            board = await attachments.board_if_changed(st, table.lang, **self._picture_extras(table))
            if board is not None:
                kwargs["attachments"] = [board]
        return kwargs

    async def _layout_edit(self, table: Table, *, live: bool, picture: bool = True) -> dict[str, Any]:
        """The edit of a layout table: never content or embeds (Discord refuses them with the flag), the board's
        alt text in its gallery; the new board only when it changed (`picture`: when it may)."""
        st = table.state
        board = None
        if picture and (live or st.phase == "over"):
            board = await attachments.board_if_changed(st, table.lang, **self._picture_extras(table))
        # The gallery's alt text is the board's it shows: the new one's, else the one the message keeps.
        message_id = self.book.message_id("table") or 0
        words = board.description if board is not None else self.alts.get(message_id)
        if words is None:
            words = alt.board(st, table.lang, self.turn_events)
        if message_id in self.layouts:
            self.alts[message_id] = words or ""
        view = buttons.table_view(self.game, st, table.lang) if live else None
        kwargs: dict[str, Any] = {
            "view": layout.table(st, table.seats, self.turn_events, table.lang, live=live, game=self.game,
                                 alt=words or "", buttons=view, narration=self.narration,
                                 waiting=texts.waiting_line(table)),
            "allowed_mentions": components.NO_MENTIONS}
        if board is not None:
            kwargs["attachments"] = [board]
        return kwargs

    async def _live_table_edit(self, table: Table) -> dict[str, Any]:
        return await self._table_edit(table, live=True)

    async def _closed(self, table: Table, kind: str, result: list[dict] | None = None) -> dict[str, Any]:
        """The edit that takes the buttons off a message of `kind` (a layout keeps its layout: one without
        components at all would be an empty message); for an auction, with its `result` if it has one."""
        if not self._is_layout(table, self.book.message_id(kind)):
            return {"view": None}
        if kind == "table":
            return await self._layout_edit(table, live=False, picture=False)
        if kind == "auction":
            st = table.state
            square = result[0]["square"] if result else self.auction_square
            words = alt.deed(st.edition, square, st, table.lang) if square is not None else ""
            return {"view": layout.auction_result(st, result or [], table.lang, game=self.game, alt=words),
                    "allowed_mentions": components.NO_MENTIONS}
        if kind == "offer":
            st = table.state
            shown = layout.offer(st, table.seats, table.lang, game=self.game, buttons=None) if st.trade is not None \
                else layout.offer_outcome(st, [], table.lang, game=self.game)
            return {"view": shown, "allowed_mentions": components.NO_MENTIONS}
        return {"view": None}

    async def _show_table(self, table: Table, answer: ClickAnswer | None, *, live: bool) -> None:
        """The table shows the current version; a table that cannot be edited is replaced by a fresh one, and a
        layout Discord refuses to edit by the classic embed table (`_heal`)."""
        if not self.book.editable("table"):
            if live:
                await self.post_table(table)
            return
        try:
            await self._edit(table, "table", await self._table_edit(table, live=live), answer)
        except Gone:
            if live:
                await self.post_table(table)
        except discord.HTTPException as error:
            if not await self._heal(table, error):
                raise
            await self.post_table(table)

    async def _heal(self, table: Table, error: discord.HTTPException) -> bool:
        """Whether `error` is Discord refusing to edit a layout table (a 400: it has been seen refusing an edit
        that shows a new attachment in a Media Gallery, discord-api-docs #7529). If so, this game's table goes on
        as the classic embed table in a new message (said once in the log); the refused table loses its buttons
        if Discord lets it, else they only answer "outdated"."""
        message_id = self.book.message_id("table")
        if error.status != 400 or not self._is_layout(table, message_id):
            return False
        if not self.healed:
            log.warning("game %d: Discord refused to edit the table as a layout (%s); the game goes on with the "
                        "classic embed table", self.game, _short(error))
        self.healed = True
        row = self.book.messages["table"]
        if message_id is not None:
            with contextlib.suppress(*PUBLISH_ERRORS):
                await adapter.edit_message(self.client, row.channel_id, message_id,
                                           await self._layout_edit(table, live=False, picture=False))
        return True

    async def _retire_table(self, table: Table, answer: ClickAnswer | None) -> None:
        """A new turn: the previous table keeps its account of the turn but loses its buttons. If that edit
        fails, its buttons only answer "outdated": the new table still goes up."""
        if self.book.message_id("table") is None:
            return
        try:
            await self._edit(table, "table", await self._table_edit(table, live=False), answer, record=False)
        except Gone:
            pass
        except Exception as error:
            refused = isinstance(error, discord.HTTPException) and error.status == 400 \
                and self._is_layout(table, self.book.message_id("table"))
            if not transient(error) and not refused:
                raise
            log.warning("game %d: the previous table keeps its buttons (%s)", self.game, _short(error))

    # -- the auction -------------------------------------------------------------------------------------
    async def _auction_message(self, table: Table, events: list[dict], answer: ClickAnswer | None) -> None:
        st = table.state
        ended = [e for e in events if e["code"] in ENDED_AUCTION]
        if "auction" in self.book.messages and (ended or st.auction is None):
            # The last result is this message's; a queued auction may already be open.
            edit: dict[str, Any] = {"view": None, "allowed_mentions": components.NO_MENTIONS}
            if self._is_layout(table, self.book.message_id("auction")):
                edit = await self._closed(table, "auction", ended[:1])
            elif ended:
                edit["content"] = None
                edit["embed"] = embeds.auction_result(st, ended[:1], table.lang, game=self.game)
            won = ended[0] if ended and ended[0]["code"] == "auction_won" else None
            if won is not None:
                # Its deed went out with the opening, as the bank's title for sale: now it names the winner (in
                # the layout's gallery as in the embed, which both show the attachment by its name).
                edit["attachments"] = [await attachments.deed_file(st.edition, won["square"], st, table.lang,
                                                                   table=self.game)]
            await self._close(table, "auction", edit, answer)
        if st.auction is None:
            return
        opened = any(e["code"] == "auction_opened" for e in events)
        if self.book.editable("auction") and not opened:
            try:
                await self._edit(table, "auction", await self._auction_edit(table), answer)
                return
            except Gone:
                pass
        await self._post_auction(table)

    async def _post_auction(self, table: Table) -> None:
        st = table.state
        assert st.auction is not None
        file = await attachments.deed_file(st.edition, st.auction.square, st, table.lang)
        self.auction_square = st.auction.square
        if self._layout(table):
            fields: dict[str, Any] = {"view": self._auction_layout(table), "file": file}
        else:
            fields = {"embed": embeds.auction(st, table.lang, self.config.auction_quiet, game=self.game,
                                              closes=texts.auction_clock(table)),
                      "file": file, "view": buttons.auction_view(self.game, st, table.lang)}
        await self._post(table, "auction", None, {**fields, "allowed_mentions": components.NO_MENTIONS},
                         self._auction_edit)
        self._posted("auction", "embed" not in fields)

    def _auction_layout(self, table: Table) -> layout.Layout:
        st = table.state
        assert st.auction is not None
        return layout.auction(st, table.lang, self.config.auction_quiet, game=self.game,
                              alt=alt.deed(st.edition, st.auction.square, st, table.lang),
                              buttons=buttons.auction_view(self.game, st, table.lang),
                              closes=texts.auction_clock(table))

    async def _auction_edit(self, table: Table) -> dict[str, Any]:
        st = table.state
        if self._is_layout(table, self.book.message_id("auction")):
            return {"view": self._auction_layout(table), "allowed_mentions": components.NO_MENTIONS}
        embed = embeds.auction(st, table.lang, self.config.auction_quiet, game=self.game,
                               closes=texts.auction_clock(table))
        return {"content": None, "embed": embed,
                "view": buttons.auction_view(self.game, st, table.lang), "allowed_mentions": components.NO_MENTIONS}

    # -- the trade offer ---------------------------------------------------------------------------------
    async def _trade_message(self, table: Table, events: list[dict], answer: ClickAnswer | None) -> None:
        st = table.state
        codes = {e["code"] for e in events}
        if "offer" in self.book.messages and (codes & set(ENDED_OFFER) or st.trade is None):
            outcome = [e for e in events if e["code"] in ENDED_OFFER]
            countered = "trade_rejected" in codes and "trade_proposed" in codes
            if self._is_layout(table, self.book.message_id("offer")):
                closing: dict[str, Any] = {
                    "view": layout.offer_outcome(st, outcome, table.lang, game=self.game, countered=countered)}
            else:
                closing = {"content": None, "view": None,
                           "embed": embeds.trade_outcome(st, outcome, table.lang, game=self.game, countered=countered)}
            await self._close(table, "offer", {**closing, "allowed_mentions": components.NO_MENTIONS}, answer)
        if st.trade is None:
            return
        if self.book.editable("offer") and "trade_proposed" not in codes:
            try:
                await self._edit(table, "offer", await self._offer_edit(table), answer)
                return
            except Gone:
                pass
        await self._post_offer(table)

    async def _post_offer(self, table: Table) -> None:
        st = table.state
        assert st.trade is not None
        target = embeds.answerer(st, table.seats)
        mentions = discord.AllowedMentions(everyone=False, roles=False,
                                           users=[discord.Object(target)] if target else False)
        if self._layout(table):
            # As for the table: the person who must answer is pinged by a plain message of its own, just before.
            line = layout.offer_ping(st, table.seats, table.lang)
            if line is not None:
                key = nonce(self.game, "offer-ping", st.version, None)
                try:
                    await self.channel.send(lambda: adapter.send_message(self.client, table.where, {
                        "content": line, "nonce": key, "allowed_mentions": mentions}))
                except SEND_ERRORS as error:
                    log.warning("game %d: the offer's ping could not be posted (%s)", self.game, _short(error))
            shown = layout.offer(st, table.seats, table.lang, game=self.game,
                                 buttons=buttons.trade_view(self.game, st, table.lang))
            await self._post(table, "offer", None, {"view": shown, "allowed_mentions": components.NO_MENTIONS},
                             self._offer_edit)
            self._posted("offer", True)
            return
        content, embed = embeds.trade(st, table.seats, table.lang, game=self.game)
        await self._post(table, "offer", content, {"embed": embed,
                                                   "view": buttons.trade_view(self.game, st, table.lang),
                                                   "allowed_mentions": mentions}, self._offer_edit)
        self._posted("offer", False)

    async def _offer_edit(self, table: Table) -> dict[str, Any]:
        st = table.state
        if self._is_layout(table, self.book.message_id("offer")):
            return {"view": layout.offer(st, table.seats, table.lang, game=self.game,
                                         buttons=buttons.trade_view(self.game, st, table.lang)),
                    "allowed_mentions": components.NO_MENTIONS}
        content, embed = embeds.trade(st, table.seats, table.lang, game=self.game)
        return {"content": content, "embed": embed, "view": buttons.trade_view(self.game, st, table.lang),
                "allowed_mentions": components.NO_MENTIONS}

    # -- the end -----------------------------------------------------------------------------------------
    async def _announce(self, table: Table, head: str, rows: list) -> None:
        """The final ranking with the end-of-game picture and what the game did to its people's ratings (written
        with the move that ended it), for a game won or ended by the host; with a Rematch and a Replay."""
        st, lang = table.state, table.lang
        fields: dict[str, Any] = {"allowed_mentions": components.NO_MENTIONS, "view": league.end_view(self.game, lang)}
        try:
            picture = await attachments.summary_file(self.storage, self.game, lang, st)
        except Exception:  # the standings matter more than the chart
            log.exception("game %d: the summary picture failed", self.game)
            picture = None
        if picture is not None:
            fields["file"] = picture
        try:
            changes = await self.storage.game_ratings(self.game)
        except StoreError as error:  # the standings matter more than the ratings, which the ranking shows anyway
            log.warning("game %d: its rating changes could not be read: %s", self.game, error.code)
            changes = []
        ratings = league.rating_lines(changes, st, lang)
        try:
            if layout.SUPPORTED and not table.settings.classic_table:
                # The picture at the message's full width, with its alt text; the Rematch click then builds the
                # whole message anew (`bot.handlers.lobby`): a layout's components are the message.
                fields["view"] = layout.end_of_game(st, head, rows, lang, game=self.game,
                                                    alt=picture.description or "" if picture is not None else None,
                                                    ratings=ratings, view=fields["view"])
            else:
                fields["embed"] = embeds.standings(st, head, rows, lang, picture=picture is not None,
                                                   game=self.game, ratings=ratings)
            await self.channel.send(lambda: adapter.send_message(self.client, table.where, fields))
        except Withheld as error:
            log.warning("game %d: could not announce the result: %s", self.game, error)
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError):
            log.exception("game %d: could not announce the result", self.game)

    # -- after a start, or a failure -----------------------------------------------------------------------
    async def _restore(self, table: Table, kind: str, wanted: bool, post: Callable[[Table], Awaitable[None]],
                       edit: Edit) -> None:
        st = table.state
        row = self.book.messages.get(kind)
        if not wanted:
            if row is not None:
                await self._close(table, kind, await self._closed(table, kind), None)
            return
        if row is None or not self.book.editable(kind):
            if row is not None and row.posting is not None:
                log.info("game %d: the %s message of version %d may not have gone out; sending it again",
                         self.game, kind, row.posting)
            await post(table)
        elif row.version != st.version:  # recorded after an edit went through: it shows that version
            try:
                await self._edit(table, kind, await edit(table), None)
            except Gone:
                await post(table)
            except discord.HTTPException as error:
                if kind != "table" or not await self._heal(table, error):
                    raise
                await post(table)

    # -- posting and editing, recorded in the store ----------------------------------------------------
    async def _post(self, table: Table, kind: str, content: str | None, fields: dict[str, Any], edit: Edit) -> None:
        """Post the message of `kind` for the current version: marked in the store first, recorded after.
        A post of an earlier version that may have gone out (a crash or a timeout cut it) is sent again with
        its own nonce, so Discord hands back that message if it exists; `edit` then brings it up to date."""
        st = table.state
        where = table.where
        old = self.book.messages.get(kind)
        replaces = old.message_id if old else None
        version = old.posting if old is not None and old.posting is not None else st.version
        self.book.in_doubt(kind, where, version)
        if not self.book.mark_taken(kind, version):
            await self._save(self.storage.intend_post, self.game, kind, where, version)
        key = nonce(self.game, kind, version, replaces)
        message_id = await self._retrying(
            lambda: self.channel.send(lambda: adapter.send_message(
                self.client, where, {**({} if content is None else {"content": content}), "nonce": key, **fields})),
            f"post the {kind}", files=_files(fields))
        self.book.posted(kind, where, message_id, version)
        await self._save(self.storage.posted, self.game, kind, where, message_id, version)
        if version != st.version:
            await self._edit(table, kind, await edit(table), None)

    async def _edit(self, table: Table, kind: str, fields: dict[str, Any], answer: ClickAnswer | None, *,
                    record: bool = True) -> None:
        """Edit the message of `kind` to show the current version (`record`: as its live message), as the answer
        to the click on it if there is one; raises `Gone` (logged, with the reason) if it was deleted or may not
        be edited."""
        row = self.book.messages[kind]
        message_id = row.message_id
        assert message_id is not None
        version = table.state.version

        def shown() -> None:  # now, or once a waiting edit went through, if the book still follows that message
            if record and self.book.message_id(kind) == message_id:
                self.book.shown(kind, version)

        try:
            if await self._answered_with(answer, message_id, fields):
                shown()
            else:
                # Within the channel's rate limit: an edit that must wait does so in the background, and a newer
                # one replaces it (`bot.face.edits`).
                await self._retrying(
                    lambda: self.channel.send(lambda: self.edits.edit(row.channel_id, message_id, fields, shown),
                                              edit=True),
                    f"edit the {kind}", files=_files(fields, "attachments"))
        except (discord.NotFound, discord.Forbidden) as error:
            why = "it was deleted" if isinstance(error, discord.NotFound) else "Discord refuses the edit"
            log.warning("game %d: the %s message %d cannot be edited (%s: %d %s); a new one replaces it",
                        self.game, kind, message_id, why, error.status, error.text or "")
            raise Gone from error
        except discord.HTTPException as error:
            if error.code != threads.OLD_MESSAGE_EDITS:
                raise
            # A correspondence table is older than an hour most of its life: a fresh message replaces it, and the
            # old one's buttons answer that the game moved on. (`bot.face.edits` never waits this one out.)
            log.warning("game %d: Discord refuses to edit the %s message %d, over an hour old (code 30046); a new "
                        "one replaces it", self.game, kind, message_id)
            raise Gone from error

    async def _answered_with(self, answer: ClickAnswer | None, message_id: int, fields: dict[str, Any]) -> bool:
        """Whether the edit of `message_id` went out as the answer to the click on it. If that answer fails,
        the edit is made the usual way (an answer that reached Discord only shows the same thing twice)."""
        if answer is None:
            return False
        if self.edits.busy(message_id):  # the answer would overtake an older edit that waits: it goes after it
            if answer.message_id == message_id:
                answer.defer()
            return False
        if not answer.take(message_id):
            return False
        try:
            await answer.update(fields)
            return True
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
            log.warning("game %d: a click could not be answered with its message's edit (%s)", self.game,
                        _short(error))
            for file in _files(fields, "attachments"):
                file.reset(seek=True)
            return False

    async def _close(self, table: Table, kind: str, fields: dict[str, Any], answer: ClickAnswer | None) -> None:
        """The decision of `kind` is over: its message loses its buttons and is no longer followed."""
        row = self.book.messages.get(kind)
        if row is not None and row.message_id is not None:
            try:
                await self._edit(table, kind, fields, answer, record=False)
            except Gone:
                pass
            except Exception as error:
                if not transient(error):
                    raise
                log.warning("game %d: the %s message that ended keeps its buttons (%s)", self.game, kind, error)
        self.book.dropped(kind)
        await self._save(self.storage.drop_message, self.game, kind)

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
                log.warning("game %d: could not %s (%s); trying again in %.1f s", self.game, what,
                            _short(error), delay)
                await asyncio.sleep(delay)
        raise AssertionError("unreachable")

    async def _save(self, write: Callable[..., Awaitable[object]], *args: Any) -> None:
        """Record a message in the store. A database that refuses the write does not stop the game: the
        message is up, and the next record of its kind (or a start-up that posts again) puts it right."""
        try:
            await write(*args)
        except StoreError as error:
            log.warning("game %d: could not record a message: %s", self.game, error.code)


def _files(fields: dict[str, Any], key: str = "file") -> list[discord.File]:
    value = fields.get(key)
    if isinstance(value, discord.File):
        return [value]
    return [f for f in value or [] if isinstance(f, discord.File)]


def _short(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or ''}".strip()
    if isinstance(error, Withheld):
        return str(error)
    return type(error).__name__ + (f": {error}" if str(error) else "")

"""The messages of a game that carry a decision: the table, an open auction, a pending trade offer.

A `Publisher` belongs to one `Session` and is only called with the session's lock held: it turns the
state and the events of an action into posts and edits of the game's messages in the session's channel.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from typing import Any, Protocol

import discord

from bot import images, ui, views
from bot.config import Config
from bot.i18n import t
from bot.store import GameRow, SeatRow, Store
from engine import State
from engine.narrate import describe

log = logging.getLogger("turista.game")


class _Host(Protocol):
    config: Config
    store: Store

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None) -> discord.PartialMessageable: ...


class Owner(Protocol):
    """What a publisher needs of its game's session (`bot.session.Session`)."""

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


class Publisher:
    def __init__(self, session: Owner) -> None:
        self.session = session
        self.turn_events: list[dict] = []  # what happened in the turn the table shows
        self.auction_message: int | None = None
        self.trade_message: int | None = None

    @property
    def gid(self) -> int:
        return self.session.gid

    @property
    def lang(self) -> str:
        return self.session.lang

    @property
    def channel(self) -> discord.PartialMessageable:
        return self.session.channel

    async def publish(self, events: list[dict]) -> None:
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
            await self._edit_table(live=False)
            for finished in turns[:-1]:
                content = views.table_content(st, self.session.seats, finished, self.lang, live=False)
                await self.channel.send(content, allowed_mentions=ui.NO_MENTIONS)
            self.turn_events = turns[-1]
            await self.post_table()
        else:
            await self._edit_table(live=st.phase != "over")
        if st.phase == "over":
            await self.session.announce_winner(st)

    def _mentions(self) -> discord.AllowedMentions:
        """Only the person the game waits for is pinged; names typed by players never ping anyone."""
        st = self.session.state
        users = [self.session.user_of(s) for s in (st.seat_to_act() if st else [])]
        return discord.AllowedMentions(everyone=False, roles=False,
                                       users=[discord.Object(u) for u in users if u][:1])

    async def post_table(self) -> None:
        session = self.session
        st = session.state
        assert st is not None
        content = views.table_content(st, session.seats, self.turn_events, self.lang, live=st.phase != "over")
        view = views.table_view(self.gid, st, self.lang)
        file = await images.board_file(st, self.lang, **self._picture_extras())
        kwargs: dict[str, Any] = {"file": file, "allowed_mentions": self._mentions()}
        if view is not None:
            kwargs["view"] = view
        message = await self.channel.send(content, **kwargs)
        session.row.table_message_id = message.id
        await asyncio.to_thread(session.bot.store.set_table_message, self.gid, message.id)

    def _picture_extras(self) -> dict[str, Any]:
        """What the board shows beside the state: this turn's events and the minutes left of the game."""
        extras: dict[str, Any] = {"table": self.gid, "events": self.turn_events}
        ends_at = self.session.row.settings.get("ends_at")
        if ends_at:
            minute = self.session.bot.config.minute
            extras["minutes_left"] = max(0, math.ceil((float(ends_at) - time.time()) / minute))
        return extras

    async def _edit_table(self, *, live: bool) -> None:
        session = self.session
        st = session.state
        if st is None or session.row.table_message_id is None:
            return
        content = views.table_content(st, session.seats, self.turn_events, self.lang, live=live)
        view = views.table_view(self.gid, st, self.lang) if live else None
        message = self.channel.get_partial_message(session.row.table_message_id)
        kwargs: dict[str, Any] = {"content": content, "view": view, "allowed_mentions": ui.NO_MENTIONS}
        if live or st.phase == "over":
            # An edit that leaves the picture as it is keeps the attachment the message already has.
            board = await images.board_if_changed(st, self.lang, **self._picture_extras())
            if board is not None:
                kwargs["attachments"] = [board]
        try:
            await message.edit(**kwargs)
        except discord.NotFound:
            # Someone deleted the table: put up a fresh one instead.
            if live:
                await self.post_table()

    async def _auction_message(self, events: list[dict]) -> None:
        st = self.session.state
        assert st is not None
        ended = [e for e in events if e["code"] in ("auction_won", "auction_unsold")]
        quiet = self.session.bot.config.auction_quiet
        if ended and self.auction_message is not None:
            # The last result is this message's; a queued auction may already be open.
            with contextlib.suppress(discord.NotFound):
                await self.channel.get_partial_message(self.auction_message).edit(
                    content=views.auction_content(st, self.lang, quiet, result=ended[:1]), view=None,
                    allowed_mentions=ui.NO_MENTIONS)
            self.auction_message = None
        if st.auction is None:
            return
        content = views.auction_content(st, self.lang, quiet)
        view = views.auction_view(self.gid, st, self.lang)
        opened = any(e["code"] == "auction_opened" for e in events)
        if self.auction_message is None or opened:
            file = await images.deed_file(st.edition, st.auction.square, st, self.lang)
            message = await self.channel.send(content, file=file, view=view, allowed_mentions=ui.NO_MENTIONS)
            self.auction_message = message.id
        else:
            try:
                await self.channel.get_partial_message(self.auction_message).edit(
                    content=content, view=view, allowed_mentions=ui.NO_MENTIONS)
            except discord.NotFound:
                self.auction_message = None
                await self._auction_message([])

    async def _trade_message(self, events: list[dict]) -> None:
        st = self.session.state
        assert st is not None
        codes = {e["code"] for e in events}
        if self.trade_message is not None and (codes & {"trade_done", "trade_rejected", "trade_cancelled"}
                                               or st.trade is None):
            outcome = [e for e in events if e["code"] in ("trade_done", "trade_rejected", "trade_cancelled")]
            content = "\n".join(describe(e, st, self.lang) for e in outcome) or t(self.lang, "trade.closed")
            with contextlib.suppress(discord.NotFound):
                await self.channel.get_partial_message(self.trade_message).edit(
                    content=content, view=None, allowed_mentions=ui.NO_MENTIONS)
            self.trade_message = None
        if st.trade is None:
            return
        content = views.trade_content(st, self.session.seats, self.lang)
        view = views.trade_view(self.gid, st, self.lang)
        target = self.session.user_of(st.trade.target)
        mentions = discord.AllowedMentions(everyone=False, roles=False,
                                           users=[discord.Object(target)] if target else False)
        if self.trade_message is None or "trade_proposed" in codes:
            message = await self.channel.send(content, view=view, allowed_mentions=mentions)
            self.trade_message = message.id
        else:
            with contextlib.suppress(discord.NotFound):
                await self.channel.get_partial_message(self.trade_message).edit(
                    content=content, view=view, allowed_mentions=ui.NO_MENTIONS)

    def adopt(self, kind: str, message: discord.Message | None) -> None:
        """After a restart the ids of the auction and trade messages are unknown until someone clicks one."""
        if message is None or message.flags.ephemeral:
            return
        if kind == "auction" and self.auction_message is None:
            self.auction_message = message.id
        elif kind == "trade" and self.trade_message is None:
            self.trade_message = message.id

    async def refresh(self) -> None:
        """Bring the table up to date after a start: a crash may have come between recording a move and
        showing it."""
        await self._edit_table(live=True)

    async def take_down(self) -> None:
        """The game stopped: no message keeps buttons."""
        for message_id in (self.session.row.table_message_id, self.auction_message, self.trade_message):
            if message_id is not None:
                with contextlib.suppress(discord.HTTPException):
                    await self.channel.get_partial_message(message_id).edit(view=None)

"""A thread per game (a house rule, on by default): the game is played in a thread started from its lobby
message, so a long game does not bury the channel; the lobby message stays in the channel and tells how the
game goes and, at the end, its result."""

from __future__ import annotations

import logging
from typing import Protocol

import aiohttp
import discord

from bot.face import buttons, components, embeds
from bot.face.i18n import t
from bot.store import GameRow, Store, StoreError
from bot.table.writing import Writer
from engine import State, edition_of
from engine.rules import standings

log = logging.getLogger("turista.game")
ARCHIVE_MINUTES = 10080  # a week: a game paused over a few days keeps its thread in the list


class Host(Protocol):
    """What this module needs of the Discord client (`bot.client.TuristaBot`)."""

    store: Store
    writes: Writer

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None) -> discord.PartialMessageable: ...


def wanted(row: GameRow) -> bool:
    return buttons.toggle_value(row.settings, None, "thread")


async def open_thread(bot: Host, row: GameRow, lobby_id: int, lang: str) -> tuple[int | None, str]:
    """Start the game's thread from the lobby message: its id (None when the game stays in the channel) and
    what the lobby says about it."""
    lobby = bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id).get_partial_message(lobby_id)
    try:
        thread = await lobby.create_thread(name=t(lang, "lobby.thread_name", number=row.id),
                                           auto_archive_duration=ARCHIVE_MINUTES)
    except (discord.HTTPException, ValueError) as error:
        log.warning("game %d: no thread, the game stays in channel %d: %s", row.id, row.channel_id, error)
        why = "lobby.no_thread_permission" if isinstance(error, discord.Forbidden) else "lobby.no_thread_error"
        return None, t(lang, "lobby.no_thread", why=t(lang, why))
    await bot.writes(bot.store.set_thread, row.id, thread.id)
    log.info("game %d: played in thread %d", row.id, thread.id)
    return thread.id, ""


def leader(st: State) -> tuple[str, str]:
    first = standings(st, edition_of(st))[0]
    return buttons.seat_label(st, first.seat), buttons.cash(st, first.net_worth)


def progress(row: GameRow, st: State, lang: str) -> str:
    """The lobby's line while the game is played."""
    name, worth = leader(st)
    if row.thread_id:
        return t(lang, "lobby.playing", thread=f"<#{row.thread_id}>", turn=st.turn, leader=name, worth=worth)
    return t(lang, "lobby.playing_here", turn=st.turn, leader=name, worth=worth)


def result(st: State, lang: str, ended_by: str = "") -> str:
    """The lobby's line once the game is over: its winner, or who ended it and who was ahead."""
    if ended_by or st.winner is None:
        name, worth = leader(st)
        return t(lang, "lobby.result_ended", who=ended_by, turn=st.turn, leader=name, worth=worth)
    return t(lang, "lobby.result", seat=buttons.seat_label(st, st.winner), turns=st.turn)


async def show_in_lobby(bot: Host, row: GameRow, lang: str, line: str) -> None:
    """Edit the lobby message in the channel to show `line` (the game's state or result). The game never
    waits on it: a lobby deleted or out of reach is only logged."""
    lobby = row.messages.get("lobby")
    if lobby is None or lobby.message_id is None:
        return
    message = bot.get_partial_messageable(lobby.channel_id, guild_id=row.guild_id).get_partial_message(
        lobby.message_id)
    try:
        await message.edit(content=None, embed=embeds.lobby(row, lang, closed=line), view=None,
                           allowed_mentions=components.NO_MENTIONS)
    except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
        log.warning("game %d: the lobby message could not show the game's state: %s", row.id, error)


async def remember_lobby(bot: Host, row: GameRow, lobby_id: int) -> None:
    """The lobby message outlives the lobby: its id is kept to show the game's state and result there."""
    try:
        await bot.writes(bot.store.posted, row.id, "lobby", row.channel_id, lobby_id, 0)
    except StoreError as error:
        log.warning("game %d: the lobby message's id was not kept: %s", row.id, error.code)

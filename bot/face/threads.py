"""A thread per game (a house rule, on by default): the game is played in a thread started from its lobby
message, so a long game does not bury the channel; the lobby message stays in the channel and tells how the
game goes and, at the end, its result."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.face import adapter, lobby_message
from bot.face.i18n import t
from bot.face.texts import cash, seat_label
from bot.store import GameRow, StoreError
from bot.table.face import Table
from bot.table.settings import TableSettings
from bot.table.storage import Storage
from engine import State, standings

log = logging.getLogger("turista.game")
ARCHIVE_MINUTES = 10080  # a week: a game paused over a few days keeps its thread in the list
# Discord's JSON code for an edit it refuses because the message is over an hour old and the channel has made
# too many such edits lately ("Try again later"): a lobby message is often that old.
OLD_MESSAGE_EDITS = 30046


async def open_thread(client: discord.Client, storage: Storage, row: GameRow, lobby_id: int,
                      lang: str) -> tuple[int | None, str]:
    """Start the game's thread from the lobby message: its id (None when the game stays in the channel) and
    what the lobby says about it. Either is kept with the game: the thread, or why there is none, which the
    lobby message then tells for the game's whole life (`progress`, `result`)."""
    lobby = client.get_partial_messageable(row.channel_id, guild_id=row.guild_id).get_partial_message(lobby_id)
    try:
        thread = await lobby.create_thread(name=t(lang, "lobby.thread_name", number=row.id),
                                           auto_archive_duration=ARCHIVE_MINUTES)
    except (discord.HTTPException, ValueError) as error:
        log.warning("game %d: no thread, the game stays in channel %d: %s", row.id, row.channel_id, error)
        why = "no_thread_permission" if isinstance(error, discord.Forbidden) else "no_thread_error"
        try:
            await storage.update_settings(row.id, TableSettings(row.settings).without_thread(why).values)
        except StoreError as stored:
            log.warning("game %d: why it has no thread was not kept: %s", row.id, stored.code)
        return None, why_not_here(lang, why)
    await storage.set_thread(row.id, thread.id)
    log.info("game %d: played in thread %d", row.id, thread.id)
    return thread.id, ""


def why_not_here(lang: str, why: str) -> str:
    """The lobby's line on why the game is played in the channel (`why`: `TableSettings.no_thread`)."""
    return t(lang, "lobby.no_thread", why=t(lang, f"lobby.{why}"))


def _with_why(table: Table, line: str) -> str:
    """`line`, and below it why the game is not in a thread of its own, if it could not have one."""
    why = table.settings.no_thread
    return f"{line}\n{why_not_here(table.lang, why)}" if why and table.thread_id is None else line


def leader(st: State) -> tuple[str, str]:
    first = standings(st)[0]
    return seat_label(st, first.seat), cash(st, first.net_worth)


def progress(table: Table) -> str:
    """The lobby's line while the game is played."""
    st, lang = table.state, table.lang
    name, worth = leader(st)
    if table.thread_id:
        return t(lang, "lobby.playing", thread=f"<#{table.thread_id}>", turn=st.turn, leader=name, worth=worth)
    return _with_why(table, t(lang, "lobby.playing_here", turn=st.turn, leader=name, worth=worth))


def result(table: Table, ended_by: str = "") -> str:
    """The lobby's line once the game is over: its winner, or who ended it and who was ahead."""
    st, lang = table.state, table.lang
    if ended_by or st.winner is None:
        name, worth = leader(st)
        return _with_why(table, t(lang, "lobby.result_ended", who=ended_by, turn=st.turn, leader=name, worth=worth))
    return _with_why(table, t(lang, "lobby.result", seat=seat_label(st, st.winner), turns=st.turn))


def lobby_fields(table: Table, line: str, *, as_layout: bool) -> dict[str, Any]:
    """The lobby message of a game in play, as a post or an edit: its seats and rules, and `line` (the game's
    state or result); a layout or the classic embed (`bot.face.lobby_message`)."""
    return lobby_message.fields(table.game, table.host_id, table.seats, table.settings, table.opened_with,
                                table.lang, as_layout=as_layout, closed=line)


async def show_in_lobby(client: discord.Client, table: Table, line: str) -> None:
    """Edit the lobby message in the channel to show `line` (the game's state or result), in one request: a
    refusal raises `bot.face.adapter.Refused` at once (Discord limits the edits of old messages, and a lobby
    message is often hours old), and no other request of the channel waits on it. A lobby posted as a layout
    stays one (`bot.face.lobby_message`)."""
    lobby = table.lobby
    if lobby is None or lobby.message_id is None:
        return
    as_layout = await lobby_message.is_layout(client, lobby.channel_id, lobby.message_id, table.settings)
    await adapter.edit_message_once(client, lobby.channel_id, lobby.message_id,
                                    lobby_fields(table, line, as_layout=as_layout))
    lobby_message.note(lobby.message_id, as_layout)


def age(message_id: int) -> float:
    """Seconds since the message was posted (from its id)."""
    return (discord.utils.utcnow() - discord.utils.snowflake_time(message_id)).total_seconds()


async def remember_lobby(storage: Storage, row: GameRow, lobby_id: int) -> None:
    """The lobby message outlives the lobby: its id is kept to show the game's state and result there."""
    try:
        await storage.posted(row.id, "lobby", row.channel_id, lobby_id, 0)
    except StoreError as error:
        log.warning("game %d: the lobby message's id was not kept: %s", row.id, error.code)

"""The pictures of the tables as the files Discord's messages carry (drawn by `bot.pictures`)."""

from __future__ import annotations

import io
from collections.abc import Iterable

import discord

from bot import pictures
from bot.face.embeds import BOARD, DEED, SUMMARY
from bot.table.storage import Storage
from engine import State


def _file(data: bytes, name: str) -> discord.File:
    return discord.File(io.BytesIO(data), filename=name)


async def board_file(state: State, lang: str, *, table: int = 0, events: Iterable[dict] = (),
                     absent: Iterable[int] = (), minutes_left: int | None = None) -> discord.File:
    return _file(await pictures.board(state, lang, table=table, events=events, absent=absent,
                                      minutes_left=minutes_left), BOARD)


async def board_if_changed(state: State, lang: str, *, table: int, events: Iterable[dict] = (),
                           absent: Iterable[int] = (), minutes_left: int | None = None) -> discord.File | None:
    """The board of `table` as a file, or None when the table already shows this very picture."""
    data = await pictures.board_if_changed(state, lang, table=table, events=events, absent=absent,
                                           minutes_left=minutes_left)
    return None if data is None else _file(data, BOARD)


async def deed_file(edition: str, square: int, state: State | None, lang: str, *, table: int = 0) -> discord.File:
    return _file(await pictures.deed(edition, square, state, lang, table=table), DEED)


async def summary_file(storage: Storage, game: int, lang: str) -> discord.File | None:
    """The end-of-game picture, replayed from the game's action log."""
    first = await storage.initial_state(game)
    if first is None:
        return None
    rows = await storage.log(game)
    actions = [action for row in rows if (action := row.decoded_action()) is not None]
    return _file(await pictures.summary(first, actions, lang, table=game), SUMMARY)

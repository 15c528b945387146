"""Pictures for the table, drawn by `render` in a worker thread so the event loop never waits on Pillow."""

from __future__ import annotations

import asyncio
import io

import discord

import render
from bot.store import Store
from engine import State


async def board_file(state: State, lang: str) -> discord.File:
    data = await asyncio.to_thread(render.board, state, lang)
    return discord.File(io.BytesIO(data), filename="board.png")


async def deed_file(edition: str, square: int, state: State | None, lang: str) -> discord.File:
    data = await asyncio.to_thread(render.deed, edition, square, state, lang)
    return discord.File(io.BytesIO(data), filename="deed.png")


async def warm_up(edition: str, lang: str) -> None:
    """Draw the printed board once, so the first table of a game comes as fast as the others."""
    await asyncio.to_thread(render.prepare, edition, lang)


def _summary_png(store: Store, game_id: int, lang: str) -> bytes | None:
    first = store.initial_state(game_id)
    if first is None:
        return None
    actions = [action for row in store.log(game_id) if (action := row.decoded_action()) is not None]
    return render.summary(render.history_from_log(first, actions), lang)


async def summary_file(store: Store, game_id: int, lang: str) -> discord.File | None:
    """The end-of-game picture, replayed from the action log."""
    data = await asyncio.to_thread(_summary_png, store, game_id, lang)
    return discord.File(io.BytesIO(data), filename="summary.png") if data else None

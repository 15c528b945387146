"""Pictures for the table, drawn by `render` in a worker thread so the event loop never waits on Pillow."""

from __future__ import annotations

import asyncio
import io

import discord

import render
from engine import State


async def board_file(state: State, lang: str) -> discord.File:
    data = await asyncio.to_thread(render.board, state, lang)
    return discord.File(io.BytesIO(data), filename="board.png")


async def deed_file(edition: str, square: int, state: State | None, lang: str) -> discord.File:
    data = await asyncio.to_thread(render.deed, edition, square, state, lang)
    return discord.File(io.BytesIO(data), filename="deed.png")

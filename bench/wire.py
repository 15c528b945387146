"""CPU time of a table message's request body: aiohttp's FormData (discord.py's way) against `bot.face.wire`.

    python bench/wire.py [--runs 7] [--messages 2000]

The message is a table of a game in play as the bot sends it: its embed, its buttons and its board picture
(drawn by `render`). Each way builds the body from the same `handle_message_parameters` and writes it to a
writer that only counts the bytes, as aiohttp does when it sends a request (the body, its headers and its
length). Prints one JSON line: the median over `--runs` passes (the two ways in turn) of the CPU time per
body in µs, and the body's size.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import aiohttp  # noqa: E402
import discord  # noqa: E402
from discord.http import handle_message_parameters  # noqa: E402

from bot.face import buttons, embeds, wire  # noqa: E402
from engine import apply_inplace, clone  # noqa: E402
from render import board  # noqa: E402
from render.sample import play, simple_choice  # noqa: E402


class CountingWriter:
    """What aiohttp's request writer offers a payload, keeping only the count of bytes."""

    def __init__(self) -> None:
        self.size = 0

    async def write(self, chunk: bytes | bytearray | memoryview) -> None:
        self.size += len(chunk)

    async def write_eof(self, chunk: bytes = b"") -> None:
        self.size += len(chunk)


def table_message() -> dict[str, Any]:
    """The fields of a mid-game table message (turn 60 of a sample game)."""
    first, steps = play("turismundo", seed=5, turns=60, choose=simple_choice)
    st = clone(first)
    for action, _ in steps:
        apply_inplace(st, action)
    content, embed = embeds.table(st, [], [], "es", live=True, game=1)
    picture = board(st, "es")
    return {"content": content, "embed": embed, "view": buttons.table_view(1, st, "es"),
            "file": discord.File(io.BytesIO(picture), filename="board.png"), "nonce": "turista-bench"}


async def form_data(fields: dict[str, Any]) -> int:
    with handle_message_parameters(**fields) as params:
        form = aiohttp.FormData(quote_fields=False)  # as discord.py's HTTPClient.request builds it
        for part in params.multipart or ():
            form.add_field(**part)
        payload = form()
        _ = payload.size, payload.headers
        writer = CountingWriter()
        await payload.write(writer)  # type: ignore[arg-type]
        fields["file"].reset()
        return writer.size


async def one_piece(fields: dict[str, Any]) -> int:
    with handle_message_parameters(**fields) as params:
        payload = wire.body(params)["data"]
        _ = payload.size, payload.headers
        writer = CountingWriter()
        await payload.write(writer)
        fields["file"].reset()
        return writer.size


async def main_async(args: argparse.Namespace) -> None:
    fields = table_message()
    ways = {"form_data_us": form_data, "bot_wire_us": one_piece}
    passes: dict[str, list[float]] = {name: [] for name in ways}
    size = 0
    for _ in range(args.runs):
        for name, way in ways.items():
            start = time.process_time()
            for _ in range(args.messages):
                size = await way(fields)
            passes[name].append(1e6 * (time.process_time() - start) / args.messages)
    result = {name: round(statistics.median(times), 1) for name, times in passes.items()}
    print(json.dumps({**result, "body_bytes": size, "runs": args.runs, "messages": args.messages}))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--messages", type=int, default=2000)
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()

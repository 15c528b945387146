"""The request bodies the game builds itself (`bot.face.wire`) read back as a server reads them."""

from __future__ import annotations

import io
import json
from typing import Any

import discord
from aiohttp import BodyPartReader, MultipartReader
from aiohttp.streams import StreamReader
from aiohttp.test_utils import make_mocked_request
from discord.http import handle_message_parameters

from bot.face import wire


async def read_back(body: Any) -> dict[str, tuple[str | None, str | None, bytes]]:
    """name -> (file name, content type, bytes) of a multipart body, as aiohttp's server side reads it."""
    stream = StreamReader(make_mocked_request("POST", "/").protocol, limit=2**16)
    stream.feed_data(await body.as_bytes())
    stream.feed_eof()
    reader = MultipartReader({"Content-Type": body.headers["Content-Type"]}, stream)
    parts: dict[str, tuple[str | None, str | None, bytes]] = {}
    while (part := await reader.next()) is not None:
        assert isinstance(part, BodyPartReader)
        parts[part.name or ""] = (part.filename, part.headers.get("Content-Type"), bytes(await part.read()))
    return parts


async def test_a_message_with_a_picture_is_the_multipart_discord_py_describes() -> None:
    picture = bytes(range(256)) * 40 + b"\r\n--boundary--\r\n" + bytes(range(256))  # any bytes at all
    embed = discord.Embed(title="Turno 4 · Ana", description="“Hoteles” \"y\" ñ").set_image(url="attachment://board.png")
    with handle_message_parameters(content="<@1>", embed=embed, nonce="abc",
                                   file=discord.File(io.BytesIO(picture), filename="board.png")) as params:
        parts = await read_back(wire.body(params)["data"])
    assert set(parts) == {"payload_json", "files[0]"}
    filename, content_type, data = parts["files[0]"]
    assert (filename, content_type, data) == ("board.png", "application/octet-stream", picture)
    assert parts["payload_json"][:2] == (None, "text/plain; charset=utf-8")  # as aiohttp's FormData sends it
    payload = json.loads(parts["payload_json"][2])
    assert payload["content"] == "<@1>" and payload["nonce"] == "abc"
    assert payload["embeds"][0]["description"] == "“Hoteles” \"y\" ñ"
    assert payload["attachments"] == [{"id": 0, "filename": "board.png"}]


async def test_a_message_without_files_is_plain_json() -> None:
    with handle_message_parameters(content="hola", nonce="n1") as params:
        body = wire.body(params)["data"]
    assert body.content_type == "application/json"
    assert json.loads(await body.as_bytes()) == params.payload


def test_a_name_cannot_break_out_of_its_header() -> None:
    body = wire.multipart([{"name": 'a"b\r\nX: y', "value": "v", "filename": 'f"\n.png'}])
    head = body._value.split(b"\r\n\r\n", 1)[0]
    assert [line.split(b":")[0] for line in head.split(b"\r\n")[1:]] == [b"Content-Disposition", b"Content-Type"]

"""The bodies of the game's own requests to Discord: a message with its pictures, built in one piece.

discord.py hands a message with files to aiohttp as a `FormData`, which builds the multipart body part by
part through a writer with header objects of its own. For a table with its board that is about 80 µs of the
event loop, against 25 µs for the same bytes joined at once, the message's parameters included (`python
bench/wire.py`); the game sends one or two such requests per click. So its posts, edits and click answers
build their bodies here, from the very parameters discord.py made (`bot.face.adapter`).
"""

from __future__ import annotations

import io
import os
from typing import Any, Protocol

import orjson
from aiohttp.payload import BytesPayload


class Parameters(Protocol):
    """A request's parameters as discord.py makes them (`discord.http.MultipartParameters`)."""

    payload: dict[str, Any] | None
    multipart: list[dict[str, Any]] | None
    files: Any


def _quoted(value: str) -> str:
    """A name or file name inside a Content-Disposition header, as browsers write it."""
    return value.replace("\\", "\\\\").replace('"', "%22").replace("\r", "%0D").replace("\n", "%0A")


def _bytes(value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, io.BytesIO):
        return value.getvalue()
    return value.read()


def multipart(parts: list[dict[str, Any]]) -> BytesPayload:
    """multipart/form-data of discord.py's parts (`name`, `value`, optional `filename` and `content_type`)."""
    boundary = os.urandom(16).hex()
    dash = f"--{boundary}".encode()
    chunks: list[bytes] = []
    for part in parts:
        head = f'Content-Disposition: form-data; name="{_quoted(part["name"])}"'
        if part.get("filename"):
            head += f'; filename="{_quoted(part["filename"])}"'
        # The part's type as aiohttp's FormData gives it: text for a string (the message's JSON), else as named.
        content_type = part.get("content_type") or ("text/plain; charset=utf-8" if isinstance(part["value"], str)
                                                    else None)
        if content_type:
            head += f"\r\nContent-Type: {content_type}"
        chunks += [dash, b"\r\n", head.encode(), b"\r\n\r\n", _bytes(part["value"]), b"\r\n"]
    chunks += [dash, b"--\r\n"]
    return BytesPayload(b"".join(chunks), content_type=f"multipart/form-data; boundary={boundary}")


def body(params: Parameters) -> dict[str, Any]:
    """The body of `params` as a keyword argument of `aiohttp.ClientSession.request` (and of discord.py's
    `HTTPClient.request`, which hands it on): JSON, or multipart/form-data when files go with it."""
    if params.files:
        assert params.multipart is not None
        return {"data": multipart(params.multipart)}
    return {"data": BytesPayload(orjson.dumps(params.payload), content_type="application/json")}

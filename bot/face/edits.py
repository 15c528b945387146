"""A game's message edits within Discord's rate limits, never shown stale.

Discord limits the edits of a channel's messages (a bucket of a few edits every few seconds, told in each answer's
`X-RateLimit-*` headers). discord.py's own way is to hold the request until the bucket resets and send it then,
in order: a table edited ten times in a burst would show ten states one after the other, seconds late, the game's
lock held meanwhile. A table only ever needs to show its newest state, so its edits go through here instead:

- an edit goes out at once when the channel's bucket has room, and once (`bot.face.adapter.edit_message_once`);
- when the bucket is spent (its headers said so) or Discord answers 429, the edit waits in the background for the
  reset, and the game goes on: nothing holds its lock;
- at most one edit of a message is under way; a newer edit of a message whose edit waits takes its place (the
  newest state wins, keeping what it leaves out, such as a new picture, from the one it replaces), so no stale
  edit ever follows it;
- the book learns which version a message shows only once Discord took the edit (`shown`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import discord

from bot.face import adapter
from bot.face.threads import OLD_MESSAGE_EDITS  # a 429 of its own, for an hour or more: the caller handles it

log = logging.getLogger("turista.game")

RETRY_DELAYS = (0.5, 1.0, 2.0, 4.0)  # seconds between tries of a post or an edit Discord failed to answer
Shown = Callable[[], None]


@dataclass
class Bucket:
    """A channel's edit bucket as Discord's last answer told it (loop time)."""

    remaining: int = 1
    resets: float = 0.0

    def spent(self, now: float) -> bool:
        return self.remaining <= 0 and now < self.resets

    def told(self, limit: adapter.Limit | None, now: float) -> None:
        if limit is not None:
            self.remaining, self.resets = limit.remaining, now + limit.reset_after

    def refused(self, retry_after: float, now: float) -> None:
        self.remaining, self.resets = 0, max(self.resets, now + retry_after)


@dataclass
class Waiting:
    """The edit of one message that waits for its channel's bucket (None while the one taken is under way)."""

    channel_id: int
    fields: dict[str, Any] | None
    shown: Shown
    sending: bool = False
    superseded: int = 0  # how many edits of this message were replaced by a newer one


@dataclass
class Edits:
    """The edits one game sends to its messages outside the answers to clicks, or the lobbies' edits (see the
    module's docstring)."""

    client: discord.Client
    what: str  # whose edits, for the log: "game 12", "the lobbies"
    forbidden: Callable[[], None] = lambda: None  # told when a waiting edit meets a 403 (the channel backs off)
    buckets: dict[int, Bucket] = field(default_factory=dict)  # channel -> its edit bucket
    waiting: dict[int, Waiting] = field(default_factory=dict)  # message -> its waiting edit
    throttled: int = 0  # edits that had to wait for a bucket
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    async def edit(self, channel_id: int, message_id: int, fields: dict[str, Any], shown: Shown) -> bool:
        """Edit the message now if its channel's bucket allows, else leave the edit waiting (in place of an older
        one that waits): whether it went through now. `shown` is called once Discord took it (now or later).
        Raises what the edit raises but a rate limit (`discord.Forbidden`, `discord.NotFound`, a server error)."""
        loop = asyncio.get_running_loop()
        bucket = self.buckets.setdefault(channel_id, Bucket())
        queued = self.waiting.get(message_id)
        if queued is not None:
            self._replace(queued, fields, shown)
            return False
        if bucket.spent(loop.time()):
            self._wait(channel_id, message_id, fields, shown)
            return False
        try:
            limit = await adapter.edit_message_once(self.client, channel_id, message_id, fields)
        except adapter.Refused as error:
            if error.status != 429 or error.code == OLD_MESSAGE_EDITS:
                raise
            bucket.refused(error.retry_after, loop.time())
            self._wait(channel_id, message_id, fields, shown)
            return False
        bucket.told(limit, loop.time())
        shown()
        return True

    def busy(self, message_id: int) -> bool:
        """Whether an edit of the message waits or is under way: a newer one must go after it, through `edit`."""
        return message_id in self.waiting

    def _replace(self, queued: Waiting, fields: dict[str, Any], shown: Shown) -> None:
        if queued.fields is not None:
            queued.superseded += 1
            # What the newer edit leaves out stays as the older one would have made it: a new picture when the
            # newer one keeps the message's (it is the older one's), the content when only the buttons go.
            fields = {**queued.fields, **fields}
        queued.fields, queued.shown = fields, shown

    def _wait(self, channel_id: int, message_id: int, fields: dict[str, Any], shown: Shown) -> None:
        self.throttled += 1
        self.waiting[message_id] = Waiting(channel_id, fields, shown)
        task = asyncio.create_task(self._send_later(message_id), name=f"turista-edit-{message_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _send_later(self, message_id: int) -> None:
        """Send the newest waiting edit of the message each time its channel's bucket has room, until none waits."""
        loop = asyncio.get_running_loop()
        queued = self.waiting[message_id]
        bucket = self.buckets[queued.channel_id]
        failures = 0
        try:
            while queued.fields is not None:
                wait = bucket.resets - loop.time() if bucket.spent(loop.time()) else 0.0
                if wait > 0:
                    await asyncio.sleep(wait)
                fields, shown = queued.fields, queued.shown
                queued.fields = None
                for file in _files(fields):
                    file.reset(seek=True)
                try:
                    limit = await adapter.edit_message_once(self.client, queued.channel_id, message_id, fields)
                except adapter.Refused as error:
                    if error.status == 429 and error.code != OLD_MESSAGE_EDITS:
                        bucket.refused(error.retry_after, loop.time())
                    elif error.status < 500 or failures >= len(RETRY_DELAYS):
                        raise
                    else:
                        bucket.refused(RETRY_DELAYS[failures], loop.time())
                        failures += 1
                    if queued.fields is None:  # nothing newer came meanwhile: this one goes again
                        queued.fields, queued.shown = fields, shown
                    continue
                bucket.told(limit, loop.time())
                failures = 0
                shown()
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError, OSError) as error:
            if isinstance(error, discord.Forbidden):
                self.forbidden()
            # The next edit of the message, sent at once, meets the same refusal and puts it right (a deleted
            # message is posted afresh, a channel that refuses is backed off).
            log.warning("%s: a waiting edit of message %d was refused (%s); the next one puts it right",
                        self.what, message_id, _short(error))
        finally:
            if queued.superseded:
                log.info("%s: message %d skipped %d outdated edit(s) while Discord throttled the channel",
                         self.what, message_id, queued.superseded)
            self.waiting.pop(message_id, None)

    async def close(self) -> None:
        """Let the waiting edits go out (the process stops)."""
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=10.0)


def _files(fields: dict[str, Any]) -> list[discord.File]:
    return [f for f in fields.get("attachments") or [] if isinstance(f, discord.File)]


def _short(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or ''}".strip()
    return type(error).__name__

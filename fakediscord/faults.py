"""Failures a test asks for on purpose: Discord errors on a route (429, 5xx, 403, 404…) and held requests.

Rules match a request by HTTP method and path. A path is either a route in Discord's own notation,
``/channels/{channel}/messages/{message}`` (placeholders match one path segment and may be pinned to a
value: ``channel=123``), or, for :meth:`FakeDiscord.fail_next`, any substring of the path.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
API = "/api/v10"
_PLACEHOLDER = re.compile(r"\{(\w+)\}")


@dataclass
class Route:
    """Which requests a rule applies to."""

    method: str
    path: str
    pinned: dict[str, str] = field(default_factory=dict)  # placeholder -> the only value it matches
    substring: bool = False  # `path` is any part of the request's path (the older fail_next)

    def __post_init__(self) -> None:
        self.method = self.method.upper()
        self.pinned = {name: str(value) for name, value in self.pinned.items()}
        unknown = set(self.pinned) - set(_PLACEHOLDER.findall(self.path))
        if unknown and not self.substring:
            raise ValueError(f"{sorted(unknown)} are not placeholders of {self.path!r}")
        if not self.substring:
            path = self.path.removeprefix(API)
            pattern = ""
            last = 0
            for found in _PLACEHOLDER.finditer(path):
                pattern += re.escape(path[last:found.start()]) + f"(?P<{found[1]}>[^/]+)"
                last = found.end()
            self._regex = re.compile(pattern + re.escape(path[last:]))

    def matches(self, request: web.Request) -> bool:
        if request.method != self.method:
            return False
        if self.substring:
            return self.path in request.path
        found = self._regex.fullmatch(request.path.removeprefix(API))
        return found is not None and all(found[name] == value for name, value in self.pinned.items())


@dataclass
class Fault:
    """Answer matching requests with an error: the next ``times`` of them, or all (``times=None``) until
    :meth:`clear`. A 429 carries ``retry_after`` as Discord sends it, so discord.py waits and retries."""

    route: Route
    status: int = 429
    code: int = 0
    message: str = ""
    retry_after: float = 0.05
    times: int | None = 1
    hits: int = 0  # requests answered with this error so far
    errors: dict[str, object] | None = None  # Discord's error tree of a 400 (50035), as its body carries it

    @property
    def active(self) -> bool:
        return self.times is None or self.times > 0

    def clear(self) -> None:
        """Stop failing: matching requests reach the fake's routes again."""
        self.times = 0

    def take(self) -> web.Response:
        self.hits += 1
        if self.times is not None:
            self.times -= 1
        body: dict[str, object] = {"message": self.message or f"{self.status}: injected by the test", "code": self.code}
        if self.errors is not None:
            body["errors"] = self.errors
        headers = {"Content-Type": "application/json"}
        if self.status == 429:
            # discord.py treats a 429 without Via (or without JSON) as a Cloudflare ban and gives up.
            body.update(
                message=self.message or "You are being rate limited.", retry_after=self.retry_after, **{"global": False}
            )
            headers.update({"Via": "1.1 google", "Retry-After": str(self.retry_after), "X-RateLimit-Scope": "user"})
        return web.Response(body=json.dumps(body).encode(), status=self.status, headers=headers)


@dataclass
class Hold:
    """Keep matching requests waiting: until :meth:`release`, or ``delay`` seconds each.

    ``when="before"``: the request waits before the fake applies it (nothing happened yet).
    ``when="after"``: the fake applies it (a message is posted, say), and its answer waits: the window
    between a change on Discord and the bot hearing of it. ``times`` limits how many requests are held.
    """

    route: Route
    when: Literal["before", "after"] = "before"
    delay: float | None = None
    times: int | None = None
    waiting: int = 0  # requests held right now
    held: int = 0  # requests held so far
    _released: asyncio.Event = field(default_factory=asyncio.Event)
    _changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def active(self) -> bool:
        return not self._released.is_set() and (self.times is None or self.held < self.times)

    def release(self) -> None:
        """Let every held request go on, and stop holding new ones."""
        self._released.set()

    clear = release

    async def reached(self, count: int = 1, timeout: float = 10.0) -> None:
        """Wait until ``count`` requests are held at the same time."""
        async with asyncio.timeout(timeout):
            while self.waiting < count:
                self._changed.clear()
                await self._changed.wait()

    async def hold(self) -> None:
        self.held += 1
        self.waiting += 1
        self._changed.set()
        try:
            if self.delay is not None:
                await asyncio.sleep(self.delay)
            else:
                await self._released.wait()
        finally:
            self.waiting -= 1
            self._changed.set()


class Faults:
    """The injected failures and holds, applied by an aiohttp middleware before any route runs."""

    def __init__(self) -> None:
        self.pending: list[Fault] = []
        self.holds: list[Hold] = []
        self.injected: list[tuple[str, str, int]] = []  # (method, path, status) of every injected error

    def clear(self) -> None:
        """Drop every rule and release every held request."""
        for fault in self.pending:
            fault.clear()
        for hold in self.holds:
            hold.release()
        self.pending.clear()
        self.holds.clear()

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        for fault in self.pending:
            if fault.active and fault.route.matches(request):
                self.injected.append((request.method, request.path, fault.status))
                return fault.take()
        hold = next((h for h in self.holds if h.active and h.route.matches(request)), None)
        if hold is None:
            return await handler(request)
        if hold.when == "before":
            await hold.hold()
            return await handler(request)
        response = await handler(request)
        await hold.hold()
        return response

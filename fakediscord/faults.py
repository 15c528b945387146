"""Failures a test asks for on purpose: 429 rate limits, 5xx outages, any Discord error on a route."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@dataclass
class Fault:
    """Answer the next ``times`` requests matching ``method`` and ``path_contains`` with an error."""

    method: str
    path_contains: str
    status: int = 429
    code: int = 0
    message: str = ""
    retry_after: float = 0.05
    times: int = 1

    def matches(self, request: web.Request) -> bool:
        return self.times > 0 and request.method == self.method.upper() and self.path_contains in request.path

    def response(self) -> web.Response:
        body: dict[str, object] = {"message": self.message or f"{self.status}: injected by the test", "code": self.code}
        headers = {"Content-Type": "application/json"}
        if self.status == 429:
            # discord.py treats a 429 without Via (or without JSON) as a Cloudflare ban and gives up.
            body.update(
                message=self.message or "You are being rate limited.", retry_after=self.retry_after, **{"global": False}
            )
            headers.update({"Via": "1.1 google", "Retry-After": str(self.retry_after), "X-RateLimit-Scope": "user"})
        return web.Response(body=json.dumps(body).encode(), status=self.status, headers=headers)


class Faults:
    """The queue of injected failures, applied by an aiohttp middleware before any route runs."""

    def __init__(self) -> None:
        self.pending: list[Fault] = []
        self.injected: list[tuple[str, str, int]] = []

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        for fault in self.pending:
            if fault.matches(request):
                fault.times -= 1
                self.injected.append((request.method, request.path, fault.status))
                return fault.response()
        return await handler(request)

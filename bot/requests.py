"""What Discord answered the bot's requests: how many it refused (4xx) and throttled (429), for `turista status`;
and the pace that keeps the bot under Discord's global limit.

Discord bans a bot's address for about an hour past 10,000 invalid requests (401, 403, and 429 but those of scope
`shared`) in 10 minutes; an admin wants to see how far the bot stays from that. The running client counts every
answer through aiohttp's request tracing (`discord.Client(http_trace=...)`, public API: it sees discord.py's own
retries, the answers to clicks and the game's edits alike), logs the counts with its status line and writes them
to a small file in its cache folder (`TURISTA_CACHE`), which `turista status` reads.

Discord allows a bot 50 requests a second in all, the interaction endpoints apart. discord.py waits for a route's
bucket when the headers say it is spent, but knows the global limit only from the 429 that says it was passed:
a busy bot (50 tables played at once) met it about 13 times a second, each one counting against the budget
above. So the same trace holds every request but the interaction endpoints' to `GLOBAL_PACE` in any second
(`GlobalPace`): the trace's start is awaited before the request goes out.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import aiohttp

WINDOW = 600.0  # Discord's window for invalid requests, seconds
BUDGET = 10_000  # invalid requests within WINDOW past which Cloudflare bans the bot
INVALID = frozenset({401, 403, 429})
FILE_PREFIX = "discord-requests"
GLOBAL_PACE = 40  # requests per second the bot sends at most: Discord allows 50, and the network bunches some
INTERACTION_ENDPOINTS = ("/interactions/", "/webhooks/")  # not bound by the global limit, as Discord's docs say


class GlobalPace:
    """At most `per_second` requests in any second (a sliding second: none of Discord's windows sees more)."""

    def __init__(self, per_second: int = GLOBAL_PACE) -> None:
        self.per_second = per_second
        self.waited = 0  # requests that had to wait for their turn
        self._sent: deque[float] = deque()

    async def turn(self) -> None:
        """Wait until a request may go out without passing the pace, and count it."""
        loop = asyncio.get_running_loop()
        waited = False
        while True:
            now = loop.time()
            while self._sent and now - self._sent[0] >= 1.0:
                self._sent.popleft()
            if len(self._sent) < self.per_second:
                self._sent.append(now)
                self.waited += waited
                return
            waited = True
            await asyncio.sleep(self._sent[0] + 1.0 - now)


def paced(url: Any) -> bool:
    """Whether a request to `url` counts against Discord's global limit: the API's, but the interaction endpoints."""
    path = str(getattr(url, "path", url))
    return "/api/" in path and not any(part in path for part in INTERACTION_ENDPOINTS)


@dataclass
class RequestCounts:
    """Discord's answers to this process, since it started and within the last `WINDOW` seconds."""

    started: float = field(default_factory=time.time)
    answered: int = 0
    refused: int = 0  # 4xx other than 429
    throttled: int = 0  # 429
    _recent: deque[tuple[float, int, bool]] = field(default_factory=deque)  # (when, status, invalid) of 4xx

    def note(self, status: int, scope: str = "", now: float | None = None) -> None:
        """One answer of Discord's (`scope`: a 429's `X-RateLimit-Scope`)."""
        now = time.time() if now is None else now
        self.answered += 1
        if status < 400 or status >= 500:
            return
        if status == 429:
            self.throttled += 1
        else:
            self.refused += 1
        self._recent.append((now, status, status in INVALID and scope != "shared"))

    def recent(self, now: float | None = None) -> dict[str, int]:
        """Within the last `WINDOW` seconds: refused, throttled, and invalid (what Discord's budget counts)."""
        now = time.time() if now is None else now
        while self._recent and now - self._recent[0][0] >= WINDOW:
            self._recent.popleft()
        return {"refused": sum(1 for _, s, _ in self._recent if s != 429),
                "throttled": sum(1 for _, s, _ in self._recent if s == 429),
                "invalid": sum(1 for _, _, bad in self._recent if bad)}

    def snapshot(self, now: float | None = None) -> dict[str, Any]:
        now = time.time() if now is None else now
        return {"written": now, "started": self.started, "answered": self.answered, "refused": self.refused,
                "throttled": self.throttled, "last_10_min": self.recent(now)}

    def trace(self, pace: GlobalPace | None = None) -> aiohttp.TraceConfig:
        """A trace for the client's HTTP session that counts every answer and, with `pace`, holds the requests that
        count against Discord's global limit to it."""
        config = aiohttp.TraceConfig()

        async def starting(session: aiohttp.ClientSession, context: SimpleNamespace,
                           params: aiohttp.TraceRequestStartParams) -> None:
            if pace is not None and paced(params.url):
                await pace.turn()

        async def ended(session: aiohttp.ClientSession, context: SimpleNamespace,
                        params: aiohttp.TraceRequestEndParams) -> None:
            response = params.response
            self.note(response.status, response.headers.get("X-RateLimit-Scope", ""))

        config.on_request_start.append(starting)
        config.on_request_end.append(ended)
        return config

    def write(self, folder: str | os.PathLike[str], name: str = "") -> None:
        """Write the counts where `turista status` finds them (replaced at once, never half-written)."""
        path = Path(folder) / f"{FILE_PREFIX}{'-' + name if name else ''}.json"
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(self.snapshot()), encoding="utf-8")
        temporary.replace(path)


def read(folder: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """The counts every bot process that shares `folder` wrote, oldest process first."""
    found = []
    for path in sorted(Path(folder).glob(f"{FILE_PREFIX}*.json")):
        try:
            found.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, ValueError):
            continue
    return sorted(found, key=lambda c: c.get("started", 0))


def line(counts: dict[str, Any]) -> str:
    """The counts as the status line tells them."""
    recent = counts["last_10_min"]
    return (f"Discord refused {recent['refused']} and throttled {recent['throttled']} request(s) in the last "
            f"10 min ({recent['invalid']} of the {BUDGET:,} invalid ones it allows); {counts['refused']} refused "
            f"and {counts['throttled']} throttled of {counts['answered']} since the start")

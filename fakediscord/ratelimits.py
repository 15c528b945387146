"""Discord's rate limits, as its docs describe them (the `Rate Limits` page of the developer docs):

- **per-route buckets**: each route (with its method) has a bucket, counted apart for each top-level resource in
  the path (the *major parameter*: a channel, a guild, a webhook with its token; an interaction with its token).
  Every answer carries the bucket's state in ``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``, ``-Reset-After``
  and ``-Bucket``; a request past the limit gets 429 with ``{"message", "retry_after", "global"}``, the
  ``Retry-After`` header and ``X-RateLimit-Scope: user``.
- **the global limit**: 50 requests a second for a bot, whatever the route, except the interaction endpoints
  (callbacks and the interaction webhooks), which the docs exempt. Past it, 429 with ``"global": true`` and
  ``X-RateLimit-Global``.
- **the invalid-request limit** behind Cloudflare's ban: 10,000 answers of 401, 403 or 429 (a 429 of scope
  ``shared`` excepted) within 10 minutes, and every request is refused for a while with Cloudflare's own 429: an
  HTML page, no JSON, no ``Via`` header (discord.py raises at once rather than retry it).

Discord publishes the global limit and the invalid-request budget; it does not publish the size of any route's
bucket ("should not be hard coded"). Those are settings (`RateLimits.routes`), with defaults that bots commonly
observe. The README of this package says which numbers are which.

Every answer the fake gives is also counted here (`RateLimiter.answers`), limits on or off, so that a test can
ask how many requests a route saw and how far the bot stays from the invalid-request budget.
"""

from __future__ import annotations

import hashlib
import json
import math
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace

from aiohttp import web

Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]
API = "/api/v10"
# The placeholders of the fake's routes that are top-level resources: Discord counts a bucket apart for each.
MAJOR = ("channel", "guild", "app", "interaction_id", "token")
# The routes Discord calls interaction endpoints: not bound by the global limit.
INTERACTION_ROUTES = ("/interactions/", "/webhooks/")
INVALID = frozenset({401, 403, 429})
VIA = "1.1 google"  # what Discord's answers carry; discord.py takes a 429 without it for Cloudflare's ban
CLOUDFLARE_BAN = (b"<!DOCTYPE html><html><head><title>Access denied | discord.com used Cloudflare to restrict "
                  b"access</title></head><body><h1>Error 1015</h1><p>You are being rate limited.</p></body></html>")


@dataclass(frozen=True)
class Bucket:
    """`limit` requests in each window of `per` seconds."""

    limit: int
    per: float


# Seen by bots on Discord (its headers tell them), not published: the sizes the fake gives each route's bucket.
OBSERVED: dict[str, Bucket] = {
    "POST /channels/{channel}/messages": Bucket(5, 5.0),
    "PATCH /channels/{channel}/messages/{message}": Bucket(5, 5.0),
    "DELETE /channels/{channel}/messages/{message}": Bucket(5, 1.0),
    "POST /channels/{channel}/messages/{message}/threads": Bucket(5, 5.0),
    "POST /channels/{channel}/typing": Bucket(5, 5.0),
    "GET /channels/{channel}/messages": Bucket(5, 1.0),
    "GET /channels/{channel}/messages/{message}": Bucket(5, 1.0),
    "POST /webhooks/{app}/{token}": Bucket(5, 2.0),
    "PATCH /webhooks/{app}/{token}/messages/{message}": Bucket(5, 2.0),
    "DELETE /webhooks/{app}/{token}/messages/{message}": Bucket(5, 2.0),
}


@dataclass(frozen=True)
class RateLimits:
    """The limits the fake holds a bot to: `FakeDiscord(rate_limits=RateLimits(...))`, or `rate_limits=None` for
    none (answers are still counted). `global_per_second` and the invalid-request budget are Discord's published
    numbers; `routes` (``"METHOD /route/{placeholder}"`` -> `Bucket`) and `default` (any other route) are not
    published and are what bots observe; `ban_seconds` is how long Cloudflare's ban lasts (not published: about
    an hour is what banned bots report)."""

    global_per_second: int = 50
    invalid_budget: int = 10_000
    invalid_window: float = 600.0
    ban_seconds: float = 3600.0
    routes: Mapping[str, Bucket] = field(default_factory=lambda: dict(OBSERVED))
    default: Bucket = field(default_factory=lambda: Bucket(50, 1.0))

    def on_clock(self, scale: float) -> RateLimits:
        """The same buckets, each window `scale` times as long: Discord's limits for a bot whose game runs on a
        clock `scale` times Discord's, as a test's does (its computer seats move at once, not every 1.5 s). Each
        bucket still fills, answers its headers and its 429s; the global limit and the invalid-request budget,
        which are per second of Discord's, stay as they are."""
        return replace(self, routes={route: Bucket(b.limit, b.per * scale) for route, b in self.routes.items()},
                       default=Bucket(self.default.limit, self.default.per * scale))


DEFAULT = RateLimits()  # what `FakeDiscord` holds a bot to unless told otherwise


@dataclass
class Window:
    """One bucket of one resource: how many requests its current window has taken, and when it ends."""

    bucket: Bucket
    used: int = 0
    resets: float = 0.0  # time.time() when the current window ends

    def take(self, now: float) -> bool:
        """Count a request now if the window has room; whether it had."""
        if now >= self.resets:
            self.used, self.resets = 0, now + self.bucket.per
        if self.used >= self.bucket.limit:
            return False
        self.used += 1
        return True


@dataclass(frozen=True)
class Answer:
    """One answer of the fake: when (`time.time()`), to what, with what status (``scope``: a 429's)."""

    at: float
    method: str
    path: str
    status: int
    scope: str = ""


def route_of(request: web.Request) -> tuple[str, tuple[str, ...]]:
    """The request's route in Discord's notation (``"PATCH /channels/{channel}/messages/{message}"``) and its
    major parameters' values."""
    info = request.match_info
    resource = info.route.resource
    canonical = resource.canonical if resource is not None else request.path
    if canonical.endswith("{tail}"):  # an endpoint the fake does not have: each path its own bucket
        return f"{request.method} {request.path.removeprefix(API)}", ()
    majors = tuple(info[name] for name in MAJOR if name in info)
    return f"{request.method} {canonical.removeprefix(API)}", majors


def _bucket_hash(route: str) -> str:
    # Discord's hash names the bucket without its major parameter; the same for every channel.
    return hashlib.blake2b(route.encode(), digest_size=8).hexdigest()


def _seconds(value: float) -> str:
    return f"{value:.3f}"


class RateLimiter:
    """Holds the bot to `limits` (None: counts only), as an aiohttp middleware that runs before every other."""

    def __init__(self, limits: RateLimits | None) -> None:
        self.limits = limits
        self.answers: deque[Answer] = deque(maxlen=500_000)  # every answer, oldest first
        self.statuses: Counter[int] = Counter()  # every answer's status, since the start
        self.throttled: list[Answer] = []  # the 429s this limiter sent (past a bucket or the global limit)
        self.banned_until = 0.0  # time.time() until which Cloudflare's ban holds
        self.bans = 0  # how many times the bot was banned
        self._windows: dict[tuple[str, tuple[str, ...]], Window] = {}
        self._global = Window(Bucket(limits.global_per_second if limits else 0, 1.0))
        self._invalid: deque[float] = deque()  # when each invalid answer of the current window was given

    # -- what a test asks --------------------------------------------------------------------------------------
    def invalid_requests(self, now: float | None = None) -> int:
        """How many invalid requests (401, 403, 429 not of scope ``shared``) count against the budget now."""
        self._forget_invalid(time.time() if now is None else now)
        return len(self._invalid)

    @property
    def banned(self) -> bool:
        """Whether Cloudflare's ban holds now."""
        return time.time() < self.banned_until

    def count(self, method: str | None = None, contains: str = "", *, status: int | None = None) -> int:
        """How many answers went to requests of `method` whose path contains `contains` (with `status`)."""
        return sum(1 for a in self.answers if (method is None or a.method == method) and contains in a.path
                   and (status is None or a.status == status))

    # -- the middleware ---------------------------------------------------------------------------------------
    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if not request.path.startswith(API):  # attachments and the gateway are Discord's CDN and gateway
            return await handler(request)
        now = time.time()
        limits = self.limits
        if limits is None:
            response = await handler(request)
            self._note(request, response, time.time(), refused=False)
            return response
        if now < self.banned_until:
            banned = web.Response(body=CLOUDFLARE_BAN, status=429, headers={"Content-Type": "text/html"})
            self._note(request, banned, now, refused=False)
            return banned
        route, majors = route_of(request)
        window = self._windows.get((route, majors))
        if window is None:
            window = self._windows[(route, majors)] = Window(limits.routes.get(route, limits.default))
        exempt = any(part in request.path for part in INTERACTION_ROUTES)
        if not exempt and not self._global.take(now):
            refusal = self._refusal(now, self._global, route, global_=True)
        elif not window.take(now):
            refusal = self._refusal(now, window, route)
        else:
            response = await handler(request)
            if "X-RateLimit-Bucket" not in response.headers:  # a refusal of its own (30046) may carry them
                self._headers(response, window, route, time.time())
            self._note(request, response, time.time(), refused=False)
            return response
        self._note(request, refusal, now, refused=True)
        return refusal

    def _refusal(self, now: float, window: Window, route: str, *, global_: bool = False) -> web.Response:
        retry_after = max(0.001, window.resets - now)
        body = {"message": "You are being rate limited.", "retry_after": round(retry_after, 3), "global": global_,
                "code": 0}
        headers = {"Content-Type": "application/json", "Via": VIA, "Retry-After": str(math.ceil(retry_after)),
                   "X-RateLimit-Scope": "global" if global_ else "user"}
        response = web.Response(body=json.dumps(body).encode(), status=429, headers=headers)
        if global_:
            response.headers["X-RateLimit-Global"] = "true"
        else:
            self._headers(response, window, route, now)
        return response

    @staticmethod
    def _headers(response: web.StreamResponse, window: Window, route: str, now: float) -> None:
        headers = response.headers
        headers["X-RateLimit-Limit"] = str(window.bucket.limit)
        headers["X-RateLimit-Remaining"] = str(max(0, window.bucket.limit - window.used))
        headers["X-RateLimit-Reset"] = _seconds(window.resets)
        headers["X-RateLimit-Reset-After"] = _seconds(max(0.0, window.resets - now))
        headers["X-RateLimit-Bucket"] = _bucket_hash(route)
        headers.setdefault("Via", VIA)

    def _note(self, request: web.Request, response: web.StreamResponse, now: float, *, refused: bool) -> None:
        status = response.status
        scope = response.headers.get("X-RateLimit-Scope", "") if status == 429 else ""
        answer = Answer(now, request.method, request.path, status, scope)
        self.answers.append(answer)
        self.statuses[status] += 1
        if refused:
            self.throttled.append(answer)
        if status in INVALID and scope != "shared":
            self._forget_invalid(now)
            self._invalid.append(now)
            limits = self.limits
            if limits is not None and len(self._invalid) >= limits.invalid_budget and now >= self.banned_until:
                self.banned_until = now + limits.ban_seconds
                self.bans += 1

    def _forget_invalid(self, now: float) -> None:
        window = self.limits.invalid_window if self.limits is not None else 600.0
        while self._invalid and now - self._invalid[0] >= window:
            self._invalid.popleft()


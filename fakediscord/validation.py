"""Every request body checked before its handler sees it: JSON that does not parse is Discord's 50109, a body
that breaks the spec's schema for its route (:mod:`fakediscord.spec`) is Discord's 400 "Invalid Form Body"
(50035) with the errors nested by field, and a body of a shape a handler did not expect is a 400 as well, never a
500 (discord.py retries a 500, so a bad body would look like a slow Discord).

Each refusal is in ``fake.errors`` (kind ``schema``, or ``bad_request``), so a test that sent one fails.
"""

from __future__ import annotations

import json
import logging
import time
from dataclasses import dataclass

from aiohttp import web

from . import limits
from .faults import Handler
from .rest import API, RestApi, read_body
from .spec import Spec

log = logging.getLogger(__name__)
_NO_BODY = ("GET", "HEAD", "DELETE", "OPTIONS")


@dataclass
class Checked:
    """What the check did: bodies validated, bodies refused, and the time the schema step took in all, on the
    clock and in CPU time of the fake's thread (what a busy machine does not inflate)."""

    bodies: int = 0
    refused: int = 0
    seconds: float = 0.0
    cpu_seconds: float = 0.0

    @property
    def per_request_ms(self) -> float:
        return 1000 * self.seconds / self.bodies if self.bodies else 0.0

    @property
    def cpu_per_request_ms(self) -> float:
        return 1000 * self.cpu_seconds / self.bodies if self.bodies else 0.0


class BodyValidation:
    """The middleware; ``spec`` is ``None`` where the spec is absent (then only the 400-not-500 part runs)."""

    def __init__(self, rest: RestApi, spec: Spec | None) -> None:
        self.rest = rest
        self.spec = spec
        self.checked = Checked()

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.method in _NO_BODY or not request.path.startswith(API):
            return await handler(request)
        try:
            # aiohttp keeps the bytes read, so the handler's own read_body costs only the parse again.
            body, _ = await read_body(request)
        except (ValueError, UnicodeDecodeError):
            return self.rest.fail(request, 400, 50109, "The request body contains invalid JSON.", "bad_request")
        if self.spec is not None:
            refusal = self._against_spec(request, body)
            if refusal is not None:
                return refusal
        try:
            return await handler(request)
        except (AttributeError, TypeError, KeyError, IndexError, ValueError) as error:
            # A value of the wrong shape that reached a handler: what the schema step refuses when it runs.
            problems: limits.Problems = [("", f"Invalid Form Body ({type(error).__name__}: {error})",
                                          "BASE_TYPE_INVALID")]
            return self.rest.fail(request, 400, 50035, "Invalid Form Body", "bad_request", problems,
                                  body=limits.error_body(problems))

    def _against_spec(self, request: web.Request, body: object) -> web.Response | None:
        assert self.spec is not None
        started, cpu = time.perf_counter(), time.thread_time()
        problems = self.spec.problems(request.method, request.path, body)
        self.checked.seconds += time.perf_counter() - started
        self.checked.cpu_seconds += time.thread_time() - cpu
        self.checked.bodies += 1
        if not problems:
            return None
        self.checked.refused += 1
        log.warning("fake discord refused by the spec: %s %s %s", request.method, request.path, _excerpt(body))
        response = self.rest.fail(request, 400, 50035, "Invalid Form Body", "schema", problems,
                                  body=limits.error_body(problems))
        raw = request.match_info.get("interaction_id", "")
        reply = self.rest.state.replies.get(int(raw)) if raw.isdigit() else None
        if reply is not None:
            reply.rejections.append(self.rest.state.errors[-1])
        return response


def _excerpt(body: object, size: int = 600) -> str:
    text = json.dumps(body, ensure_ascii=False, default=str)
    return text if len(text) <= size else text[:size] + "…"

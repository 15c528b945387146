"""Discord's limit on edits of old messages: past a budget of edits of messages older than an hour in a channel,
an edit is refused with 429 and JSON code 30046 ("Maximum number of edits to messages older than 1 hour
reached. Try again later."). Discord publishes neither the budget nor how long an edit counts against it; a test
sets both, and the age that makes a message old (`FakeDiscord.limit_old_edits`). A message's age is read from
its id (a snowflake holds the time it was made).
"""

from __future__ import annotations

import json
import time
from collections import deque
from dataclasses import dataclass, field

from aiohttp import web

from .snowflake import snowflake_time

CODE = 30046
MESSAGE = "Maximum number of edits to messages older than 1 hour reached. Try again later."


@dataclass
class OldEditLimit:
    """How many edits of old messages each channel may have: `budget` within any `window` seconds, a message
    counting as old from `older_than` seconds on. A refusal asks the client to wait `retry_after` seconds."""

    budget: int
    older_than: float = 3600.0
    window: float = 3600.0
    retry_after: float = 60.0
    made: dict[int, deque[float]] = field(default_factory=dict)  # channel -> when its old messages were edited
    refused: list[tuple[int, int]] = field(default_factory=list)  # (channel, message) of every edit refused

    def allows(self, channel_id: int, message_id: int, now: float | None = None) -> bool:
        """Whether an edit of message `message_id` in channel `channel_id` goes through now; an edit of an old
        message that does is counted against the channel's budget, one that does not is listed in `refused`."""
        now = time.time() if now is None else now
        if now - snowflake_time(message_id).timestamp() < self.older_than:
            return True
        edits = self.made.setdefault(channel_id, deque())
        while edits and now - edits[0] >= self.window:
            edits.popleft()
        if len(edits) >= self.budget:
            self.refused.append((channel_id, message_id))
            return False
        edits.append(now)
        return True

    def refusal(self) -> web.Response:
        """Discord's answer to an edit past the budget: a rate limit, with its own JSON code."""
        body = {"message": MESSAGE, "code": CODE, "retry_after": self.retry_after, "global": False}
        headers = {"Content-Type": "application/json", "Via": "1.1 google", "Retry-After": str(self.retry_after),
                   "X-RateLimit-Scope": "shared"}
        return web.Response(body=json.dumps(body).encode(), status=429, headers=headers)

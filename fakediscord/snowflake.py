"""Time-based snowflake ids, like Discord's, so ``created_at`` and rate-limit buckets look real."""

from __future__ import annotations

import itertools
import threading
import time
from datetime import UTC, datetime

DISCORD_EPOCH_MS = 1_420_070_400_000


class SnowflakeFactory:
    """Hands out unique, strictly increasing snowflakes whose timestamp part is the current time."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._last = 0
        self._increment = itertools.count()

    def next(self) -> int:
        """Return a new snowflake (an int; serialise it as a string on the wire)."""
        with self._lock:
            ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
            candidate = (ms << 22) | (1 << 17) | (next(self._increment) & 0xFFF)
            # Two ids in the same millisecond with a wrapped increment must still be ordered.
            self._last = max(candidate, self._last + 1)
            return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """A new snowflake that Discord's rule `(id >> 22) % shard_count` routes to `shard_id`: the next
        one, its timestamp moved at most `shard_count - 1` ms on."""
        with self._lock:
            ms = max(int(time.time() * 1000) - DISCORD_EPOCH_MS, (self._last >> 22) + 1)
            ms += (shard_id - ms) % shard_count
            self._last = (ms << 22) | (1 << 17) | (next(self._increment) & 0xFFF)
            return self._last


def snowflake_time(snowflake: int) -> datetime:
    """The creation time encoded in ``snowflake``."""
    return datetime.fromtimestamp(((snowflake >> 22) + DISCORD_EPOCH_MS) / 1000, tz=UTC)


def iso_now() -> str:
    """The current time as Discord writes timestamps (ISO 8601 with offset)."""
    return datetime.now(tz=UTC).isoformat()

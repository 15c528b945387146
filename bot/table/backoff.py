"""Waiting out a database that does not take writes for a while (locked by another process, disk full, an
I/O error): try again later, less and less often, and say in the log when it works again."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field

from bot.store import StoreError

FIRST = 0.5  # seconds before the first retry
LONGEST = 30.0  # never more than this between two tries
LOG_EVERY = 60.0  # while it lasts, one warning a minute is enough


def delay(failures: int, first: float = FIRST, longest: float = LONGEST) -> float:
    """The wait after `failures` failures in a row: `first`, twice that, four times… never more than `longest`."""
    return min(longest, first * 2 ** (max(1, failures) - 1))


def transient(error: StoreError) -> bool:
    """A failure of the database itself, which may heal (as opposed to "this game is over")."""
    return error.code.startswith("db_")


@dataclass
class Backoff:
    """The delays between tries of one piece of work (a computer's move, a timer): 0.5, 1, 2, 4 … 30 s."""

    what: str  # for the log: "game 12: computer players"
    log: logging.Logger
    failures: int = 0
    since: float = 0.0  # when the first failure of this streak happened
    _logged: float = field(default=-LOG_EVERY)

    def failed(self, error: StoreError) -> float:
        """Note a failure; the seconds to wait before the next try."""
        now = time.monotonic()
        if self.failures == 0:
            self.since = now
        self.failures += 1
        wait = delay(self.failures)
        if now - self._logged >= LOG_EVERY:
            self._logged = now
            self.log.warning("%s: the database does not take writes (%s, %s); trying again in %.1f s",
                             self.what, error.code, error.params.get("detail", ""), wait)
        return wait

    def succeeded(self) -> None:
        """Note a success; says in the log that the trouble is over, if there was any."""
        if self.failures:
            self.log.info("%s: the database takes writes again after %d failed attempt(s) over %.1f s; "
                          "going on", self.what, self.failures, time.monotonic() - self.since)
        self.failures = 0
        self._logged = -LOG_EVERY

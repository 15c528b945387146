"""A channel that keeps refusing the bot (403: its permissions were taken away mid-game) is left alone for a while.

Discord counts every 401, 403 and 429 it answers, and past 10,000 of them in 10 minutes Cloudflare bans the bot's
address from the whole API for about an hour: every game on every server stops. A game goes on in a channel that
refuses its messages (its computer players move, its clocks run, people may still click: the answer to a click is
not the channel's to refuse), and each move would send another refused request. So after a 403 the game's face
sends nothing to its channel for a while, twice as long after each refusal in a row (2 s, 4 s … a minute, as its
healing tries: `bot.table.session.HEAL_LONGEST`), and says so once a minute; the first request that goes through
ends it. What was not sent meanwhile is shown when the channel takes the bot's messages again (the session heals
its messages, `Session.heal_later`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TypeVar

import discord

from bot.table.backoff import LOG_EVERY, delay

log = logging.getLogger("turista.game")
T = TypeVar("T")

FIRST = 2.0  # seconds without a request to the channel after its first refusal
LONGEST = 60.0  # never longer than this: the table comes back within a minute of the fix


class Withheld(Exception):
    """A request to a channel that refuses the bot was not sent: the channel is backed off."""


@dataclass
class ChannelBackoff:
    """The refusals of one game's channel, and until when nothing more is sent to it (monotonic time)."""

    game: int
    refusals: int = 0  # 403s in a row
    until: float = 0.0
    withheld: int = 0  # requests not sent since the streak began
    _logged: float = field(default=-LOG_EVERY)

    async def send(self, call: Callable[[], Awaitable[T]], *, edit: bool = False) -> T:
        """`call` (a request to the channel), unless the channel is backed off (`Withheld`); a 403 backs it off.
        `edit`: an edit of one message, whose first 403 may be that message's alone (a fresh post replaces it, and
        tells whether the channel refuses)."""
        if self.refusals and time.monotonic() < self.until:
            self.withheld += 1
            raise Withheld(f"the channel refused the bot {self.refusals} time(s) in a row (403); nothing is sent "
                           f"to it for {self.until - time.monotonic():.0f} s more")
        try:
            result = await call()
        except discord.Forbidden:
            if not edit or self.refusals:
                self.refused()
            raise
        self.taken()
        return result

    def refused(self) -> None:
        """The channel answered 403."""
        now = time.monotonic()
        self.refusals += 1
        wait = delay(self.refusals, FIRST, LONGEST)
        self.until = now + wait
        if now - self._logged >= LOG_EVERY:
            self._logged = now
            log.warning("game %d: its channel refuses the bot's messages (403, %d time(s) in a row); nothing is "
                        "sent to it for %.0f s", self.game, self.refusals, wait)

    def taken(self) -> None:
        """A request to the channel went through: the streak is over."""
        if self.refusals:
            log.info("game %d: its channel takes the bot's messages again, after %d refusal(s) and %d request(s) "
                     "not sent", self.game, self.refusals, self.withheld)
        self.refusals = self.withheld = 0
        self._logged = -LOG_EVERY

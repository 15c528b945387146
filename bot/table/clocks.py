"""A game's named timers (a decision's clock, an auction's quiet period, the game's time limit).

A timer's work writes to the store before anything else; when the database refuses the write, the timer runs
again, later and later (`Backoff`), until it works.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.store import StoreError
from bot.table.backoff import Backoff, transient

log = logging.getLogger("turista.game")


class Clocks:
    def __init__(self, game: int) -> None:
        self.game = game
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.stopped = False  # no timer starts any more (the game ended, or the process stops)

    def __contains__(self, name: str) -> bool:
        return name in self.timers

    def arm(self, name: str, delay: float, callback: Callable[[], Awaitable[None]],
            retries: Backoff | None = None) -> None:
        """Run `callback` after `delay` seconds as timer `name`, replacing one of that name."""
        self.disarm(name)
        if self.stopped:
            return

        async def later() -> None:
            await asyncio.sleep(max(0.0, delay))
            self.timers.pop(name, None)
            backoff = retries or Backoff(f"game {self.game}: the {name} timer", log)
            try:
                await callback()
            except StoreError as error:
                if not transient(error):
                    log.warning("game %d: timer %s gave up: %s", self.game, name, error.code)
                    return
                self.arm(name, backoff.failed(error), callback, backoff)
                return
            except Exception:
                log.exception("game %d: timer %s failed", self.game, name)
                return
            backoff.succeeded()

        self.timers[name] = asyncio.create_task(later(), name=f"turista-{name}-{self.game}")

    def disarm(self, name: str) -> None:
        task = self.timers.pop(name, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def stop(self) -> None:
        """Cancel every timer; none starts again."""
        self.stopped = True
        for name in list(self.timers):
            self.disarm(name)

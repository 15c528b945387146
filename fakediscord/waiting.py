"""One "something changed" signal that every waiter re-checks its predicate on."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


class Notifier:
    """Wakes all waiters whenever the fake's state changes; predicates decide if they are done."""

    def __init__(self) -> None:
        self._event = asyncio.Event()

    def changed(self) -> None:
        """Wake every waiter; called after each mutation of the fake's state."""
        event, self._event = self._event, asyncio.Event()
        event.set()

    async def wait_for(self, predicate: Callable[[], T], timeout: float, what: str) -> T:
        """Return the first truthy value of ``predicate()``; ``TimeoutError`` naming ``what`` otherwise."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    # Take the event before checking, so a change between the two is not missed.
                    event = self._event
                    result = predicate()
                    if result:
                        return result
                    await event.wait()
        except TimeoutError:
            raise TimeoutError(f"timed out after {timeout} s waiting for {what}") from None

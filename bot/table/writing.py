"""Writes of the store, made by threads of their own, in the order they are asked.

A SQLite store has one writing connection, and its writes wait for each other there: handing each to the
default pool (`asyncio.to_thread`) buys no concurrency, only a dearer hand-over (a copy of the context, a
future of each kind chained to the other, a wake-up of whichever idle thread of the pool). Here a write is
put in a queue that one thread reads, and its result handed back to the event loop in one call: a move's
write then takes about a third less CPU than through the pool (`python bench/handover.py`). Every write of the
bot goes this way; a PostgreSQL store, whose pool takes writes side by side, gets a writer thread per
connection.

A write that waits for another process's lock waits in its writer thread; the reads an answer waits for
have threads of their own (`bot.table.reading`), and other work the default pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, ParamSpec, TypeVar

log = logging.getLogger(__name__)
P = ParamSpec("P")
T = TypeVar("T")

_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...], dict[str, Any]]


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # its caller gave up (cancelled): the write was made all the same
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class Writer:
    """`threads` threads that make the writes given to them (`await writer(func, *args)`), first asked, first
    made (with one thread, strictly in that order)."""

    def __init__(self, threads: int = 1, name: str = "turista-writer") -> None:
        self._jobs: queue.SimpleQueue[_Job | None] = queue.SimpleQueue()
        self._threads = [threading.Thread(target=self._serve, name=f"{name}-{k}", daemon=True)
                         for k in range(max(1, threads))]
        for thread in self._threads:
            thread.start()
        self.closed = False

    async def __call__(self, func: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
        """`func(*args, **kwargs)` in a writer thread: its result, or its exception."""
        if self.closed:  # no thread would ever make it
            raise RuntimeError("the store's writer is closed")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((loop, future, func, args, kwargs))
        return await future

    def _serve(self) -> None:
        while (job := self._jobs.get()) is not None:
            loop, future, func, args, kwargs = job
            result: Any = None
            error: BaseException | None = None
            try:
                result = func(*args, **kwargs)
            except BaseException as caught:  # the caller's to handle; the thread goes on with the next write
                error = caught
            # A loop that closed meanwhile has no one left to tell.
            with contextlib.suppress(RuntimeError):
                loop.call_soon_threadsafe(_settle, future, result, error)
            del job, future, func, args, kwargs, result, error  # nothing of a write outlives it here

    def close(self, timeout: float = 10.0) -> None:
        """Make the writes already asked, then end the threads (waiting up to `timeout` seconds for them)."""
        self.closed = True
        for _ in self._threads:
            self._jobs.put(None)
        for thread in self._threads:
            thread.join(timeout)
            if thread.is_alive():
                log.warning("%s: a write was still under way after %.0f s", thread.name, timeout)

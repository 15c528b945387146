"""The store as the event loop uses it: every write in the writer thread(s), every read in reader threads.

`Storage` wraps a `Store`: `await storage.apply(...)`, `await storage.game(gid)`. Which way a call goes is chosen
once, by the store's own list of the methods that write (`Store.WRITES`), never at a call site.

Writes. A SQLite store has one writing connection, and its writes wait for each other there: handing each to the
default pool (`asyncio.to_thread`) buys no concurrency, only a dearer hand-over (a copy of the context, a future of
each kind chained to the other, a wake-up of whichever idle thread of the pool). Here a write is put in a queue
that one thread reads, and its result handed back to the event loop in one call: a move's write then takes about
a third less CPU than through the pool (`python bench/handover.py`). A PostgreSQL store, whose pool takes writes
side by side, gets a writer thread per connection. A write that waits for another process's lock waits in its
writer thread.

Reads. A read queued behind writes waiting for a lock would wait as long, and the click or command it answers
with it: reads have threads of their own, where only other reads are ahead of them, and reads never wait for a
writer (WAL, and a connection per thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import queue
import threading
from collections.abc import Awaitable, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from bot.store import LeaseLost, Store

log = logging.getLogger(__name__)
READER_THREADS = 8
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


def _all(func: Callable[..., Any]) -> Callable[..., Any]:
    """`func`, with an iterator it returns read to its end in the thread (a store's cursor lives there)."""

    def call(*args: Any, **kwargs: Any) -> Any:
        result = func(*args, **kwargs)
        return list(result) if isinstance(result, Iterator) else result

    return call


class Storage:
    """A store's methods as coroutines: the writes through a `Writer`, the reads through reader threads."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self._writer = Writer(store.write_concurrency)
        self._readers = ThreadPoolExecutor(max_workers=READER_THREADS, thread_name_prefix="turista-reader")
        # Told of a write the database refused because another process took over the game's shard: what this
        # process still does for that shard's games stops there (`bot.table.sessions.Sessions.step_aside`).
        self.on_lease_lost: Callable[[LeaseLost], None] | None = None

    def __getattr__(self, name: str) -> Callable[..., Awaitable[Any]]:
        method = getattr(self.store, name)  # an AttributeError for a method the store does not have
        if name.startswith("_") or not callable(method):
            raise AttributeError(name)
        if name in Store.WRITES:
            return functools.partial(self._write, method)
        return functools.partial(self._read, _all(method))

    async def _write(self, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        try:
            return await self._writer(func, *args, **kwargs)
        except LeaseLost as error:
            if self.on_lease_lost is not None:
                self.on_lease_lost(error)
            raise

    async def _read(self, func: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._readers, functools.partial(func, *args,
                                                                                                   **kwargs))

    def close(self, timeout: float = 10.0) -> None:
        """Make the writes already asked, then end the threads."""
        self._writer.close(timeout)
        self._readers.shutdown(wait=False)

"""Reads of the store that an answer waits for, in threads of their own.

Store calls run in worker threads. Writes share one connection and wait for each other there, and each may
wait for another process's write lock up to the busy timeout; with the default pool's threads all waiting
to write, a read queued behind them would wait as long, and the click or command it answers with it. The
reads that come before an answer (is there a table in this channel? which game is this button's?) run
in this pool instead: only other reads are ahead of them, and reads never wait for a writer (WAL, and a
connection per thread).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

P = ParamSpec("P")
T = TypeVar("T")
READER_THREADS = 8

_readers = ThreadPoolExecutor(max_workers=READER_THREADS, thread_name_prefix="turista-reader")


async def read(func: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> T:
    """`func(*args, **kwargs)` (a read of the store) in a reader thread."""
    return await asyncio.get_running_loop().run_in_executor(_readers, functools.partial(func, *args, **kwargs))

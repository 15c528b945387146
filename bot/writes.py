"""The store's writes on a move's path, made from the event loop itself where they need not wait.

Handing a write to a thread and back costs the bot more CPU than the write itself (a hand-over of the GIL
and two switches of thread, each way, on a busy core): a move's write is ~0.05 ms of SQLite. So a write is
first tried at once (`Store.at_once`), which SQLite allows only while nothing could make it wait; otherwise
(another write in progress, another process's lock, synchronous FULL, PostgreSQL) it goes to a thread, as
every other store call does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, TypeVar

from bot.store import Store, WouldWait

T = TypeVar("T")


async def write(store: Store, method: Callable[..., T], *args: Any, **kwargs: Any) -> T:
    """`method(*args, **kwargs)`, a write of `store`: at once if it need not wait, else in a thread."""
    try:
        with store.at_once():
            return method(*args, **kwargs)
    except WouldWait:
        return await asyncio.to_thread(method, *args, **kwargs)

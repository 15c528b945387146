"""The store's writer threads (`bot.table.storage`): results, errors, order, a caller that gives up, closing."""

from __future__ import annotations

import asyncio
import threading

import pytest

from bot.store import StoreError
from bot.table.storage import Writer


def _refused() -> None:
    raise StoreError("db_full")


async def test_a_write_gives_its_result_or_its_error_and_runs_outside_the_event_loop() -> None:
    writer = Writer()
    try:
        assert await writer(lambda a, b=0: a + b, 2, b=3) == 5
        assert await writer(threading.current_thread) is not threading.current_thread()
        with pytest.raises(StoreError) as caught:
            await writer(_refused)
        assert caught.value.code == "db_full"
        assert await writer(lambda: "the thread goes on") == "the thread goes on"
    finally:
        writer.close()


async def test_one_writer_makes_the_writes_in_the_order_they_were_asked() -> None:
    writer = Writer()
    made: list[int] = []
    try:
        await asyncio.gather(*(writer(made.append, k) for k in range(200)))
    finally:
        writer.close()
    assert made == list(range(200))


async def test_a_caller_that_gives_up_leaves_the_write_to_be_made() -> None:
    writer = Writer()
    started, release = threading.Event(), threading.Event()
    made: list[str] = []

    def slow() -> None:
        started.set()
        release.wait(5)
        made.append("slow")

    try:
        waiting = asyncio.create_task(writer(slow))
        await asyncio.to_thread(started.wait, 5)
        waiting.cancel()
        with pytest.raises(asyncio.CancelledError):
            await waiting
        release.set()
        assert await writer(made.append, "next") is None
    finally:
        writer.close()
    assert made == ["slow", "next"]


async def test_closing_makes_the_writes_already_asked_first() -> None:
    writer = Writer(threads=2)
    made: list[int] = []
    pending = [asyncio.ensure_future(writer(made.append, k)) for k in range(50)]
    await asyncio.sleep(0)  # the writes are in the queue
    await asyncio.to_thread(writer.close)
    await asyncio.gather(*pending)
    assert sorted(made) == list(range(50))
    with pytest.raises(RuntimeError):
        await writer(made.append, 50)

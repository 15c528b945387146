"""Worker processes spoken to over a socket: answers in order, errors passed back, a killed worker replaced."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from bot.workers import Worker, WorkerStopped


async def test_a_worker_answers_each_call_and_passes_its_errors_back() -> None:
    worker = Worker("test-worker")
    worker.start()
    try:
        # The first calls arrive together, before the worker is connected: one connection serves them all.
        answers = await asyncio.gather(*(worker.call(pow, 2, k) for k in range(20)))
        assert answers == [2**k for k in range(20)]
        assert worker.starts == 1 and len([t for t in asyncio.all_tasks() if t.get_name().startswith("test-")]) == 1
        with pytest.raises(ValueError):
            await worker.call(int, "not a number")
        assert await worker.call(bytes, 300_000) == bytes(300_000)  # bigger than a socket's buffer
    finally:
        worker.stop()


async def test_a_killed_worker_fails_its_calls_and_the_next_call_starts_another() -> None:
    worker = Worker("test-worker")
    worker.start()
    try:
        assert await worker.call(abs, -1) == 1
        slow = asyncio.ensure_future(worker.call(time.sleep, 30))
        await asyncio.sleep(0.2)
        assert worker.process is not None
        os.kill(worker.process.pid, signal.SIGKILL)
        with pytest.raises(WorkerStopped):
            await asyncio.wait_for(slow, 10)
        assert await worker.call(abs, -2) == 2
        assert worker.starts == 2
    finally:
        worker.stop()


async def test_a_game_start_warms_up_the_worker_of_its_own_table() -> None:
    from bot.images import Pictures

    calls: list[tuple[int, str]] = []

    class Recorded(Pictures):
        async def _run(self, table, func, *args):  # type: ignore[no-untyped-def]
            calls.append((table, func.__name__))

    pool = Recorded(2)
    pool._workers = [Worker("a"), Worker("b")]  # never started: only where a call goes is looked at
    await pool.prepare("turismundo", "es", table=7)
    assert calls == [(7, "prepare")]


def test_a_table_is_busy_when_its_worker_has_a_queue_of_pictures() -> None:
    from bot.images import BUSY_BACKLOG, Pictures

    class Queue:
        def __init__(self, backlog: int) -> None:
            self.backlog = backlog

    pool = Pictures(2)
    assert not pool.busy(1)  # pictures drawn in a thread: nothing queues in a worker
    pool._workers = [Queue(0), Queue(BUSY_BACKLOG)]  # type: ignore[list-item]
    assert not pool.busy(4) and pool.busy(5)
    pool._workers[1].backlog -= 1  # type: ignore[attr-defined]
    assert not pool.busy(5)

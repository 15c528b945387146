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

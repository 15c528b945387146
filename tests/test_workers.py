"""Worker processes spoken to over a socket: answers in order, errors passed back, a killed worker replaced."""

from __future__ import annotations

import asyncio
import os
import signal
import time

import pytest

from bot.pictures.workers import Worker, WorkerStopped


async def test_a_worker_answers_each_call_and_passes_its_errors_back() -> None:
    worker = Worker("test-worker")
    worker.start()
    try:
        # The first calls arrive together, before the worker is connected: one connection serves them all.
        answers = await asyncio.gather(*(worker.call(pow, 2, k) for k in range(20)))
        assert answers == [2**k for k in range(20)]
        connection = worker._transport
        assert worker.starts == 1 and connection is not None
        with pytest.raises(ValueError):
            await worker.call(int, "not a number")
        assert await worker.call(bytes, 300_000) == bytes(300_000)  # bigger than a socket's buffer
        # Answers that arrive together, cut from the stream in order.
        sizes = [0, 1, 3, 4, 5, 70_000, 2, 300_000, 7]
        assert await asyncio.gather(*(worker.call(bytes, n) for n in sizes)) == [bytes(n) for n in sizes]
        assert worker._transport is connection
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
    from bot.pictures.pool import Pictures

    calls: list[tuple[int, str]] = []

    class Recorded(Pictures):
        async def _run(self, table, func, *args):  # type: ignore[no-untyped-def]
            calls.append((table, func.__name__))

    pool = Recorded(2)
    pool._workers = [Worker("a"), Worker("b")]  # never started: only where a call goes is looked at
    await pool.prepare("turismundo", "es", table=7)
    assert calls == [(7, "prepare")]


def test_a_table_is_busy_when_its_worker_has_a_queue_of_pictures() -> None:
    from bot.pictures.pool import BUSY_BACKLOG, Pictures

    class Queue:
        def __init__(self, backlog: int) -> None:
            self.backlog = backlog

    pool = Pictures(2)
    assert not pool.busy(1)  # pictures drawn in a thread: nothing queues in a worker
    pool._workers = [Queue(0), Queue(BUSY_BACKLOG)]  # type: ignore[list-item]
    assert not pool.busy(4) and pool.busy(5)
    pool._workers[1].backlog -= 1  # type: ignore[attr-defined]
    assert not pool.busy(5)


def test_answers_are_cut_from_the_stream_wherever_its_reads_end() -> None:
    import pickle
    import random

    from bot.pictures.workers import HEADER, _Answers

    class Taker:
        def __init__(self) -> None:
            self.frames: list[bytes] = []

        def _answered(self, frame: bytes) -> None:
            self.frames.append(frame)

    answers = [pickle.dumps((True, bytes([k]) * n)) for k, n in enumerate((0, 1, 5, 70_000, 3, 4))]
    stream = b"".join(HEADER.pack(len(a)) + a for a in answers)
    rnd = random.Random(3)
    for _ in range(50):
        taker = Taker()
        protocol = _Answers(taker)  # type: ignore[arg-type]
        cuts = sorted(rnd.sample(range(1, len(stream)), rnd.randint(1, 12)))
        for start, end in zip([0, *cuts], [*cuts, len(stream)], strict=True):
            protocol.data_received(stream[start:end])
        assert taker.frames == answers
    taker = Taker()
    protocol = _Answers(taker)  # type: ignore[arg-type]
    for k in range(45):  # a byte at a time: the first two answers, 22 and 23 bytes with their headers
        protocol.data_received(stream[k:k + 1])
    assert taker.frames == answers[:2]


async def test_a_request_waits_for_one_step_of_the_warm_up_not_all_of_it() -> None:
    # A warm-up of 30 steps of 0.2 s: a call made as the worker starts is answered before its end, at the bot's
    # priority meanwhile (a call that waited for the whole warm-up would find the worker behind the bot already);
    # once the warm-up is done, the worker steps behind the bot. No clock: the steps are what is counted.
    worker = Worker("test-worker", niceness=3, chores=map, chores_args=(time.sleep, [0.2] * 30))
    ours = os.getpriority(os.PRIO_PROCESS, 0)
    worker.start()
    try:
        assert await worker.call(os.getpriority, os.PRIO_PROCESS, 0) == ours, "the call waited for the warm-up"
        for _ in range(600):  # 6 s of warm-up, asked every 0.1 s: a minute at most, however busy the machine
            if (theirs := await worker.call(os.getpriority, os.PRIO_PROCESS, 0)) != ours:
                break
            await asyncio.sleep(0.1)
        assert theirs == ours + 3
    finally:
        worker.stop()


async def test_a_worker_ends_at_the_end_of_its_socket_even_in_the_middle_of_its_warm_up() -> None:
    # Where no parent-death signal exists, the end of the socket (its bot's end closed by the bot's death) ends
    # the worker between two steps of its warm-up: it never finishes a warm-up for nobody. The warm-up's steps are
    # slept, 20 s of them: a worker that ends within 15 s of the close, however busy the machine, did not finish it.
    worker = Worker("test-worker", chores=map, chores_args=(time.sleep, [0.2] * 100))
    worker.start()
    process, ours = worker.process, worker._socket
    assert process is not None and ours is not None
    await asyncio.sleep(1.0)
    ours.close()
    await asyncio.to_thread(process.join, 15.0)
    assert process.exitcode == 0
    worker._socket = None
    worker.stop()


async def test_a_replay_is_drawn_by_a_worker_of_its_own_that_tells_how_far_it_got() -> None:
    from bot.pictures.pool import Pictures
    from render.sample import play

    first, steps = play("mundial", seed=1, turns=12)
    actions = [action for action, _ in steps]
    pool = Pictures(0)
    pool.start()  # no worker for the boards; the replays' worker starts its process at the first replay
    try:
        assert pool._replayer is not None and pool._replayer.starts == 0
        seen: list[tuple[int, int]] = []
        also: list[tuple[int, int]] = []
        # The same replay asked twice at once is drawn once; both callers hear how far it got.
        one, two = await asyncio.gather(pool.replay(first, actions, "es", lambda *p: seen.append(p)),
                                        pool.replay(first, actions, "es", lambda *p: also.append(p)))
        assert one[:6] == b"GIF89a" and one is two
        assert pool._replayer.starts == 1
        assert seen and seen[-1][0] == seen[-1][1] > 2 and [d for d, _ in seen] == sorted(d for d, _ in seen)
        assert also[-1] == seen[-1]
        # Kept: asked again, it is not drawn again; another language is another replay.
        assert await pool.replay(first, actions, "es") is one
        english = await pool.replay(first, actions, "en")
        assert english != one and english[:6] == b"GIF89a"
    finally:
        pool.shutdown()


async def test_a_replay_in_a_thread_reports_its_progress_in_the_event_loop() -> None:
    from bot.pictures.pool import Pictures
    from render.sample import play

    first, steps = play("turismundo", seed=2, turns=6)
    loop = asyncio.get_running_loop()
    threads: list[bool] = []
    pool = Pictures(0)  # never started: the sandbox and unit tests draw in a thread
    gif = await pool.replay(first, [a for a, _ in steps], "es", lambda *p: threads.append(loop.is_running()))
    assert gif[:6] == b"GIF89a" and threads and all(threads)

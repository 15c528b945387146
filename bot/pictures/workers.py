"""Worker processes that run functions for the event loop, spoken to over a socket the loop reads itself.

`concurrent.futures.ProcessPoolExecutor` hands each call and each answer over through two threads of the
calling process (a queue feeder and a result manager); every picture then costs the bot several thread
switches and pipe wake-ups besides the pickling. Here the event loop writes a request straight into the
worker's socket and reads the answer from it: no thread in the bot, nothing that blocks the loop (asyncio
buffers what the socket cannot take yet).

- A request is `(function, args, reports)` pickled, an answer `(ok, result or exception)`; both framed by a
  4-byte length. A worker answers in the order it was asked, so answers are matched to callers first in, first
  out. A call made with `progress` (`reports`) gets the keyword argument `progress` in the worker: each
  `progress(*values)` there is sent as a frame `(None, values)` ahead of the answer, and handed to the caller's
  own `progress` (a long picture tells how far it got; the frames of one call come before the next call's).
- A worker that dies (killed, out of memory) fails the calls it had and is started again at the next call;
  the log says so. A caller that gives up (cancelled) leaves its answer unread by no one.
- Each worker starts with "spawn" (a clean interpreter, not a copy of a process with an event loop, sockets
  and threads) and runs its `initializer` before the first request. Its `chores` (a warm-up: a generator, each
  step a fraction of a second) run only while no request waits: a request waits at most for the step under
  way, never for the whole warm-up. Once they are done, the worker lowers its priority (`niceness`).
- A worker never outlives the bot, however the bot ends (`kill -9` included): on Linux the kernel ends it with
  its parent (`PR_SET_PDEATHSIG`); elsewhere it ends at the end of its socket, which it looks at between two
  steps of its chores. Either way it leaves nothing in the log, and a bot started again never shares the
  machine with the warm-up of the run before.
"""

from __future__ import annotations

import asyncio
import contextlib
import ctypes
import logging
import multiprocessing
import os
import pickle
import select
import signal
import socket
import struct
import sys
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from typing import Any

log = logging.getLogger(__name__)

HEADER = struct.Struct("!I")
PR_SET_PDEATHSIG = 1  # prctl(2)
_DONE = object()


# -- inside the worker --------------------------------------------------------------------------------------
def _receive(sock: socket.socket, size: int) -> bytes | None:
    chunks, left = [], size
    while left:
        chunk = sock.recv(min(left, 1 << 20))
        if not chunk:
            return None
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)


def _die_with(parent: int) -> None:
    """End this process when `parent` ends: Linux sends the signal however the parent ends; if the parent is
    already gone (it died while this process started), end now."""
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(0)


def _lower_priority(niceness: int) -> None:
    with contextlib.suppress(OSError):
        os.nice(niceness)


def _asked(sock: socket.socket) -> bool:
    """Whether a request (or the end of the stream) is waiting to be read."""
    return bool(select.select([sock], [], [], 0)[0])


def _serve(sock: socket.socket, parent: int, niceness: int, initializer: Callable[..., None] | None,
           initargs: tuple, chores: Callable[..., Iterable[object]] | None, chores_args: tuple) -> None:
    """The worker's life: die with the bot, start, then answer requests until the bot closes the socket, doing its
    chores while nothing is asked, and lowering its priority once they are done."""
    _die_with(parent)
    # Ctrl+C in a terminal reaches every process of the group: the bot stops its workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if initializer is not None:
        initializer(*initargs)
    # The chores run at the bot's own priority: while the bot starts up, they are all there is to do, and a
    # game started the moment the bot is back waits for them. After them, the worker steps behind the bot.
    todo: Iterator[object] | None = iter(chores(*chores_args)) if chores is not None else None
    if todo is None:
        _lower_priority(niceness)
    while True:
        if todo is not None and not _asked(sock):
            if next(todo, _DONE) is _DONE:
                todo = None
                _lower_priority(niceness)
            continue
        try:
            header = _receive(sock, HEADER.size)
            request = None if header is None else _receive(sock, HEADER.unpack(header)[0])
        except OSError:  # the bot is gone, its end of the socket with it
            break
        if request is None:
            break
        try:
            func, args, reports = pickle.loads(request)
            result = func(*args, progress=_reporter(sock)) if reports else func(*args)
            answer = pickle.dumps((True, result), pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # the caller gets the error; the worker goes on
            answer = pickle.dumps((False, error), pickle.HIGHEST_PROTOCOL)
        try:
            sock.sendall(HEADER.pack(len(answer)) + answer)
        except OSError:  # nobody is left to read the answer
            break
    sock.close()


def _reporter(sock: socket.socket) -> Callable[..., None]:
    """What a call made with `progress` gets as its `progress`: each call sends its values to the caller."""

    def progress(*values: Any) -> None:
        frame = pickle.dumps((None, values), pickle.HIGHEST_PROTOCOL)
        sock.sendall(HEADER.pack(len(frame)) + frame)

    return progress


# -- in the event loop's process ------------------------------------------------------------------------------
class WorkerStopped(RuntimeError):
    """The worker process ended before answering."""


class _Answers(asyncio.Protocol):
    """The loop's end of a worker's socket: answers are cut from the stream as they arrive (a picture comes in
    one or two reads) and handed to their callers, with no stream reader and its copies in between."""

    def __init__(self, worker: Worker) -> None:
        self.worker = worker
        self.transport: asyncio.Transport | None = None
        self._chunks: list[bytes] = []
        self._have = 0
        self._need = HEADER.size
        self._header = True

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        self._chunks.append(data)
        self._have += len(data)
        while self._have >= self._need:
            joined = b"".join(self._chunks) if len(self._chunks) > 1 else self._chunks[0]
            frame, rest = joined[: self._need], joined[self._need:]
            self._chunks, self._have = ([rest] if rest else []), len(rest)
            if self._header:
                self._need, self._header = HEADER.unpack(frame)[0], False
            else:
                self._need, self._header = HEADER.size, True
                self.worker._answered(frame)

    def connection_lost(self, exc: Exception | None) -> None:
        assert self.transport is not None
        self.worker._lost(self.transport)


class Worker:
    """One worker process and the calls it has not answered yet."""

    def __init__(self, name: str, *, niceness: int = 0, initializer: Callable[..., None] | None = None,
                 initargs: tuple = (), chores: Callable[..., Iterable[object]] | None = None,
                 chores_args: tuple = ()) -> None:
        self.name = name
        self.niceness, self.initializer, self.initargs = niceness, initializer, initargs
        self.chores, self.chores_args = chores, chores_args
        self.process: multiprocessing.process.BaseProcess | None = None
        self._socket: socket.socket | None = None
        self._transport: asyncio.Transport | None = None
        # The calls not answered yet, in the order they were asked, each with its `progress` (or None).
        self._waiting: deque[tuple[asyncio.Future[Any], Callable[..., None] | None]] = deque()
        self._connecting = asyncio.Lock()  # the first calls arrive together: one of them connects
        self.starts = 0

    def start(self) -> None:
        """Start the process now (it warms up while the bot does other things)."""
        ours, theirs = socket.socketpair()
        context = multiprocessing.get_context("spawn")
        process = context.Process(target=_serve, name=self.name, daemon=True,
                                  args=(theirs, os.getpid(), self.niceness, self.initializer, self.initargs,
                                        self.chores, self.chores_args))
        process.start()
        theirs.close()  # the worker holds its end: its exit is then the end of our stream
        self.process, self._socket = process, ours
        self.starts += 1

    async def _connect(self) -> asyncio.Transport:
        async with self._connecting:
            if self._transport is not None:
                return self._transport
            if self._socket is None:
                log.warning("%s: starting it again", self.name)
                self.start()
            sock, self._socket = self._socket, None
            assert sock is not None
            transport, _ = await asyncio.get_running_loop().create_unix_connection(lambda: _Answers(self), sock=sock)
            self._transport = transport
            return transport

    def _answered(self, answer: bytes) -> None:
        ok, value = pickle.loads(answer)
        if ok is None:  # how far the oldest call got: its answer is still to come
            progress = self._waiting[0][1] if self._waiting else None
            if progress is not None and not self._waiting[0][0].done():
                try:
                    progress(*value)
                except Exception:  # a caller's report must not cut the stream of every other answer
                    log.exception("%s: a progress report failed", self.name)
            return
        future = self._waiting.popleft()[0] if self._waiting else None
        if future is None or future.done():  # its caller gave up
            return
        if ok:
            future.set_result(value)
        else:
            future.set_exception(value)

    def _lost(self, transport: asyncio.Transport) -> None:
        """The stream ended: fail what was asked, so the next call starts a new process."""
        if self._transport is transport:
            self._transport = None
            if self.process is not None and self.process.exitcode is None and not transport.is_closing():
                log.warning("%s: the connection ended; stopping the process", self.name)
            if self._waiting:
                log.error("%s: the process ended with %d call(s) unanswered (exit code %s)", self.name,
                          len(self._waiting), self.process.exitcode if self.process else None)
            self._stop_process(wait=0.0)
        transport.close()
        while self._waiting:
            future = self._waiting.popleft()[0]
            if not future.done():
                future.set_exception(WorkerStopped(f"{self.name} stopped"))

    @property
    def backlog(self) -> int:
        """Calls asked and not answered yet."""
        return len(self._waiting)

    async def call(self, func: Callable[..., Any], *args: Any, progress: Callable[..., None] | None = None) -> Any:
        """`func(*args)` in the worker (both must pickle); its answer or its exception. With `progress`, the
        worker calls `func(*args, progress=...)`, and what it reports there is handed to `progress` here, in
        the event loop, as it comes."""
        transport = await self._connect()
        request = pickle.dumps((func, args, progress is not None), pickle.HIGHEST_PROTOCOL)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._waiting.append((future, progress))
        transport.write(HEADER.pack(len(request)) + request)
        return await future

    def _stop_process(self, wait: float) -> None:
        process, self.process = self.process, None
        if process is None:
            return
        process.join(wait)
        if process.exitcode is None:
            process.terminate()
            process.join(1.0)
        process.close()

    def stop(self) -> None:
        """End the process (it exits at the end of its stream, or is terminated a moment later)."""
        transport, self._transport = self._transport, None
        if transport is not None:
            transport.close()
        if self._socket is not None:
            self._socket.close()
            self._socket = None
        self._stop_process(wait=0.5)
        while self._waiting:
            future = self._waiting.popleft()[0]
            if not future.done():
                future.set_exception(WorkerStopped(f"{self.name} stopped"))

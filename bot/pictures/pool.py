"""Pictures for the table, drawn by `render` in worker processes: never on the event loop, on every core.

- A pool of worker processes (one per core the bot may use; `TURISTA_RENDER_WORKERS` sets another number,
  0 draws in a thread of the bot) draws boards, deeds and summaries. Workers run at a slightly lower priority than the
  bot, and each warms up as it starts (every edition and language drawn once, `drawing.warming`), a step at a time
  between requests: a game's first picture never waits for the whole warm-up. What the warm-up learns (the
  palettes) is kept in the bot's cache folder (`TURISTA_CACHE`, `bot.pictures.kept`), so that a restart's warm-up
  takes a fraction of the first one's; a start that finds nothing kept has its workers learn the palettes, a
  share each, before the bot connects (`ready`). A click on a table is answered with its new board, or deferred at once
  when the table's worker has a queue (`busy`).
- Each table's pictures go to the same worker: the pieces and compressed rows that worker kept from the
  table's last board make its next one cheap. One table's slow picture delays at most that worker's queue,
  never the event loop nor another worker.
- A board is drawn once per thing it shows: the last boards are kept by a key of the state, the language
  and what the bot adds (events, absent seats, clock), so a table edited twice for one state sends the same
  bytes without drawing, and `board_if_changed` tells the caller to keep the attachment it already has.
- A game's replay costs a second or two of a core, hundreds of boards: it is drawn by a worker of its own,
  started at the first replay, at the lowest priority (`REPLAY_NICENESS`). A table's board never queues behind
  a replay, and a replay only gets the CPU the tables leave (`python bench/replay_load.py`). Replays asked
  together are drawn one after the other; the same replay asked twice is drawn once, and the last few are kept.

Call `start()` once, as the bot process starts (before its event loop runs is fine: the workers are spoken to
from the loop that first calls them), and `shutdown()` when it stops; without `start()` pictures are drawn in a
thread, as tests and the sandbox need nothing more.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import os
from collections import OrderedDict
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from bot.pictures import drawing
from bot.pictures.kept import PaletteFolder
from bot.pictures.workers import Worker, WorkerStopped
from engine import State, to_json
from render import ProfileCard
from render.png import keep_palettes

Progress = Callable[[int, int], None]  # (frames drawn, frames in all)

log = logging.getLogger(__name__)

KEPT_BOARDS = 256  # the last boards by key: a few per open table
# A worker with this many pictures still to draw is slow to answer: a click on a table it draws is deferred at
# once rather than kept waiting for its board (see `bot.face.replies.ClickAnswer`).
BUSY_BACKLOG = 6
# A little below the bot, so that the event loop goes first, yet not so far that a picture waits behind every
# burst of the loop: a click's answer carries its board. Measured with bench/e2e.py at 50 games: niceness 10 gave
# the shortest median and a p99 about twice as long, 0 the reverse; 5 kept both low.
WORKER_NICENESS = 5
# The replays' worker: the lowest priority there is. On a busy machine a replay then waits for the tables, never
# the reverse; a 150-turn replay is a second of CPU (bench/replay.py), well inside the 30 s a replay may take.
REPLAY_NICENESS = 19
KEPT_REPLAYS = 4  # the last replays drawn, by a key of the game's first state, its length and the language


def usable_cores() -> int:
    """The cores this process may run on (a CPU affinity set by systemd or taskset counts, not the machine's)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


# -- the pool -----------------------------------------------------------------------------------------------
class Pictures:
    """Worker processes for pictures, with each table's boards sent to one of them."""

    def __init__(self, workers: int | None = None, *, warm: bool = True, palettes: str | None = None) -> None:
        self.workers = max(0, usable_cores() if workers is None else workers)
        self.warm = warm
        self.palettes = palettes  # the folder where learnt palettes are kept between runs (None: nowhere)
        self._workers: list[Worker] = []
        self._boards: OrderedDict[bytes, bytes] = OrderedDict()
        self._last: dict[int, bytes] = {}  # per table: the key of the board it shows
        self._replayer: Worker | None = None  # the replays' worker (started with the pool, its process later)
        self._replays: OrderedDict[bytes, bytes] = OrderedDict()
        self._drawing: dict[bytes, _Replay] = {}  # replays under way, by key

    def start(self) -> None:
        """Start the workers now: they warm up while the bot connects, not at the first picture. The replays'
        worker starts its process at the first replay (most hours have none)."""
        self._workers = [Worker(f"turista-pictures-{k}", niceness=WORKER_NICENESS, initializer=drawing.worker_start,
                                initargs=(self.palettes,), chores=drawing.warming,
                                chores_args=(self.warm, k, self.workers))
                         for k in range(self.workers)]
        for worker in self._workers:
            worker.start()
        self._replayer = Worker("turista-replays", niceness=REPLAY_NICENESS)
        log.info("pictures: %d worker process(es), and one for replays", self.workers)

    async def ready(self, within: float) -> bool:
        """Wait until every worker has settled (`drawing.settle`: the likeliest edition drawn and, when nothing was
        kept, its share of the warm-up), at most `within` seconds; whether they all did."""
        if not self._workers:
            return True
        try:
            async with asyncio.timeout(within):
                settled = await asyncio.gather(*(worker.call(drawing.settle, self.warm, within, k, len(self._workers))
                                                 for k, worker in enumerate(self._workers)))
        except (TimeoutError, WorkerStopped):
            return False
        return all(settled)

    def shutdown(self) -> None:
        for worker in self._workers:
            worker.stop()
        self._workers = []
        if self._replayer is not None:
            self._replayer.stop()

    async def _run(self, table: int, func, *args):  # type: ignore[no-untyped-def]
        if not self._workers:
            return await asyncio.to_thread(func, *args)
        return await self._workers[table % len(self._workers)].call(func, *args)

    @staticmethod
    def board_key(state_json: bytes, lang: str, events: tuple[dict, ...], absent: tuple[int, ...],
                  minutes_left: int | None) -> bytes:
        h = hashlib.blake2b(state_json, digest_size=16)
        h.update(repr((lang, events, absent, minutes_left)).encode())
        return h.digest()

    async def board(self, state: State, lang: str, *, table: int = 0, events: Iterable[dict] = (),
                    absent: Iterable[int] = (), minutes_left: int | None = None) -> tuple[bytes, bytes]:
        """(key, PNG) of the board; drawn only if no board with this key is kept."""
        state_json = to_json(state)
        ev, ab = tuple(events), tuple(sorted(absent))
        key = self.board_key(state_json, lang, ev, ab, minutes_left)
        return key, await self.drawn(key, table, state_json, lang, ev, ab, minutes_left)

    async def drawn(self, key: bytes, table: int, state_json: bytes, lang: str, events: tuple[dict, ...],
                    absent: tuple[int, ...], minutes_left: int | None) -> bytes:
        """The PNG of the board named `key` (see `board_key`): kept, else drawn by the table's worker."""
        png = self._boards.get(key)
        if png is None:
            png = await self._run(table, drawing.board, state_json, lang, events, absent, minutes_left)
            self._boards[key] = png
            while len(self._boards) > KEPT_BOARDS:
                self._boards.popitem(last=False)
        else:
            self._boards.move_to_end(key)
        self._last[table] = key
        return png

    def busy(self, table: int) -> bool:
        """Whether the worker of `table` has a queue of pictures to draw before the next one."""
        return bool(self._workers) and self._workers[table % len(self._workers)].backlog >= BUSY_BACKLOG

    def shows(self, table: int, key: bytes) -> bool:
        return self._last.get(table) == key

    async def deed(self, edition: str, square: int, state: State | None, lang: str, table: int = 0) -> bytes:
        return await self._run(table, drawing.deed, edition, square, to_json(state) if state else None, lang)

    async def summary(self, first: State, actions: list, lang: str, table: int = 0) -> bytes:
        return await self._run(table, drawing.summary, to_json(first), actions, lang)

    async def prepare(self, edition: str, lang: str, table: int = 0) -> None:
        await self._run(table, drawing.prepare, edition, lang)

    async def profile(self, card: ProfileCard, lang: str, user: int = 0) -> bytes:
        return await self._run(user, drawing.profile, card, lang)

    async def replay(self, first: State, actions: list, lang: str, progress: Progress | None = None) -> bytes:
        """The replay's GIF: kept, being drawn (then this caller waits for it too), or drawn now."""
        first_json = to_json(first)
        h = hashlib.blake2b(first_json, digest_size=16)
        h.update(repr((len(actions), lang)).encode())
        key = h.digest()
        kept = self._replays.get(key)
        if kept is not None:
            self._replays.move_to_end(key)
            return kept
        job = self._drawing.get(key)
        if job is None:
            job = self._drawing[key] = _Replay()
            asyncio.get_running_loop().create_task(self._draw_replay(key, job, first_json, actions, lang),
                                                   name="turista-replay")
        if progress is not None:
            job.watch(progress)
        # A caller that gives up (its interaction expired) leaves the replay to the others, and to the kept ones.
        return await asyncio.shield(job.future)

    async def _draw_replay(self, key: bytes, job: _Replay, first_json: bytes, actions: list, lang: str) -> None:
        try:
            if self._replayer is None:
                loop = asyncio.get_running_loop()
                data = await asyncio.to_thread(drawing.replay, first_json, actions, lang,
                                               lambda done, total: loop.call_soon_threadsafe(job.report, done, total))
            else:
                if self._replayer.starts == 0:
                    self._replayer.start()
                data = await self._replayer.call(drawing.replay, first_json, actions, lang, progress=job.report)
        except Exception as error:
            job.future.set_exception(error)
        else:
            job.future.set_result(data)
            self._replays[key] = data
            while len(self._replays) > KEPT_REPLAYS:
                self._replays.popitem(last=False)
        finally:
            del self._drawing[key]


class _Replay:
    """A replay being drawn: its outcome, and who wants to hear how far it got."""

    def __init__(self) -> None:
        self.future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        self.watchers: list[Progress] = []
        self.last: tuple[int, int] | None = None

    def watch(self, progress: Progress) -> None:
        self.watchers.append(progress)
        if self.last is not None:
            progress(*self.last)

    def report(self, done: int, total: int, *_: Any) -> None:
        self.last = (done, total)
        for progress in list(self.watchers):
            progress(done, total)


PICTURES = Pictures(workers=0)


def start(workers: int | None = None, *, warm: bool = True, cache: str | None = None) -> Pictures:
    """Start the worker processes (the bot's start-up), keeping what they learn in the folder `cache` (None:
    nowhere); returns the pool now in use. With no workers for the boards (0), they are drawn in a thread of the
    bot, and replays still by their own worker."""
    global PICTURES
    PICTURES.shutdown()
    palettes = str(Path(cache) / "palettes") if cache else None
    keep_palettes(PaletteFolder(palettes) if palettes else None)  # pictures drawn in this process (no workers)
    PICTURES = Pictures(workers, warm=warm, palettes=palettes)
    PICTURES.start()
    return PICTURES


async def ready(within: float) -> bool:
    """Wait until the picture workers have settled, at most `within` seconds (see `Pictures.ready`)."""
    return await PICTURES.ready(within)


def shutdown() -> None:
    PICTURES.shutdown()


# -- what the bot calls ---------------------------------------------------------------------------------------
async def board(state: State, lang: str, *, table: int = 0, events: Iterable[dict] = (), absent: Iterable[int] = (),
                minutes_left: int | None = None) -> bytes:
    """The board's PNG."""
    _, data = await PICTURES.board(state, lang, table=table, events=events, absent=absent, minutes_left=minutes_left)
    return data


async def board_if_changed(state: State, lang: str, *, table: int, events: Iterable[dict] = (),
                           absent: Iterable[int] = (), minutes_left: int | None = None) -> bytes | None:
    """The board of `table`, or None when the table already shows this very picture (an edit then leaves the
    attachment as it is)."""
    state_json = to_json(state)
    ev, ab = tuple(events), tuple(sorted(absent))
    key = Pictures.board_key(state_json, lang, ev, ab, minutes_left)
    if PICTURES.shows(table, key):
        return None
    return await PICTURES.drawn(key, table, state_json, lang, ev, ab, minutes_left)


def busy(table: int) -> bool:
    return PICTURES.busy(table)


async def deed(edition: str, square: int, state: State | None, lang: str, *, table: int = 0) -> bytes:
    return await PICTURES.deed(edition, square, state, lang, table)


def warm_up(edition: str, lang: str, *, table: int = 0) -> None:
    """Have the board of `edition` in `lang` drawn once where `table`'s pictures are drawn, starting now, in the
    background: a game about to start gets its first board sooner (its worker does this while the bot talks to
    Discord, and before the rest of its own warm-up)."""
    task = asyncio.get_running_loop().create_task(PICTURES.prepare(edition, lang, table),
                                                  name=f"turista-warm-up-{table}")
    _warming.add(task)
    task.add_done_callback(_warmed)


_warming: set[asyncio.Task[None]] = set()  # warm-ups under way, kept alive until they end


def _warmed(task: asyncio.Task[None]) -> None:
    _warming.discard(task)
    if not task.cancelled() and (error := task.exception()) is not None:
        # The table's first board draws what it needs itself (and says so if it cannot).
        log.warning("pictures: a warm-up failed: %s", error)


async def summary(first: State, actions: list, lang: str, *, table: int = 0) -> bytes:
    """The end-of-game picture, replayed from the game's first state and its actions."""
    return await PICTURES.summary(first, actions, lang, table)


async def replay(first: State, actions: list, lang: str, *, progress: Progress | None = None) -> bytes:
    """The game's animated replay (GIF), rebuilt from its first state and its actions by the replays' own
    worker; `progress(frames drawn, frames in all)` as it goes, in the event loop."""
    return await PICTURES.replay(first, actions, lang, progress)


async def profile(card: ProfileCard, lang: str, *, user: int = 0) -> bytes:
    """A person's card for `/turista profile` (PNG)."""
    return await PICTURES.profile(card, lang, user)

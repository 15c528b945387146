"""What the benchmarks that run real bot processes share: starting `python -m bot` against the fake Discord
on chosen cores, the CPU time and memory of a bot with its picture workers, percentiles, and waking a driver
only when its own channel changed.

Cores. The load generator (the fake Discord and the simulated people, all in the benchmark's process) and the
bot's event loop should not take CPU from each other, or the figures say more about the benchmark than about
the bot: `Cores.split()` gives the bot the last core and the load the others, and puts a picture worker on
every core, as the bot does on a machine of its own (the workers run at a lower priority, so they take what
the load leaves of its cores).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import resource
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from bot.face.i18n import t
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser
from fakediscord.process import BotProcess
from words import LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
T = TypeVar("T")


# -- cores ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cores:
    """Which cores the bot, its picture workers and the load generator run on; empty: no pinning (workers:
    the bot's cores)."""

    bot: frozenset[int] = frozenset()
    load: frozenset[int] = frozenset()
    workers: frozenset[int] = frozenset()

    @classmethod
    def split(cls) -> Cores:
        """The last core for the bot's event loop, the others for the load, and a picture worker on every
        core, as the bot sizes its pool on a machine of its own (no pinning on a one-core machine)."""
        available = sorted(os.sched_getaffinity(0))
        if len(available) < 2:
            return cls()
        return cls(frozenset(available[-1:]), frozenset(available[:-1]), frozenset(available))

    @classmethod
    def parse(cls, bot: str, load: str, workers: str = "") -> Cores:
        def cpus(spec: str) -> frozenset[int]:
            return frozenset(int(c) for c in spec.split(",") if c.strip())

        return cls(cpus(bot), cpus(load), cpus(workers))

    def pin_load(self) -> None:
        """Pin this process (the fake Discord and the drivers) to the load cores."""
        if self.load:
            os.sched_setaffinity(0, self.load)

    def bot_settings(self) -> dict[str, str]:
        """The bot's settings that follow from the cores: one picture worker per worker core."""
        return {"TURISTA_RENDER_WORKERS": str(len(self.workers))} if self.workers else {}

    def pin_workers(self, pid: int) -> None:
        """Move the bot's picture workers (its child processes, once started) to their cores."""
        if self.workers:
            for child in family(pid)[1:]:
                with contextlib.suppress(OSError):
                    os.sched_setaffinity(child, self.workers)

    def describe(self) -> str:
        def cpus(which: frozenset[int]) -> str:
            return ",".join(map(str, sorted(which)))

        if not self.bot:
            return "not pinned"
        workers = f"its picture workers on cpu {cpus(self.workers)}" if self.workers else "its workers with it"
        return f"bot on cpu {cpus(self.bot)}, {workers}, load on cpu {cpus(self.load)}"


# -- the bot process ------------------------------------------------------------------------------------
async def keep_classic_table(fake: FakeDiscord, host: FakeUser, channel: FakeChannel, lobby: FakeMessage) -> None:
    """The host of the lobby `lobby` keeps the classic embed table: the house rules' select, with the rules on so
    far and `classic_table`; back once the lobby lists it."""
    reply = await fake.slash(host, channel, "turista settings")
    await reply
    settings = await reply.wait_message(lambda m: bool(m.components), timeout=15)
    rules = next(c for c in settings.all_components() if str(c.get("custom_id", "")).endswith(":set:rules"))
    chosen = [o["value"] for o in rules["options"] if o.get("default")] + ["classic_table"]
    await (await fake.select(host, settings, rules["custom_id"], chosen))
    names = {t(lang, "rule.classic_table") for lang in LANGUAGES}
    await fake.wait_for(lambda: any(name in lobby.text for name in names), 10, "the classic table to be chosen")


async def launch_bot(fake: FakeDiscord, env: dict[str, str], log: Path, cores: Cores = Cores()) -> BotProcess:
    """`python -m bot` through the fake's launcher (the one the tests and the sandbox use), on the bot's cores,
    with exactly the environment `env` (`devkit.world.bot_environment`), its output appended to `log`."""
    return await fake.launch("bot", log_path=log, env=env, cwd=ROOT, cpus=cores.bot, inherit=False)


# -- CPU and memory from /proc ----------------------------------------------------------------------------
def _stat(pid: int) -> list[str]:
    return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()


def family(pid: int) -> list[int]:
    """A process and its descendants (a bot and the workers that draw its pictures)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children.setdefault(int(_stat(int(entry.name))[1]), []).append(int(entry.name))
            except (OSError, IndexError):
                continue
    found, todo = [], [pid]
    while todo:
        current = todo.pop()
        found.append(current)
        todo += children.get(current, [])
    return found


def cpu_seconds(pid: int) -> float:
    """User + system CPU time so far of one process; 0 once it is gone."""
    try:
        fields = _stat(pid)
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def thread_cpu_seconds(pid: int) -> tuple[float, float]:
    """(the main thread's, the other threads') CPU seconds so far of one process."""
    main = other = 0.0
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        if task.name == str(pid):
            main += seconds
        else:
            other += seconds
    return main, other


# A fixed piece of pure Python; its CPU time says how fast this machine runs Python at the moment. On a shared
# host that drifts by half within minutes, and every figure in CPU time drifts with it.
REFERENCE_LOOP = """
import time

def once():
    start, total = time.process_time(), 0
    for i in range(1_000_000):
        total += i * i
    return time.process_time() - start

print(min(once() for _ in range(5)))
"""


def reference_ms(cpus: frozenset[int] = frozenset()) -> float:
    """The CPU milliseconds of `REFERENCE_LOOP` (the best of five) in a fresh process on `cpus`."""

    def pin() -> None:
        if cpus:
            os.sched_setaffinity(0, set(cpus))

    out = subprocess.run([sys.executable, "-c", REFERENCE_LOOP], capture_output=True, text=True, check=True,
                         preexec_fn=pin)
    return round(1000 * float(out.stdout), 1)


def own_cpu_seconds() -> float:
    """CPU seconds so far of this process (the fake Discord and the simulated people)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _status_kb(pid: int, key: str) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


@dataclass(frozen=True)
class Usage:
    """CPU seconds so far and peak resident memory of a bot process and of its workers (its descendants)."""

    bot_cpu_s: float
    workers_cpu_s: float
    bot_peak_mb: float
    workers_peak_mb: float

    @classmethod
    def of(cls, pid: int) -> Usage:
        kids = [k for k in family(pid) if k != pid]
        return cls(cpu_seconds(pid), sum(cpu_seconds(k) for k in kids), _status_kb(pid, "VmHWM:") / 1024,
                   sum(_status_kb(k, "VmHWM:") for k in kids) / 1024)


def rss_mb(pid: int) -> float:
    """Resident memory now of a process and its descendants, in MB."""
    return sum(_status_kb(p, "VmRSS:") for p in family(pid)) / 1024


async def workers_idle(pid: int, timeout: float = 60.0) -> None:
    """Until the bot's workers have used no CPU for a second (their warm-up is over)."""
    deadline = time.perf_counter() + timeout
    before = Usage.of(pid).workers_cpu_s
    while time.perf_counter() < deadline:
        await asyncio.sleep(1.0)
        now = Usage.of(pid).workers_cpu_s
        if now - before < 0.05:
            return
        before = now


def percentile(values: list[float], q: float, scale: float = 1000.0) -> float:
    """The q-quantile (nearest rank) of `values`, times `scale` (seconds -> ms by default), 1 decimal."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(scale * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


# -- watching channels ------------------------------------------------------------------------------------
class ChannelWatch:
    """The bot's public messages per channel, and a wake-up per channel whenever one is posted or edited.

    The fake's own `wait_for` re-checks every waiter on every change anywhere; with many tables that costs
    the load generator more than the bot it measures. Here a driver wakes only for its own channel. The
    fake's state is patched to tell; `uploads_at` keeps when each upload of a given file name arrived.
    """

    def __init__(self, fake: FakeDiscord, upload: str = "board.png") -> None:
        self.messages: dict[int, list[FakeMessage]] = {}
        self.uploads_at: dict[int, list[float]] = {}
        self._events: dict[int, asyncio.Event] = {}
        bot_id = fake.bot_user.id
        state = fake.state
        create, edit = state.create_message, state.edit_message

        def seen(message: FakeMessage, uploads: list, new: bool) -> None:
            # A game's thread counts as its channel: the driver of a table follows both.
            channel_id = (message.channel.parent or message.channel).id
            if new and not message.ephemeral and message.author.id == bot_id:
                self.messages.setdefault(channel_id, []).append(message)
            if any(name == upload for name, _ in uploads):
                self.uploads_at.setdefault(channel_id, []).append(time.perf_counter())
            event = self._events.pop(channel_id, None)
            if event is not None:
                event.set()

        async def create_message(channel, author, payload, uploads, **kw):  # type: ignore[no-untyped-def]
            message = await create(channel, author, payload, uploads, **kw)
            seen(message, uploads, True)
            return message

        async def edit_message(message, payload, uploads):  # type: ignore[no-untyped-def]
            await edit(message, payload, uploads)
            seen(message, uploads, False)

        state.create_message = create_message  # type: ignore[method-assign]
        state.edit_message = edit_message  # type: ignore[method-assign]

    def of(self, channel_id: int) -> list[FakeMessage]:
        return self.messages.get(channel_id, [])

    def uploads(self) -> int:
        """How many uploads of the file name watched there were so far, in every channel."""
        return sum(len(times) for times in self.uploads_at.values())

    def upload_after(self, channel_id: int, t: float) -> float | None:
        """When the first upload at or after `t` arrived in the channel."""
        return next((x for x in self.uploads_at.get(channel_id, []) if x >= t), None)

    async def until(self, channel_id: int, predicate: Callable[[], T | None], deadline: float) -> T | None:
        """The first truthy `predicate()`, re-checked whenever the channel changes; None at `deadline`.
        A re-check every second too, for what changes outside the channel (the database)."""
        while True:
            event = self._events.setdefault(channel_id, asyncio.Event())
            found = predicate()
            if found:
                return found
            left = deadline - time.perf_counter()
            if left <= 0:
                return None
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(left, 1.0))


# -- profiling ----------------------------------------------------------------------------------------------
def py_spy(pid: int, seconds: float, output: Path, cores: Cores) -> subprocess.Popen[bytes]:
    """Sample the bot and its workers for `seconds` (py-spy, folded stacks) on the load's cores."""
    load = set(cores.load)

    def pin() -> None:
        if load:
            os.sched_setaffinity(0, load)

    output.parent.mkdir(parents=True, exist_ok=True)
    command = ["py-spy", "record", "--pid", str(pid), "--subprocesses", "--duration", str(max(1, int(seconds))),
               "--format", "raw", "--rate", "200", "--nonblocking", "--output", str(output)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=pin)


def describe_limits(limits: Any) -> str:
    """What the benchmark's fake Discord holds the bot to, for the first line it prints (a `RateLimits` or None)."""
    if limits is None:
        return "no rate limits (--no-rate-limits)"
    return (f"Discord's rate limits on (the fake's defaults: {limits.global_per_second} requests/s globally, "
            f"5 posts and 5 edits per 5 s in a channel)")


def global_requests_since(fake: Any, since: float) -> int:
    """How many of the bot's requests since `since` (unix time) count against Discord's global limit: every
    API request but the interaction endpoints'."""
    return sum(1 for a in fake.rate_limiter.answers if a.at >= since and a.path.startswith("/api/")
               and "/interactions/" not in a.path and "/webhooks/" not in a.path)


def throttled_by_route(fake: Any) -> str:
    """The 429s the fake answered, by method and the route's last named part (`POST messages: 3, …`; a text, so
    that the runs' medians take the first run's)."""
    import re
    from collections import Counter

    found: Counter[str] = Counter()
    for answer in fake.rate_limiter.throttled:
        words = [w for w in answer.path.split("/") if w and not re.fullmatch(r"\d+|[\w-]{40,}", w)]
        found[f"{answer.method} {words[-1] if words else '?'}{' (global)' if answer.scope == 'global' else ''}"] += 1
    return ", ".join(f"{route}: {count}" for route, count in found.most_common())


def median_of(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each number the median of the runs' (nested dicts too); other values from the first run."""
    import statistics

    first = runs[0]
    out: dict[str, Any] = {}
    for key, value in first.items():
        values = [run[key] for run in runs]
        if isinstance(value, dict):
            out[key] = median_of(values)
        elif isinstance(value, (int, float)) and not isinstance(value, bool):
            middle = statistics.median(values)
            out[key] = round(middle, 2) if isinstance(middle, float) else middle
        else:
            out[key] = value
    return out

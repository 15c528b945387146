"""Many channels at human pace: does every interaction get its answer inside Discord's 3 seconds?

    python bench/channels.py [--channels 120,250,500] [--seconds 90] [--ramp 30] [--runs 1]

Starts the real bot (`python -m bot` through the fake's launcher, production settings: pictures in worker
processes, computer seats thinking 1.5 s, SQLite; cores pinned as in `bench/e2e.py`) and opens N tables in N
channels, one after the other over the first `--ramp` seconds while the tables already open play on: each
table is opened with `/turista new`, a second person joins, the host seats two computer players and starts.
The two people then take 1 to 3 seconds for each decision the table shows them; the computers play their
own turns. A game that ends is followed by a new `/turista new` in its channel. After `--seconds` the run
stops; every interaction of the run counts, the openings included.

Prints one JSON line per N (the medians of `--runs` runs):

    interactions (commands and clicks of people), late_answers (acknowledged after 3 s: Discord refuses
    those; counted by the fake), late_by_kind, lost (no answer in 10 s), ack_ms {p50, p95, p99, max}
    (interaction -> acknowledgement, on the fake's clock), load_loop_lag_ms {p50, p99, max} (how late the
    benchmark's own event loop woke up: the part of those figures that is the fake Discord's, not the bot's),
    board_ms {p50, p95, p99} (interaction -> the table showing its outcome, for a decision on the table, or
    the lobby, for `/turista new`), actions (moves applied, the computers' included), cpu_ms_per_interaction
    (the bot with its picture workers), bot_cpu_ms_per_interaction (the bot process),
    bot_loop_cpu_ms_per_interaction (its event loop's thread), cpu_ms_per_action,
    load_cpu_ms_per_interaction (the fake Discord and the people: the benchmark's own cost), bot_peak_rss_mb,
    workers_peak_rss_mb, fake_errors (anything else a real Discord would have refused), rate_limits (whether the
    fake held the bot to Discord's rate limits, as it does unless `--no-rate-limits`), throttled_429 (the 429s it
    answered), invalid_requests (what counts against Discord's budget of 10,000 in 10 minutes).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import json
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This script's folder is not a package: make the repository importable when it is run by path.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.e2e import Table  # noqa: E402
from bench.harness import (  # noqa: E402
    ChannelWatch,
    Cores,
    Usage,
    describe_limits,
    launch_bot,
    median_of,
    own_cpu_seconds,
    percentile,
    py_spy,
    thread_cpu_seconds,
    throttled_by_route,
    workers_idle,
)
from bot.store import Store  # noqa: E402
from devkit.world import bot_environment  # noqa: E402
from fakediscord import FakeDiscord, FakeMessage, RateLimits, Reply  # noqa: E402

# When the fake Discord took each answer (its own clock, as the 3 s check uses): a person's client and the
# benchmark's waiting add nothing to the figures.
_set = Reply.__setattr__


def _noting(reply: Reply, name: str, value: Any) -> None:
    if name == "response_type" and value is not None and "answered_at" not in reply.__dict__:
        object.__setattr__(reply, "answered_at", time.monotonic())
    _set(reply, name, value)


Reply.__setattr__ = _noting  # type: ignore[method-assign,assignment]

LATE_S = 3.0  # Discord's window for the first answer to an interaction
ANSWER_S = 10.0  # an interaction without an answer after this long is lost


class Figures:
    """What the people of every channel saw."""

    def __init__(self) -> None:
        self.lag: list[float] = []  # how late the benchmark's own event loop woke up: its share of the figures
        self.ack: list[float] = []
        self.board: list[float] = []
        self.lost: collections.Counter[str] = collections.Counter()  # never answered, by what was done
        self.refused: collections.Counter[str] = collections.Counter()  # answered too late: the fake refused it
        self.slow: collections.Counter[str] = collections.Counter()  # answered after 3 s, by what was done


class Channel(Table):
    """One channel: a host and a guest who take 1-3 s per decision, and two computer seats."""

    def __init__(self, *args: Any, rng: random.Random, figures: Figures, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.rng, self.figures = rng, figures

    async def _answered(self, what: str, reply: Reply) -> bool:
        """Wait for the acknowledgement of one interaction and note how long it took."""
        try:
            await reply.wait(ANSWER_S)
        except (TimeoutError, AssertionError):
            # Answered too late (the fake refused it and says so in its errors) or not at all.
            if reply.error is None:
                self.figures.lost[what] += 1
            else:
                self.figures.refused[what] += 1
                self.figures.slow[what] += 1
            return False
        took = reply.__dict__.get("answered_at", time.monotonic()) - reply.created
        self.figures.ack.append(took)
        if took > LATE_S:
            self.figures.slow[what] += 1
        return True

    async def _interact(self, what: str, send: Any) -> Reply | None:
        reply = await send
        return reply if await self._answered(what, reply) else None

    def _enabled(self, message: FakeMessage, verb: str) -> str | None:
        """The custom_id of the button for `verb` on `message` once it may be clicked."""
        cid = self._cid(message, verb)
        button = message.find_component(custom_id=cid) if cid is not None else None
        return cid if button is not None and not button.get("disabled") else None

    async def open(self) -> None:
        host, guest = self.people
        self.clicked = -1
        start = time.perf_counter()
        reply = await self.fake.slash(host, self.channel, "turista new", options={})
        if not await self._answered("turista new", reply):
            raise RuntimeError(f"no lobby in #{self.channel.name}")
        lobby = await reply.wait_message(lambda m: bool(m.custom_ids()), timeout=ANSWER_S)
        self.figures.board.append(time.perf_counter() - start)
        for user, verb in ((guest, "join"), (host, "addbot"), (host, "addbot"), (host, "start")):
            await asyncio.sleep(self.rng.uniform(1.0, 3.0))
            # The lobby is edited after each answer: Start is enabled once it shows enough seats.
            cid = await self.watch.until(self.channel.id, lambda v=verb: self._enabled(lobby, v),
                                         time.perf_counter() + 30.0)
            if cid is None or await self._interact(verb, self.fake.click(user, lobby, cid)) is None:
                raise RuntimeError(f"the lobby in #{self.channel.name} did not take {verb}")
        # The click was answered at once; the game starts once it is written.
        row = await self.watch.until(self.channel.id, self._started, time.perf_counter() + 30.0)
        if row is None:
            raise RuntimeError(f"the game in #{self.channel.name} did not start")
        self.gid = row.id

    def _started(self) -> Any:
        row = self.store.game_by_channel(self.channel.id)
        return row if row is not None and row.status == "active" else None

    def _next(self) -> tuple[Any, ...] | str | None:
        """What the table waits for a person to do, or "over" once the game ended."""
        found = self._waiting()
        if found is not None:
            return found
        st = self.store.game(self.gid).state
        return "over" if st is not None and st.phase == "over" else None

    def _shown(self, version: int) -> bool:
        """Whether the channel's newest table shows a version after `version` (the click's outcome)."""
        table = self._with_verb("status")
        return table is not None and self._version(table) > version

    async def play(self, until: float, out: dict[str, list[float]] | None = None) -> None:
        while time.perf_counter() < until:
            found = await self.watch.until(self.channel.id, self._next, until)
            if found is None:
                return
            if found == "over":
                await asyncio.sleep(self.rng.uniform(1.0, 3.0))
                await self.open()  # a new game in the same channel
                continue
            st, seat, verb, message = found
            await asyncio.sleep(self.rng.uniform(1.0, 3.0))  # the person reads the table and decides
            if self.store.game(self.gid).version != st.version:
                continue  # something else happened meanwhile (a clock, a computer's offer): look again
            cid = self._cid(message, verb)
            if cid is None:
                continue
            start = time.perf_counter()
            reply = await self.fake.click(self._user(seat), message, cid)
            self.clicked = st.version
            if not await self._answered(verb, reply):
                continue
            # Interaction -> the table showing what the click did.
            if await self.watch.until(self.channel.id, lambda v=st.version: self._shown(v),
                                      start + 30.0) is not None:
                self.figures.board.append(time.perf_counter() - start)


async def one_run(channels: int, seconds: float, ramp: float, tmp: Path, cores: Cores, seed: int,
                  profile: Path | None = None, limits: RateLimits | None = None) -> dict[str, Any]:
    async with FakeDiscord(rate_limits=limits) as fake:
        guild = fake.add_guild("Bench", channels=tuple(f"mesa-{k}" for k in range(channels)))
        people = [[fake.add_user(f"p{k}a", guild), fake.add_user(f"p{k}b", guild)] for k in range(channels)]
        db = tmp / f"channels-{channels}-{time.monotonic_ns()}.db"
        process = await launch_bot(fake, bot_environment(db, cores.bot_settings()), tmp / f"channels-{channels}.log",
                                   cores)
        figures = Figures()
        try:
            await fake.wait_for(lambda: fake.connected and fake.state.command_syncs > 0, 60, "the bot")
            cores.pin_workers(process.pid)
            await workers_idle(process.pid)  # the picture workers finish warming up before the clock starts
            store = Store(db)
            watch = ChannelWatch(fake)
            rng = random.Random(seed)
            tables = [Channel(fake, store, watch, guild.channel(f"mesa-{k}"), people[k],
                              rng=random.Random(rng.random()), figures=figures) for k in range(channels)]
            before = Usage.of(process.pid)
            threads_before, load_before = thread_cpu_seconds(process.pid), own_cpu_seconds()
            errors_before = len(fake.errors)
            start = time.perf_counter()
            until = start + seconds

            async def sample(folder: Path) -> Any:  # py-spy, once every table is open
                await asyncio.sleep(ramp)
                return py_spy(process.pid, seconds - ramp, folder / f"channels-{channels}.txt", cores)

            spy = asyncio.create_task(sample(profile)) if profile else None

            async def run(k: int, table: Channel) -> str:
                await asyncio.sleep(k * ramp / channels)
                try:
                    await table.open()
                    await table.play(until)
                except (RuntimeError, TimeoutError, AssertionError) as error:
                    return str(error)
                return ""

            async def lag() -> None:
                while True:
                    before = time.perf_counter()
                    await asyncio.sleep(0.05)
                    figures.lag.append(time.perf_counter() - before - 0.05)

            probe = asyncio.create_task(lag())
            failures = [f for f in await asyncio.gather(*(run(k, t) for k, t in enumerate(tables))) if f]
            probe.cancel()
            if spy is not None:
                (await spy).wait()
            for failure in failures[:5]:
                print(f"# {failure}", file=sys.stderr)
            elapsed = time.perf_counter() - start
            after = Usage.of(process.pid)
            threads_after, load_after = thread_cpu_seconds(process.pid), own_cpu_seconds()
            actions = sum(store.game(t.gid).version for t in tables if t.gid)
            store.close()
        finally:
            await process.stop(timeout=15)
        errors = fake.errors[errors_before:]
        late = [e for e in errors if e.kind == "late_ack"]
        interactions = max(1, len(figures.ack) + sum(figures.refused.values()) + sum(figures.lost.values()))
        bot_ms = 1000 * (after.bot_cpu_s - before.bot_cpu_s)
        workers_ms = 1000 * (after.workers_cpu_s - before.workers_cpu_s)
        return {
            "channels": channels,
            "seconds": round(elapsed, 1),
            "interactions": interactions,
            "late_answers": len(late) + sum(1 for a in figures.ack if a > LATE_S),
            "late_by_kind": dict(figures.slow),
            "lost": sum(figures.lost.values()),
            "tables_failed": len(failures),
            "ack_ms": {q: percentile(figures.ack, v) for q, v in (("p50", .5), ("p95", .95), ("p99", .99), ("max", 1))},
            "board_ms": {q: percentile(figures.board, v) for q, v in (("p50", .5), ("p95", .95), ("p99", .99))},
            "load_loop_lag_ms": {q: percentile(figures.lag, v) for q, v in (("p50", .5), ("p99", .99), ("max", 1))},
            "actions": actions,
            "cpu_ms_per_interaction": round((bot_ms + workers_ms) / interactions, 2),
            "bot_cpu_ms_per_interaction": round(bot_ms / interactions, 2),
            "bot_loop_cpu_ms_per_interaction": round(1000 * (threads_after[0] - threads_before[0]) / interactions, 2),
            "cpu_ms_per_action": round((bot_ms + workers_ms) / max(1, actions), 2),
            "load_cpu_ms_per_interaction": round(1000 * (load_after - load_before) / interactions, 2),
            "bot_peak_rss_mb": round(after.bot_peak_mb, 1),
            "workers_peak_rss_mb": round(after.workers_peak_mb, 1),
            "fake_errors": len(errors) - len(late),
            "rate_limits": limits is not None,
            "throttled_429": len(fake.rate_limiter.throttled),
            "throttled_global": sum(1 for a in fake.rate_limiter.throttled if a.scope == "global"),
            "throttled_by_route": throttled_by_route(fake),
            "invalid_requests": fake.rate_limiter.invalid_requests(),
        }


async def main_async(args: argparse.Namespace) -> None:
    cores = (Cores.parse(args.bot_cpus, args.load_cpus, args.workers_cpus) if args.bot_cpus
             else Cores() if args.no_pin else Cores.split())
    cores.pin_load()
    limits = None if args.no_rate_limits else RateLimits()
    print(f"# {cores.describe()}; {args.runs} run(s) per case, medians; {describe_limits(limits)}",
          file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="turista-channels-") as folder:
        for channels in args.channels:
            runs = []
            for run in range(args.runs):
                profile = args.profile if args.profile and run == 0 else None
                runs.append(await one_run(channels, args.seconds, args.ramp, Path(folder), cores, args.seed + run,
                                          profile, limits))
                print(f"# {json.dumps(runs[-1])}", file=sys.stderr, flush=True)
            print(json.dumps(median_of(runs)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--channels", type=lambda s: [int(x) for x in s.split(",") if x], default=[120, 250, 500])
    parser.add_argument("--seconds", type=float, default=90.0, help="length of each run, the openings included")
    parser.add_argument("--ramp", type=float, default=30.0, help="the tables open one after the other over this long")
    parser.add_argument("--runs", type=int, default=1, help="runs per case; each figure is their median")
    parser.add_argument("--seed", type=int, default=1, help="the people's thinking times")
    parser.add_argument("--bot-cpus", default="", help="cores of the bot and its workers, e.g. 1 (default: the last)")
    parser.add_argument("--load-cpus", default="", help="cores of the fake Discord and the people (default: the rest)")
    parser.add_argument("--workers-cpus", default="",
                        help="cores of the bot's picture workers, one worker each (default with --bot-cpus: the bot's)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="a folder: py-spy samples the bot and its workers once the tables are open (first run)")
    parser.add_argument("--no-pin", action="store_true", help="let the bot and the load share every core")
    parser.add_argument("--no-rate-limits", action="store_true",
                        help="the fake Discord without its rate limits (on by default, as Discord's), to compare")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()

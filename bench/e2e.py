"""The real bot under load: N games at once against the bundled fake Discord, and a restart with many games.

    python bench/e2e.py [--games 1,10,50] [--seconds 30] [--runs 3] [--restart 1000] [--profile DIR] [--classic]

Starts `python -m bot` (production settings: pictures in worker processes, computer seats thinking 1.5 s,
SQLite) through the fake's launcher, opens N tables in N channels (two people and one computer seat each)
(with --classic, under the house rule `classic_table`: the embed table rather than the layout)
and lets the people act as fast as the bot answers: each person clicks as soon as the table shows that the
game waits for them. First every table clicks at the same instant, once: the worst burst the bot can get
(`herd_`). Then each table pauses for a moment of its own, spread over `--stagger` seconds (people do not
click in step across channels), and plays on; the steady state's figures count the clicks sent from the
end of that spread on, for `--seconds`. The bot runs on the last core, the fake Discord and the people (this
process) on the others, and a picture worker on every core at its lower priority (`--bot-cpus`,
`--load-cpus`, `--workers-cpus`, `--no-pin`). Each case runs `--runs` times; the figures printed are the
medians, one JSON line per N:

    interactions_per_s, ack_ms {p50, p95, p99, max}, board_ms {p50, p95, p99} (click -> the first message
    carrying a board after it), boards, board_uploads_per_interaction (pictures of the board sent, the
    computer seats' moves included), herd_ack_ms and herd_board_ms {p50, max}, late_acks_over_1s (the
    burst's included), lost_clicks, fake_errors, CPU ms per interaction of the bot with its workers (cpu_),
    the bot process (bot_), its event loop thread alone (bot_loop_), its picture processes (workers_) and of
    the load generator (load_), bot_peak_rss_mb, workers_peak_rss_mb, rate_limits (whether the fake held the
    bot to Discord's rate limits, as it does unless `--no-rate-limits`), global_requests_per_s (the bot's
    requests that count against Discord's global limit of 50 a second: all but the answers to interactions),
    throttled_429 (the 429s it answered), throttled_global and throttled_by_route (which of them), invalid_requests
    (the 401/403/429 that count against Discord's budget of 10,000 in 10 minutes), and
    reference_ms: the CPU time of a fixed loop of pure Python on the bot's core, before and after the run
    (`bench.harness.REFERENCE_LOOP`), to tell a slower bot from a slower machine

and, with --restart, one line for a bot started on a database of that many open games: the time from the
process start to the gateway connection (discord.py's own part), to the last click sent (the benchmark's own
part) and to every game having answered a click on its table's status button. `--profile DIR` samples the
bot and its workers with py-spy during the first run of each case (folded stacks in DIR).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

# This script's folder is not a package: make the repository importable when it is run by path.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bench.harness import (  # noqa: E402
    ChannelWatch,
    Cores,
    Usage,
    describe_limits,
    global_requests_since,
    keep_classic_table,
    launch_bot,
    median_of,
    own_cpu_seconds,
    percentile,
    py_spy,
    reference_ms,
    thread_cpu_seconds,
    throttled_by_route,
    workers_idle,
)
from bot.face import ids  # noqa: E402
from bot.store import Store  # noqa: E402
from devkit.world import bot_environment  # noqa: E402
from engine import State  # noqa: E402
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, RateLimits  # noqa: E402


# -- one table ----------------------------------------------------------------------------------------------
class Table:
    """One game: two people who click as soon as their table waits for them, and a computer seat."""

    def __init__(self, fake: FakeDiscord, store: Store, watch: ChannelWatch, channel: FakeChannel,
                 people: list[FakeUser], classic: bool = False) -> None:
        self.fake, self.store, self.watch, self.channel, self.people = fake, store, watch, channel, people
        self.classic = classic
        self.gid = 0
        self.clicked = -1  # the version of the last click: the next one waits for a newer table

    def _with_verb(self, verb: str) -> FakeMessage | None:
        for message in reversed(self.watch.of(self.channel.id)):
            if self._cid(message, verb) is not None:
                return message
        return None

    @staticmethod
    def _cid(message: FakeMessage, verb: str) -> str | None:
        for c in message.custom_ids():
            p = ids.parse(c)
            if p and p.verb == verb:
                return c
        return None

    @staticmethod
    def _version(message: FakeMessage) -> int:
        return max((p.version for p in (ids.parse(c) for c in message.custom_ids()) if p), default=-1)

    async def open(self) -> None:
        host, guest = self.people
        reply = await (await self.fake.slash(host, self.channel, "turista new", options={})).wait(10)
        lobby = await reply.wait_message(lambda m: bool(m.custom_ids()), timeout=10)  # after "thinking…"
        await (await self.fake.click(guest, lobby, self._cid(lobby, "join"))).wait(10)
        await (await self.fake.click(host, lobby, self._cid(lobby, "addbot"))).wait(10)

        def ready() -> bool:
            # The lobby is edited after each answer: Start is enabled once both seats are shown.
            start = lobby.find_component(custom_id=self._cid(lobby, "start"))
            return self._cid(lobby, "dropbot") is not None and start is not None and not start.get("disabled")

        await self.fake.wait_for(ready, 10, "the lobby with three seats")
        if self.classic:
            await keep_classic_table(self.fake, host, self.channel, lobby)
        await (await self.fake.click(host, lobby, self._cid(lobby, "start"))).wait(10)
        row = self.store.game_by_channel(self.channel.id)
        assert row is not None
        self.gid = row.id

    def _waiting(self) -> tuple[State, int, str, FakeMessage] | None:
        """(state, person's seat, verb, message) once the table shows a version newer than the last click
        and that version waits for a person."""
        table = self._with_verb("status")
        if table is None or self._version(table) <= self.clicked:
            return None
        row = self.store.game(self.gid)
        st = row.state
        if st is None or st.phase == "over" or self._version(table) != st.version:
            return None
        machine = {s.seat for s in row.seats if s.computer} | {i for i, s in enumerate(st.seats) if s.computer}
        if st.trade is not None and st.trade.target not in machine:
            offer = self._with_verb("reject_trade")
            ready = offer is not None and self._version(offer) == st.version
            return (st, st.trade.target, "reject_trade", offer) if ready else None  # type: ignore[return-value]
        if st.debts:
            debtor = st.debts[0].debtor
            return None if debtor in machine else (st, debtor, "bankrupt", table)
        if st.auction is not None:
            auction = self._with_verb("pass_bid")
            people = [s for s in st.auction.active if s not in machine and s != st.auction.bidder]
            if auction is None or self._version(auction) != st.version or not people:
                return None
            verb = "bid" if self._cid(auction, "bid") and st.auction.bid < 5 * st.auction.minimum else "pass_bid"
            return st, people[0], verb, auction
        if st.current in machine:
            return None
        verbs = {p.verb for p in (ids.parse(c) for c in table.custom_ids()) if p}
        disabled = {ids.parse(c["custom_id"]).verb for c in table.all_components()  # type: ignore[union-attr]
                    if c.get("disabled") and "custom_id" in c}
        for verb in ("buy", "decline", "pay_fine", "roll", "end_turn"):
            if verb in verbs and verb not in disabled:
                return st, st.current, verb, table
        return None

    def _user(self, seat: int) -> FakeUser:
        row = self.store.game(self.gid)
        user_id = next(s.user_id for s in row.seats if s.seat == seat)
        return self.fake.state.users[user_id]

    async def _click(self, found: tuple[State, int, str, FakeMessage],
                     out: dict[str, list[float]]) -> tuple[float, float] | None:
        """Click what `found` offers: when the click was sent and how long its acknowledgement took (None if it
        was not answered)."""
        st, seat, verb, message = found
        cid = self._cid(message, verb)
        assert cid is not None
        start = time.perf_counter()
        reply = await self.fake.click(self._user(seat), message, cid)
        self.clicked = st.version
        try:
            await reply.wait(10)
        except (TimeoutError, AssertionError):
            out["lost"].append(1)
            return None
        ack = time.perf_counter() - start
        out["all_acks"].append(ack)
        return start, ack

    async def herd(self, together: asyncio.Barrier, out: dict[str, list[float]]) -> None:
        """One click at the same instant as every other table's, and the time to its board."""
        found = await self.watch.until(self.channel.id, self._waiting, time.perf_counter() + 30)
        assert found is not None, "a table never waited for its people"
        await together.wait()
        clicked = await self._click(found, out)
        if clicked is None:
            return
        start, ack = clicked
        seen = await self.watch.until(self.channel.id, lambda: self.watch.upload_after(self.channel.id, start),
                                      time.perf_counter() + 30)
        if seen is not None:
            out["herd_board"].append(seen - start)
            out["herd_ack"].append(ack)

    async def play(self, counted_from: float, until: float, out: dict[str, list[float]]) -> None:
        """Click as soon as the table waits for a person, until `until`; clicks sent from `counted_from` on count."""
        pending: float | None = None  # the last counted click still waiting for its board
        while True:
            found = await self.watch.until(self.channel.id, self._waiting, until)
            if pending is not None:
                seen = self.watch.upload_after(self.channel.id, pending)
                if seen is not None:
                    out["board"].append(seen - pending)
                pending = None
            if found is None:
                return
            if self._cid(found[3], found[2]) is None:
                await asyncio.sleep(0.01)
                continue
            counted = time.perf_counter() >= counted_from
            clicked = await self._click(found, out)
            if clicked is not None and counted:
                pending = clicked[0]
                out["ack"].append(clicked[1])


# -- the cases ----------------------------------------------------------------------------------------------
async def _after(delay: float, then: Awaitable[None]) -> None:
    await asyncio.sleep(delay)
    await then


async def load_case(games: int, seconds: float, stagger: float, tmp: Path, cores: Cores,
                    profile: Path | None, limits: RateLimits | None, classic: bool = False) -> dict[str, Any]:
    async with FakeDiscord(rate_limits=limits) as fake:
        guild = fake.add_guild("Bench", channels=tuple(f"mesa-{k}" for k in range(games)))
        people = [[fake.add_user(f"p{k}a", guild), fake.add_user(f"p{k}b", guild)] for k in range(games)]
        db = tmp / f"load-{games}-{time.monotonic_ns()}.db"
        reference_before = reference_ms(cores.bot)
        process = await launch_bot(fake, bot_environment(db, cores.bot_settings()), tmp / f"load-{games}.log", cores)
        try:
            await fake.wait_for(lambda: fake.connected and fake.state.command_syncs > 0, 60, "the bot")
            cores.pin_workers(process.pid)
            store = Store(db)
            watch = ChannelWatch(fake)
            tables = [Table(fake, store, watch, guild.channel(f"mesa-{k}"), people[k], classic)
                      for k in range(games)]
            await asyncio.gather(*(t.open() for t in tables))
            await workers_idle(process.pid)  # the picture workers finish warming up before the clock starts
            out: dict[str, list[float]] = {k: [] for k in ("ack", "all_acks", "board", "herd_ack", "herd_board",
                                                            "lost")}
            # Every table clicks at the same instant once: the worst burst the bot can get.
            together = asyncio.Barrier(games)
            await asyncio.gather(*(t.herd(together, out) for t in tables))
            # Then each table goes on after a pause of its own (players do not click in step across channels),
            # and the clock starts once every table is under way.
            pauses = random.Random(games)
            counted_from = time.perf_counter() + stagger
            until = counted_from + seconds
            playing = [asyncio.create_task(_after(pauses.uniform(0, stagger), t.play(counted_from, until, out)))
                       for t in tables]
            await asyncio.sleep(max(0.0, counted_from - time.perf_counter()))
            spy = py_spy(process.pid, seconds, profile / f"games-{games}.txt", cores) if profile else None
            before = Usage.of(process.pid)
            threads_before, load_before = thread_cpu_seconds(process.pid), own_cpu_seconds()
            uploads_before = watch.uploads()
            start, wall = time.perf_counter(), time.time()
            await asyncio.gather(*playing)
            elapsed = time.perf_counter() - start
            global_requests = global_requests_since(fake, wall)
            after = Usage.of(process.pid)
            threads_after, load_after = thread_cpu_seconds(process.pid), own_cpu_seconds()
            uploads = watch.uploads() - uploads_before
            if spy is not None:
                spy.wait()
            store.close()
        finally:
            await process.stop(timeout=15)
        reference = (reference_before + reference_ms(cores.bot)) / 2
        clicks = max(1, len(out["ack"]))
        bot_ms = 1000 * (after.bot_cpu_s - before.bot_cpu_s) / clicks
        workers_ms = 1000 * (after.workers_cpu_s - before.workers_cpu_s) / clicks
        return {
            "games": games,
            "seconds": round(elapsed, 1),
            "interactions": len(out["ack"]),
            "interactions_per_s": round(len(out["ack"]) / elapsed, 1),
            "ack_ms": {q: percentile(out["ack"], v) for q, v in (("p50", .5), ("p95", .95), ("p99", .99), ("max", 1))},
            "board_ms": {q: percentile(out["board"], v) for q, v in (("p50", .5), ("p95", .95), ("p99", .99))},
            "boards": len(out["board"]),
            "board_uploads_per_interaction": round(uploads / clicks, 2),
            "herd_ack_ms": {"p50": percentile(out["herd_ack"], .5), "max": percentile(out["herd_ack"], 1)},
            "herd_board_ms": {"p50": percentile(out["herd_board"], .5), "max": percentile(out["herd_board"], 1)},
            "late_acks_over_1s": sum(1 for a in out["all_acks"] if a > 1.0),
            "lost_clicks": len(out["lost"]),
            "fake_errors": len(fake.errors),
            "rate_limits": limits is not None,
            "global_requests_per_s": round(global_requests / elapsed, 1),
            "throttled_429": len(fake.rate_limiter.throttled),
            "throttled_global": sum(1 for a in fake.rate_limiter.throttled if a.scope == "global"),
            "throttled_by_route": throttled_by_route(fake),
            "invalid_requests": fake.rate_limiter.invalid_requests(),
            "cpu_ms_per_interaction": round(bot_ms + workers_ms, 2),
            "bot_cpu_ms_per_interaction": round(bot_ms, 2),
            "workers_cpu_ms_per_interaction": round(workers_ms, 2),
            "bot_loop_cpu_ms_per_interaction": round(1000 * (threads_after[0] - threads_before[0]) / clicks, 2),
            "load_cpu_ms_per_interaction": round(1000 * (load_after - load_before) / clicks, 2),
            "bot_peak_rss_mb": round(after.bot_peak_mb, 1),
            "workers_peak_rss_mb": round(after.workers_peak_mb, 1),
            "reference_ms": round(reference, 1),
        }


async def restart_case(games: int, tmp: Path, cores: Cores, limits: RateLimits | None) -> dict[str, Any]:
    async with FakeDiscord(rate_limits=limits) as fake:
        guild = fake.add_guild("Bench", channels=tuple(f"mesa-{k}" for k in range(games)))
        users = [fake.add_user(f"u{k}", guild) for k in range(games)]
        db = tmp / f"restart-{time.monotonic_ns()}.db"
        store = Store(db)
        gids = []
        for k in range(games):
            channel = guild.channel(f"mesa-{k}")
            gid = store.create_game(guild.id, channel.id, users[k].id, "turismundo", {}, seed=k)
            store.add_seat(gid, users[k].id, users[k].name)
            store.add_seat(gid, None, "Compu", "normal")
            st, events = engine.new_game("turismundo", [users[k].name, "Compu"], seed=k, computers=["", "normal"])
            store.start_game(gid, st, events)
            gids.append((gid, st.version, channel, users[k]))
        store.close()
        start = time.perf_counter()
        process = await launch_bot(fake, bot_environment(db, cores.bot_settings()), tmp / "restart.log", cores)
        try:
            await fake.wait_for(lambda: fake.connected, 60, "the gateway connection")
            cores.pin_workers(process.pid)
            connected = time.perf_counter() - start
            replies = []
            for gid, version, channel, user in gids:
                data = {"custom_id": ids.make(gid, version, "status"), "component_type": 2}
                replies.append(await fake.forge(user, channel, data, kind="component"))
            forged = time.perf_counter() - start
            answered = 0
            for reply in replies:
                try:
                    await reply.wait(30)
                    answered += 1
                except (TimeoutError, AssertionError):
                    pass
            total = time.perf_counter() - start
            usage = Usage.of(process.pid)
        finally:
            await process.stop(timeout=15)
        return {
            "restart_open_games": games,
            "connected_s": round(connected, 2),
            "all_buttons_answered_s": round(total, 2),
            "after_connection_s": round(total - connected, 2),
            "clicks_sent_after_connection_s": round(forged - connected, 2),
            "answered": answered,
            "rate_limits": limits is not None,
            "throttled_429": len(fake.rate_limiter.throttled),
            "bot_peak_rss_mb": round(usage.bot_peak_mb, 1),
        }


async def main_async(args: argparse.Namespace) -> None:
    cores = (Cores.parse(args.bot_cpus, args.load_cpus, args.workers_cpus) if args.bot_cpus
             else Cores() if args.no_pin else Cores.split())
    cores.pin_load()
    limits = None if args.no_rate_limits else RateLimits()
    print(f"# {cores.describe()}; {args.runs} run(s) per case, medians; {describe_limits(limits)}",
          file=sys.stderr)
    with tempfile.TemporaryDirectory(prefix="turista-e2e-") as folder:
        tmp = Path(folder)
        for games in args.games:
            runs = []
            for run in range(args.runs):
                profile = args.profile if args.profile and run == 0 else None
                runs.append(await load_case(games, args.seconds, args.stagger, tmp, cores, profile, limits,
                                            args.classic))
                print(f"# {json.dumps(runs[-1])}", file=sys.stderr, flush=True)
            print(json.dumps(median_of(runs)), flush=True)
        if args.restart:
            runs = []
            for _ in range(args.runs):
                runs.append(await restart_case(args.restart, tmp, cores, limits))
                print(f"# {json.dumps(runs[-1])}", file=sys.stderr, flush=True)
            print(json.dumps(median_of(runs)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=lambda s: [int(x) for x in s.split(",") if x], default=[1, 10, 50])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--stagger", type=float, default=1.5,
                        help="seconds over which the tables' pauses after the burst are spread (a computer turn's)")
    parser.add_argument("--runs", type=int, default=3, help="runs per case; each figure is their median")
    parser.add_argument("--restart", type=int, default=1000, help="open games for the restart case; 0: skip it")
    parser.add_argument("--bot-cpus", default="", help="cores of the bot and its workers, e.g. 1 (default: the last)")
    parser.add_argument("--load-cpus", default="", help="cores of the fake Discord and the players (default: the rest)")
    parser.add_argument("--workers-cpus", default="",
                        help="cores of the bot's picture workers, one worker each (default with --bot-cpus: the bot's)")
    parser.add_argument("--no-pin", action="store_true", help="let the bot and the load share every core")
    parser.add_argument("--classic", action="store_true", help="the classic embed table (house rule classic_table)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="a folder: py-spy samples the bot and its workers during each case's first run")
    parser.add_argument("--no-rate-limits", action="store_true",
                        help="the fake Discord without its rate limits (on by default, as Discord's), to compare")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()

"""The real bot under load: N games at once against the bundled fake Discord, and a restart with many games.

    python bench/e2e.py [--games 1,10,50] [--seconds 30] [--restart 1000]

Starts `python -m bot` (production settings: pictures in worker processes, computer seats thinking 1.5 s,
SQLite) through the fake's launcher, opens N tables in N channels (two people and one computer seat each)
and lets the people act as fast as the bot answers: each person clicks as soon as the table shows that the
game waits for them. Prints one JSON line per N:

    interactions_per_s, ack_ms {p50, p95, p99, max}, board_ms {p50, p95, p99} (click -> the message that carries
    the new board), clicks, boards, late_acks (> 1 s), bot_cpu_ms_per_interaction (the bot process),
    workers_cpu_ms_per_interaction (its picture processes), bot_peak_rss_mb, workers_peak_rss_mb

and, with --restart, one line for a bot started on a database of that many open games: the time from the
process start to the gateway connection (discord.py's own part), and to every game having answered a click
on its table's status button.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

# This script's folder is not a package: make the repository importable when it is run by path.
ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import engine  # noqa: E402
from bot import ids  # noqa: E402
from bot.store import Store  # noqa: E402
from engine import State  # noqa: E402
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser  # noqa: E402

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


# -- the bot process ----------------------------------------------------------------------------------------
def _env(db: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TURISTA_", "DISCORD_"))}
    env.update({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "bench-token", "TURISTA_DB": str(db),
                "TURISTA_LOG_LEVEL": "WARNING"})
    return env


async def _launch(fake: FakeDiscord, db: Path, log: Path) -> asyncio.subprocess.Process:
    with log.open("ab") as out:
        return await asyncio.create_subprocess_exec(
            sys.executable, "-m", "fakediscord.launch", "--api", fake.base_url, "--gateway", fake.gateway_url,
            "--", "bot", cwd=ROOT, env=_env(db), stdout=out, stderr=out,
        )


async def _stop(process: asyncio.subprocess.Process) -> None:
    if process.returncode is None:
        process.send_signal(signal.SIGINT)
        try:
            await asyncio.wait_for(process.wait(), 15)
        except TimeoutError:
            process.kill()
            await process.wait()


def _children(pid: int) -> list[int]:
    out: list[int] = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return out


def _cpu_s(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def _peak_rss_mb(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _usage(pid: int) -> tuple[float, float, float, float]:
    """(bot CPU s, workers CPU s, bot peak RSS MB, workers peak RSS MB); workers are the bot's children."""
    kids = [k for k in _children(pid) if k != pid]
    return (_cpu_s(pid), sum(_cpu_s(k) for k in kids), _peak_rss_mb(pid), sum(_peak_rss_mb(k) for k in kids))


# -- watching what the bot sends ----------------------------------------------------------------------------
class Boards:
    """When each message carrying a new board arrived, by channel (the fake is patched to tell)."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.times: dict[int, list[float]] = {}
        state = fake.state
        create, edit = state.create_message, state.edit_message

        def seen(channel_id: int, uploads: list) -> None:
            if any(name == "board.png" for name, _ in uploads):
                self.times.setdefault(channel_id, []).append(time.perf_counter())

        async def create_message(channel, author, payload, uploads, **kw):  # type: ignore[no-untyped-def]
            message = await create(channel, author, payload, uploads, **kw)
            seen(channel.id, uploads)
            return message

        async def edit_message(message, payload, uploads):  # type: ignore[no-untyped-def]
            await edit(message, payload, uploads)
            seen(message.channel.id, uploads)

        state.create_message = create_message  # type: ignore[method-assign]
        state.edit_message = edit_message  # type: ignore[method-assign]

    def first_after(self, channel_id: int, t: float) -> float | None:
        return next((x for x in self.times.get(channel_id, []) if x >= t), None)


# -- one table ----------------------------------------------------------------------------------------------
class Table:
    def __init__(self, fake: FakeDiscord, store: Store, channel: FakeChannel, people: list[FakeUser]) -> None:
        self.fake, self.store, self.channel, self.people = fake, store, channel, people
        self.gid = 0

    def _bot_messages(self) -> list[FakeMessage]:
        return [m for m in self.fake.messages(self.channel, include_ephemeral=False)
                if m.author.id == self.fake.bot_user.id]

    def _with_verb(self, verb: str) -> FakeMessage | None:
        for message in reversed(self._bot_messages()):
            if any((p := ids.parse(c)) and p.verb == verb for c in message.custom_ids()):
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
        lobby = reply.message
        await (await self.fake.click(guest, lobby, self._cid(lobby, "join"))).wait(10)
        await (await self.fake.click(host, lobby, self._cid(lobby, "addbot"))).wait(10)
        await (await self.fake.click(host, lobby, self._cid(lobby, "start"))).wait(10)
        row = self.store.game_by_channel(self.channel.id)
        assert row is not None
        self.gid = row.id

    def _waiting(self) -> tuple[State, int, str, FakeMessage] | None:
        """(state, person's seat, verb, message) when the table shows the latest version and waits for a person."""
        row = self.store.game(self.gid)
        st = row.state
        if st is None or st.phase == "over":
            return None
        machine = {s.seat for s in row.seats if s.computer} | {i for i, s in enumerate(st.seats) if s.computer}
        table = self._with_verb("status")
        if table is None or self._version(table) != st.version:
            return None
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

    async def play(self, until: float, boards: Boards, out: dict[str, list[float]]) -> None:
        while time.perf_counter() < until:
            try:
                st, seat, verb, message = await self.fake.wait_for(self._waiting, max(0.1, until - time.perf_counter()),
                                                                   "a person's turn")
            except TimeoutError:
                return
            cid = self._cid(message, verb)
            if cid is None:
                await asyncio.sleep(0.01)
                continue
            start = time.perf_counter()
            reply = await self.fake.click(self._user(seat), message, cid)
            try:
                await reply.wait(10)
            except (TimeoutError, AssertionError):
                out["lost"].append(1)
                continue
            out["ack"].append(time.perf_counter() - start)
            try:
                await self.fake.wait_for(
                    lambda v=st.version, r=reply: self.store.game(self.gid).version > v or r.followups, 10, "the move"
                )
                await self.fake.wait_for(lambda: self._waiting() is not None or time.perf_counter() > until
                                         or self.store.game(self.gid).status != "active", 15, "the table")
            except TimeoutError:
                pass
            seen = boards.first_after(self.channel.id, start)
            if seen is not None:
                out["board"].append(seen - start)
            out["clicks"].append(1)


async def _workers_idle(pid: int, timeout: float = 60.0) -> None:
    """Until the bot's picture workers have used no CPU for a second (their warm-up is over)."""
    deadline = time.perf_counter() + timeout
    before = _usage(pid)[1]
    while time.perf_counter() < deadline:
        await asyncio.sleep(1.0)
        now = _usage(pid)[1]
        if now - before < 0.05:
            return
        before = now


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return round(1000 * values[min(len(values) - 1, int(q * len(values)))], 1)


async def load_case(games: int, seconds: float, tmp: Path) -> dict[str, Any]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench", channels=tuple(f"mesa-{k}" for k in range(games)))
        people = [[fake.add_user(f"p{k}a", guild), fake.add_user(f"p{k}b", guild)] for k in range(games)]
        db = tmp / f"load-{games}.db"
        process = await _launch(fake, db, tmp / f"load-{games}.log")
        try:
            await fake.wait_for(lambda: fake.connected and fake.state.command_syncs > 0, 60, "the bot")
            store = Store(db)
            boards = Boards(fake)
            tables = [Table(fake, store, guild.channel(f"mesa-{k}"), people[k]) for k in range(games)]
            await asyncio.gather(*(t.open() for t in tables))
            await _workers_idle(process.pid)  # the picture workers finish warming up before the clock starts
            out: dict[str, list[float]] = {"ack": [], "board": [], "clicks": [], "lost": []}
            cpu0 = _usage(process.pid)
            start = time.perf_counter()
            await asyncio.gather(*(t.play(start + seconds, boards, out) for t in tables))
            elapsed = time.perf_counter() - start
            cpu1 = _usage(process.pid)
            store.close()
        finally:
            await _stop(process)
        clicks = max(1, len(out["ack"]))
        return {
            "games": games,
            "seconds": round(elapsed, 1),
            "interactions": len(out["ack"]),
            "interactions_per_s": round(len(out["ack"]) / elapsed, 1),
            "ack_ms": {"p50": _pct(out["ack"], 0.5), "p95": _pct(out["ack"], 0.95), "p99": _pct(out["ack"], 0.99),
                       "max": _pct(out["ack"], 1.0)},
            "board_ms": {"p50": _pct(out["board"], 0.5), "p95": _pct(out["board"], 0.95),
                         "p99": _pct(out["board"], 0.99), "boards": len(out["board"])},
            "late_acks_over_1s": sum(1 for a in out["ack"] if a > 1.0),
            "lost_clicks": len(out["lost"]),
            "fake_errors": len(fake.errors),
            "bot_cpu_ms_per_interaction": round(1000 * (cpu1[0] - cpu0[0]) / clicks, 2),
            "workers_cpu_ms_per_interaction": round(1000 * (cpu1[1] - cpu0[1]) / clicks, 2),
            "bot_peak_rss_mb": round(cpu1[2], 1),
            "workers_peak_rss_mb": round(cpu1[3], 1),
        }


async def restart_case(games: int, tmp: Path) -> dict[str, Any]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Bench", channels=tuple(f"mesa-{k}" for k in range(games)))
        users = [fake.add_user(f"u{k}", guild) for k in range(games)]
        db = tmp / "restart.db"
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
        process = await _launch(fake, db, tmp / "restart.log")
        try:
            await fake.wait_for(lambda: fake.connected, 60, "the gateway connection")
            connected = time.perf_counter() - start
            replies = []
            for gid, version, channel, user in gids:
                data = {"custom_id": ids.make(gid, version, "status"), "component_type": 2}
                replies.append(await fake.forge(user, channel, data, kind="component"))
            answered = 0
            for reply in replies:
                try:
                    await reply.wait(30)
                    answered += 1
                except (TimeoutError, AssertionError):
                    pass
            total = time.perf_counter() - start
            usage = _usage(process.pid)
        finally:
            await _stop(process)
        return {
            "restart_open_games": games,
            "connected_s": round(connected, 2),
            "all_buttons_answered_s": round(total, 2),
            "after_connection_s": round(total - connected, 2),
            "answered": answered,
            "bot_peak_rss_mb": round(usage[2], 1),
        }


async def main_async(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory(prefix="turista-e2e-") as folder:
        tmp = Path(folder)
        for games in args.games:
            print(json.dumps(await load_case(games, args.seconds, tmp)), flush=True)
        if args.restart:
            print(json.dumps(await restart_case(args.restart, tmp)), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=lambda s: [int(x) for x in s.split(",") if x], default=[1, 10, 50])
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--restart", type=int, default=1000, help="open games for the restart case; 0: skip it")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()

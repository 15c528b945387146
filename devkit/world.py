"""People at a table of the real bot: `python -m bot` in its own process against the fake Discord on loopback
(`fakediscord`'s launcher), with people clicking and typing through it. The end-to-end and fault tests play
with it, and so do the benchmarks that run whole bots (`bench/shards.py`, `bench/kill_loop.py`).
"""

from __future__ import annotations

import asyncio
import os
import re
import signal
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bot.face import ids
from bot.store import GameRow, Store
from bot.table.computers import ends_by_itself
from engine import State, legal_actions
from fakediscord import FakeChannel, FakeDiscord, FakeGuild, FakeMessage, FakeUser, Reply
from fakediscord.models import IS_COMPONENTS_V2
from fakediscord.process import BotProcess
from fakediscord.ratelimits import DEFAULT as DISCORD_RATE_LIMITS
from fakediscord.ratelimits import RateLimits

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SEED = 7


@dataclass
class Bot:
    """`python -m bot` on the fake (all of the gateway's shards, or `shards` of `shard_count`), started, stopped
    and killed as a deploy or a crash would; its output appended to `log_path` across restarts."""

    fake: FakeDiscord
    db_path: Path
    log_path: Path
    env: dict[str, str]
    process: BotProcess | None = None
    shards: tuple[int, ...] = ()  # the gateway shards it runs (of `shard_count`); () for an unsharded bot
    shard_count: int = 1

    def online(self) -> bool:
        """Whether the fake sees this process connected (every one of its shards)."""
        if not self.shards:
            return self.fake.connected
        return self.fake.shards_connected(*self.shards, count=self.shard_count)

    def offline(self) -> bool:
        if not self.shards:
            return not self.fake.connected
        return not any(self.fake.shards_connected(s, count=self.shard_count) for s in self.shards)

    async def start(self, cpus: frozenset[int] = frozenset()) -> None:
        """Start the process, and wait until it has connected: by then its commands are registered (the bot
        registers them before it connects, and a restart sends none when they have not changed)."""
        self.process = await self.fake.launch("bot", log_path=self.log_path, env=self.env, cwd=ROOT, cpus=cpus,
                                              inherit=False)
        await self.fake.wait_for(lambda: self.fake.state.command_syncs > 0 and self.online(),
                                 timeout=20, what="the bot to register its commands and connect")

    async def stop(self, signum: int = signal.SIGINT) -> None:
        if self.process is None or not self.process.running:
            return
        await self.process.stop(signum=signum, timeout=10)
        await self.fake.wait_for(self.offline, timeout=5, what="the bot to disconnect")

    async def kill(self) -> None:
        """Stop the process abruptly, as a crash or a deploy would."""
        assert self.process is not None
        await self.process.kill()
        await self.fake.wait_for(self.offline, timeout=5, what="the bot to disconnect")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""


@dataclass
class World:
    fake: FakeDiscord
    guild: FakeGuild
    channel: FakeChannel
    other: FakeChannel
    ana: FakeUser
    beto: FakeUser
    carl: FakeUser
    dora: FakeUser
    bot: Bot
    store: Store

    # -- reading the game ---------------------------------------------------------------------------
    def row(self, channel: FakeChannel | None = None) -> GameRow | None:
        return self.store.game_by_channel((channel or self.channel).id)

    def game(self, gid: int) -> GameRow:
        return self.store.game(gid)

    def bot_messages(self, channel: FakeChannel | None = None) -> list[FakeMessage]:
        return [m for m in self.fake.messages(channel or self.channel, include_ephemeral=False, threads=True)
                if m.author.id == self.fake.bot_user.id]

    def with_verb(self, verb: str, channel: FakeChannel | None = None) -> FakeMessage | None:
        for message in reversed(self.bot_messages(channel)):
            if any((p := ids.parse(c)) and p.verb == verb for c in message.custom_ids()):
                return message
        return None

    def table(self, channel: FakeChannel | None = None) -> FakeMessage | None:
        """The live table message: the newest one with the status button (old tables lose their buttons)."""
        return self.with_verb("status", channel)

    @staticmethod
    def custom_id(message: FakeMessage, verb: str) -> str:
        for cid in message.custom_ids():
            parsed = ids.parse(cid)
            if parsed and parsed.verb == verb:
                return cid
        raise LookupError(f"no {verb!r} component on message {message.id}: {message.custom_ids()}")

    @staticmethod
    def custom_id_for(message: FakeMessage, verb: str, arg: str) -> str:
        for cid in message.custom_ids():
            parsed = ids.parse(cid)
            if parsed and parsed.verb == verb and parsed.arg == arg:
                return cid
        raise LookupError(f"no {verb}:{arg} component on message {message.id}: {message.custom_ids()}")

    @staticmethod
    def version_of(message: FakeMessage) -> int:
        parsed = [ids.parse(c) for c in message.custom_ids()]
        return max(p.version for p in parsed if p)

    async def settled(self, gid: int, channel: FakeChannel | None = None, timeout: float = 15.0) -> State:
        """Wait until the game waits for a person and the messages show the latest version."""
        channel = channel or self.channel

        def ready() -> State | None:
            row = self.store.game(gid)
            st = row.state
            if st is None:
                return None
            if st.phase == "over":
                announced = any(a.filename == "summary.png" for m in self.bot_messages(channel) for a in m.attachments)
                return st if announced else None
            # A seat plays itself if it is a computer's, or a computer took it over from a person.
            machine = {s.seat for s in row.seats if s.computer} | {i for i, s in enumerate(st.seats) if s.computer}
            people = [s for s in st.seat_to_act() if s not in machine]
            if st.trade is not None and st.trade.target not in machine:
                people.append(st.trade.target)
            if not people or (st.current in people and ends_by_itself(st) is not None):
                return None  # the bot moves next (a computer, or a turn that ends by itself)
            if st.auction is not None and any(s in machine and s != st.auction.bidder for s in st.auction.active):
                return None  # a computer still has to bid or withdraw
            table = self.table(channel)
            if table is None or self.version_of(table) != st.version:
                return None
            if st.auction is not None:
                auction = self.with_verb("pass_bid", channel)
                if auction is None or self.version_of(auction) != st.version:
                    return None
            if st.trade is not None:
                offer = self.with_verb("accept_trade", channel)
                if offer is None or self.version_of(offer) != st.version:
                    return None
            return st

        return await self.fake.wait_for(ready, timeout, f"game {gid} to wait for a person")

    def user_of(self, gid: int, seat: int) -> FakeUser:
        row = self.store.game(gid)
        user_id = next(s.user_id for s in row.seats if s.seat == seat)
        return self.fake.state.users[user_id]

    @staticmethod
    async def eventually(predicate: Callable[[], Any], timeout: float = 5.0, what: str = "a condition") -> Any:
        """Poll `predicate` (for things only the database shows, which the fake is not told about)."""
        async with asyncio.timeout(timeout):
            while not (result := predicate()):
                await asyncio.sleep(0.02)
        if not result:
            raise AssertionError(f"never happened: {what}")
        return result

    # -- acting ---------------------------------------------------------------------------------------
    async def click(self, user: FakeUser, message: FakeMessage, verb: str) -> Reply:
        reply = await self.fake.click(user, message, self.custom_id(message, verb))
        return await reply.wait()

    async def act(self, gid: int, user: FakeUser, message: FakeMessage, verb: str) -> Reply:
        """Click a button that plays a move, and wait until the move is recorded: a click answered by its
        message's edit (7) comes after the move, a deferred one (6) may come before."""
        before = self.store.game(gid).version
        reply = await self.click(user, message, verb)
        assert reply.response_type in (6, 7), f"{verb}: {reply.content}"
        try:
            await self.fake.wait_for(lambda: self.store.game(gid).version > before or reply.followups, timeout=10,
                                     what=f"the {verb} of game {gid} to be applied")
        except TimeoutError:
            recent = [(m.id, m.content[-120:], m.custom_ids()) for m in self.fake.messages(message.channel)[-3:]]
            raise AssertionError(f"{verb} not applied: version {self.store.game(gid).version}, {recent}") from None
        assert not reply.followups, reply.followups[0].content
        return reply

    async def slash(self, who: FakeUser, command: str, channel: FakeChannel | None = None,
                    **options: Any) -> Reply:
        """A slash command and its answer; after "thinking…", the answer that replaced it (or followed)."""
        reply = await (await self.fake.slash(who, channel or self.channel, command, options=options)).wait()
        if reply.response_type == 5:
            await self.fake.wait_for(lambda: reply.message is None or not reply.message.loading
                                     or reply.message.deleted or reply.followups, timeout=15,
                                     what=f"the answer to /{command} after thinking")
        return reply

    async def open_table(self, host: FakeUser, guests: list[FakeUser], computers: int = 0,
                         channel: FakeChannel | None = None, **options: Any) -> int:
        """`/turista new`, the guests press Join, computers are added; returns the game id (not started)."""
        channel = channel or self.channel
        reply = await self.slash(host, "turista new", channel, **options)
        assert reply.message is not None and not reply.ephemeral, reply.content
        lobby = reply.message
        row = self.row(channel)
        assert row is not None and row.status == "lobby"
        for seats, guest in enumerate(guests, 2):
            answer = await self.click(guest, lobby, "join")
            assert answer.response_type in (6, 7) and not answer.followups, answer.content
            await self.lobby_shows(lobby, seats)
        for seats in range(len(guests) + 2, len(guests) + 2 + computers):
            await self.click(host, lobby, "addbot")
            await self.lobby_shows(lobby, seats)
        return row.id

    async def lobby_shows(self, lobby: FakeMessage, seats: int) -> None:
        """Wait until the lobby message counts `seats` players (a click on it is answered before the write
        and the edit)."""
        await self.fake.wait_for(lambda: f"({seats}/6)" in lobby.text, timeout=10,
                                 what=f"the lobby to show {seats} players")

    async def seated(self, gid: int, user_id: int) -> None:
        """Wait until the person's seat is stored (a click on the lobby is answered before the write)."""
        await self.eventually(lambda: self.game(gid).seat_of(user_id) is not None, what=f"{user_id} to sit down")

    async def start(self, gid: int, host: FakeUser, channel: FakeChannel | None = None) -> State:
        channel = channel or self.channel
        lobby = next(m for m in reversed(self.bot_messages(channel)) if self.custom_id_or_none(m, "start"))
        await self.click(host, lobby, "start")
        return await self.settled(gid, channel)

    def custom_id_or_none(self, message: FakeMessage, verb: str) -> str | None:
        try:
            return self.custom_id(message, verb)
        except LookupError:
            return None

    async def play_turn_step(self, gid: int, st: State, channel: FakeChannel | None = None,
                             buy: Callable[[State], bool] = lambda st: True) -> None:
        """One decision of whichever person the game waits for, as a cautious player makes it."""
        channel = channel or self.channel
        row = self.store.game(gid)
        machine = {s.seat for s in row.seats if s.computer} | {i for i, s in enumerate(st.seats) if s.computer}
        if st.trade is not None and st.trade.target not in machine:
            offer = self.with_verb("reject_trade", channel)
            assert offer is not None
            await self.act(gid, self.user_of(gid, st.trade.target), offer, "reject_trade")
            return
        if st.debts:
            debtor = st.debts[0].debtor
            if any(a.kind == "bankrupt" for a in legal_actions(st, debtor)):
                # The table's button asks once more, privately; the confirmation declares it.
                asked = await self.click(self.user_of(gid, debtor), self.table(channel), "bankrupt")  # type: ignore[arg-type]
                assert asked.message is not None and asked.ephemeral, asked.content
                await self.act(gid, self.user_of(gid, debtor), asked.message, "bankrupt_yes")
            else:
                await self.raise_money(gid, debtor, channel)
            return
        if st.auction is not None:
            auction = self.with_verb("pass_bid", channel)
            assert auction is not None
            seat = next(s for s in st.auction.active if s not in machine and s != st.auction.bidder)
            await self.act(gid, self.user_of(gid, seat), auction, "pass_bid")
            return
        table = self.table(channel)
        assert table is not None
        user = self.user_of(gid, st.current)
        verbs = {p.verb for p in (ids.parse(c) for c in table.custom_ids()) if p}
        disabled = {ids.parse(c["custom_id"]).verb for c in table.all_components()  # type: ignore[union-attr]
                    if c.get("disabled") and "custom_id" in c}
        if "buy" in verbs and "buy" not in disabled and buy(st):
            verb = "buy"
        elif "decline" in verbs:
            verb = "decline"
        elif "pay_fine" in verbs:
            verb = "pay_fine"
        elif "roll" in verbs:
            verb = "roll"
        else:
            verb = "end_turn"
        await self.act(gid, user, table, verb)

    async def raise_money(self, gid: int, seat: int, channel: FakeChannel | None = None) -> None:
        """Sell back or mortgage the first thing the table's menus offer, as a debtor who may not declare
        bankruptcy yet (selling and mortgaging would still pay the debt) does."""
        table = self.table(channel)
        assert table is not None
        user = self.user_of(gid, seat)
        menus = [ids.parse(c) for c in table.custom_ids()]
        kind = next((k for k in ("sell", "mortgage", "sell_title") if any(
            p and p.verb == "menu" and p.arg == k for p in menus)), None)
        assert kind is not None, f"nothing to raise money with on {table.custom_ids()}"
        menu = await self.fake.click(user, table, self.custom_id_for(table, "menu", kind))
        await menu.wait()
        assert menu.message is not None, menu.content
        value = menu.message.component(type=3)["options"][0]["value"]
        before = self.store.game(gid).version
        await (await self.fake.select(user, menu.message, menu.message.custom_ids()[0], [value]))
        await self.eventually(lambda: self.store.game(gid).version > before, what=f"the {kind} to be applied")

    async def play_until(self, gid: int, done: Callable[[State], bool], channel: FakeChannel | None = None,
                         steps: int = 2000, timers: bool = False, **kwargs: Any) -> State:
        """Play cautious moves until `done`. With `timers`, a click that a timer beat to it (answered
        "outdated") is simply made again on the new table, as a person would."""
        for _ in range(steps):
            st = await self.settled(gid, channel)
            if done(st) or st.phase == "over":
                return st
            try:
                await self.play_turn_step(gid, st, channel, **kwargs)
            except AssertionError as error:
                if not (timers and "vigente" in str(error)):
                    raise
        raise AssertionError(f"the condition was not reached in {steps} steps")


MENTIONS_ONLY = re.compile(r"(<@!?\d+>\s*)+")
MENTION = re.compile(r"<@!?(\d+)>")


REMINDER = re.compile(r"⏰ <@\d+>")  # how a reminder begins: the clock, then whom it is for


def not_embeds(fake: FakeDiscord) -> list[str]:
    """Every public message of the bot is an embed or a Components V2 layout: what breaks that rule. Text outside
    an embed is only the mention of whom the message pings, in every version the message had; an embed's picture
    (`attachment://name`) is an attachment the message carries, and so is a layout's (a Media Gallery's or a
    thumbnail's); every picture carries its alt text (the attachment's description). A correspondence game's
    reminder is the one message in plain words (`REMINDER`): a push notification shows a message's content, never
    its embed."""
    problems = []
    for message in sorted(fake.state.messages.values(), key=lambda m: m.id):
        if message.author.id != fake.bot_user.id or message.ephemeral or message.loading:
            continue
        if not message.embeds and REMINDER.match(message.content or ""):
            continue
        v2 = bool(message.flags & IS_COMPONENTS_V2)
        if not message.embeds and not v2 and not _plain_ping(message, message.content):
            problems.append(f"no embed: {message!r}")
        for payload in message.history:
            content = payload.get("content") or ""
            if content and not MENTIONS_ONLY.fullmatch(content.strip()) and not _plain_ping(message, content):
                problems.append(f"text outside the embed: {content[:80]!r} in {message!r}")
        names = {a.filename for a in message.attachments}
        urls = [str((embed.get("image") or {}).get("url") or "") for embed in message.embeds]
        urls += [str((c.get("media") or {}).get("url") or "") for c in message.all_components() if c.get("type") == 11]
        urls += [str((item.get("media") or {}).get("url") or "") for c in message.all_components()
                 if c.get("type") == 12 for item in c.get("items") or []]
        for url in urls:
            if url.startswith("attachment://") and url.removeprefix("attachment://") not in names:
                problems.append(f"picture {url} not attached: {message!r}")
        for attachment in message.attachments:
            if not attachment.description:
                problems.append(f"picture {attachment.filename} without alt text: {message!r}")
    return problems


def _plain_ping(message: FakeMessage, content: str) -> bool:
    """A turn's ping beside a layout table (a mention in a Components V2 message notifies with an empty text):
    a plain message that pings the one person it mentions and says what for."""
    mentioned = set(MENTION.findall(content))
    return (not message.embeds and not message.components and len(mentioned) == 1
            and set(map(str, message.pings().users)) == mentioned and bool(MENTION.sub("", content).strip(" ,.")))


# The settings of a bot under test: no pause for computer seats, a fixed seed, pictures drawn in a thread of the
# bot (worker processes would warm up every edition at each start).
TEST_SETTINGS = {
    "TURISTA_TEST_FAST": "1", "TURISTA_SEED": str(DEFAULT_SEED), "TURISTA_AUCTION_QUIET": "30",
    "TURISTA_RENDER_WORKERS": "0", "TURISTA_LOG_LEVEL": "INFO",
}
# Discord's rate limits on a test's clock: a bot under `TEST_SETTINGS` plays its computer seats at once (a bot in
# production waits 1.5 s a move), so its games run many times faster than people play, and at Discord's own
# windows a game of 150 turns would spend minutes waiting for its channel's buckets. Each bucket keeps its size,
# headers and 429s, its window a tenth as long. The tests that are about the limits (tests/e2e/test_throttled.py,
# the fake's own) hold the bot to Discord's windows as they are.
TEST_CLOCK = 0.1
TEST_RATE_LIMITS: RateLimits = DISCORD_RATE_LIMITS.on_clock(TEST_CLOCK)


def bot_environment(db: Path | str, extra: dict[str, str] | None = None) -> dict[str, str]:
    """A bot's environment on database `db`: production settings (none of the caller's TURISTA_* or DISCORD_*
    variables leaks in), then `extra` (`TEST_SETTINGS` for a test). A database file's folder holds the bot's
    cache too: a bot under test learns what it keeps there on its own, not from the user's cache."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TURISTA_", "DISCORD_"))}
    env.update({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "fake-token", "TURISTA_DB": str(db)})
    if "://" not in str(db):
        env["TURISTA_CACHE"] = str(Path(db).parent / "cache")
    env.update(extra or {})
    return env


def assert_clean(process: Bot) -> None:
    """The process logged no error and never its token."""
    log = process.log()
    errors = [line for line in log.splitlines() if " ERROR " in line or "Traceback" in line]
    assert not errors, log[-6000:]
    assert process.env["DISCORD_TOKEN"] not in log, "the token was logged"

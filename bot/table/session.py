"""One session per channel: the game in memory, a lock that serialises its actions, and the messages.

Every action, whoever sends it (a person, a computer seat, a timer), goes through `Session.act` under the
lock: the engine applies it, the store records it in a worker thread, then the table is updated. Games in
different channels have different sessions and never wait for each other.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

import discord

from bot.config import Config
from bot.face import buttons, components, embeds, threads
from bot.face.i18n import t
from bot.face.publisher import PUBLISH_ERRORS, Publisher
from bot.face.replies import ClickAnswer
from bot.pictures import pool
from bot.store import GameRow, SeatRow, StaleVersion, Store, StoreError
from bot.table import computers
from bot.table.backoff import Backoff, transient
from bot.table.draft import Draft
from bot.table.reading import read
from bot.table.writing import Writer
from engine import SYSTEM, Action, IllegalAction, State, edition_of, refusal
from engine import apply as engine_apply
from engine.i18n import language_of
from engine.rules import standings
from engine.state import Standing

log = logging.getLogger("turista.game")
MAX_COMPUTER_MOVES = 400  # a safety net: computers never keep a table busy forever
AFK_LIMIT = 3  # decisions in a row played for an absent person before a computer takes their seat
LOBBY_EVERY = 60.0  # seconds between two updates of the game's state on its lobby message
HEAL_FIRST = 2.0  # seconds before messages Discord refused are tried again, doubling up to HEAL_LONGEST
HEAL_LONGEST = 60.0
RESTORE_AT_ONCE = 4  # games whose messages start-up brings up to date at the same time


def events_line(events: list[dict]) -> str:
    """The events of an action on one log line, as recorded: `code key=value …; code …`."""
    return "; ".join(" ".join([event["code"], *(f"{k}={v}" for k, v in event.items() if k != "code")])
                     for event in events)


class Host(Protocol):
    """What sessions need of the Discord client that serves them (`bot.client.TuristaBot`)."""

    config: Config
    store: Store
    writes: Writer
    sessions: Sessions

    def get_guild(self, id: int, /) -> discord.Guild | None: ...

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,
                                type: discord.ChannelType | None = None) -> discord.PartialMessageable: ...


class Session:
    def __init__(self, bot: Host, row: GameRow) -> None:
        self.bot = bot
        self.row = row
        self.gid = row.id
        self.channel_id = row.channel_id
        self.lock = bot.sessions.lock_for(row.channel_id)
        self.state: State | None = row.state
        self.publisher = Publisher(self)
        self.timers: dict[str, asyncio.Task[None]] = {}
        self.driver: asyncio.Task[None] | None = None
        self.healing: asyncio.Task[None] | None = None  # messages being put right after Discord failed
        self.warned = -1  # the version at which the seat to act was last warned
        self.played_for = -1  # the version for which "played for…" was last said
        self.absences: dict[int, int] = {}  # seat -> decisions in a row the clock made for it
        self.closed = False
        self.drafts: dict[int, Draft] = {}  # person -> the trade offer they are putting together, unsent
        self.lobby_shown = 0.0  # when the lobby message last showed the game's state (monotonic)
        guild = bot.get_guild(row.guild_id)
        self.lang = language_of(str(guild.preferred_locale)) if guild else "es"

    # -- who is who ---------------------------------------------------------------------------------
    @property
    def seats(self) -> list[SeatRow]:
        return self.row.seats

    def seat_of(self, user_id: int) -> int | None:
        return self.row.seat_of(user_id)

    def user_of(self, seat: int) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)

    def plays_itself(self, seat: int) -> str:
        """The computer level playing `seat` ("" for a person): a computer seat, or one taken over from
        someone who stayed away."""
        st = self.state
        if st is not None and st.seats[seat].computer:
            return st.seats[seat].computer
        return next((s.computer for s in self.seats if s.seat == seat), "")

    @property
    def channel(self) -> discord.PartialMessageable:
        """Where the game's messages go: its thread, else its channel."""
        return self.bot.get_partial_messageable(self.row.where, guild_id=self.row.guild_id)

    def plays_in(self, channel_id: int | None) -> bool:
        """Whether an interaction from `channel_id` is at this game's table (its channel or its thread)."""
        return channel_id is not None and channel_id in (self.channel_id, self.row.thread_id)

    def show_progress(self, st: State) -> None:
        """Now and then, the lobby message in the channel tells how the game goes (in the background: no
        click waits for it)."""
        now = time.monotonic()
        if "lobby" not in self.row.messages or now - self.lobby_shown < LOBBY_EVERY:
            return
        self.lobby_shown = now
        self._show_in_lobby(threads.progress(self.row, st, self.lang))

    def _show_in_lobby(self, line: str) -> None:
        self.bot.sessions.spawn(threads.show_in_lobby(self.bot, self.row, self.lang, line),
                                f"turista-lobby-{self.gid}")

    # -- applying ------------------------------------------------------------------------------------
    def check(self, action: Action, version: int | None = None) -> tuple[str, dict[str, Any]] | None:
        """Why `action` cannot be applied now (error code and parameters), without changing anything."""
        st = self.state
        if st is None or self.closed:
            return "no_game", {}
        if version is not None and version != st.version:
            return "outdated", {}
        return refusal(st, edition_of(st), action)

    async def act(self, action: Action, actor: int | None, answer: ClickAnswer | None = None) -> list[dict]:
        """Apply `action` (the lock must be held); raises IllegalAction, StaleVersion or StoreError. `answer`:
        the click that asked for it, answered by the edit of the message clicked (see `ClickAnswer`)."""
        st = self.state
        assert st is not None and self.lock.locked()
        new_state, events = engine_apply(st, action)
        # The next decision's deadline is saved with the action, so a restart resumes the same clock.
        delay = self.decision_delay(new_state)
        deadline = None if delay is None else time.time() + delay
        posting = self.publisher.posts_ahead(events)
        await self.bot.writes(self.bot.store.apply, self.gid, st.version, actor, action, events, new_state,
                              deadline=deadline, shown=list(self.publisher.unrecorded.values()), posting=posting)
        self.publisher.unrecorded.clear()
        self.publisher.marked(posting, new_state.version)
        self.row.deadline = deadline
        self.state = new_state
        # One line per action: the events as the store keeps them (sentences cost more than the action itself).
        if log.isEnabledFor(logging.INFO):
            log.info("game %d v%d %s: %s", self.gid, new_state.version, action.kind, events_line(events))
        try:
            await self.publisher.publish(events, answer)
        except PUBLISH_ERRORS as error:
            # The move is recorded; its messages are put right in the background, or by the next move.
            log.warning("game %d: the table could not be updated: %s", self.gid, error)
            self.heal_later()
        return events

    async def run(self, action: Action, actor: int | None, version: int | None = None, *,
                  answer: ClickAnswer | None = None) -> tuple[str, dict[str, Any]] | list[dict]:
        """Take the lock, re-check (against `version`, the one the button was drawn for) and apply: the
        refusal, or the events. A click that waited for the lock behind another is never applied twice."""
        async with self.lock:
            why = self.check(action, version)
            if why is not None:
                return why
            if actor is not None:
                await self.returned(actor)
            try:
                events = await self.act(action, actor, answer)
            except IllegalAction as error:
                return error.code, dict(error.params)
            except StaleVersion:
                await self.reload()
                return "outdated", {}
        self.after_change()
        return events

    async def reload(self) -> None:
        self.row = await asyncio.to_thread(self.bot.store.game, self.gid)
        self.state = self.row.state

    def after_change(self) -> None:
        """Computer seats and timers react to the new state (outside the lock)."""
        if self.closed or self.state is None or self.bot.sessions.closing:
            return
        if self.state.phase == "over":
            self.finish()
            return
        self.kick_computers()
        self.arm_timers()

    # -- the messages ----------------------------------------------------------------------------------
    async def refresh(self) -> None:
        """Bring every message that carries a pending decision up to date after a start: a crash may have
        come between recording a move and showing it, or between posting a message and saving its id."""
        async with self.lock:
            if self.state is None or self.closed:
                return
            try:
                await self.publisher.restore()
                return
            except PUBLISH_ERRORS as error:
                log.warning("game %d: could not bring its messages up to date: %s", self.gid, error)
        self.heal_later()

    def heal_later(self) -> None:
        """Try again, later and later, until the game has its messages with live buttons: Discord refused
        or did not answer, and no one may click anything until then."""
        if self.healing is None or self.healing.done():
            self.healing = asyncio.create_task(self._heal(), name=f"turista-heal-{self.gid}")

    async def _heal(self) -> None:
        delay = HEAL_FIRST
        failures = 0
        while not self.closed and not self.bot.sessions.closing:
            await asyncio.sleep(delay)
            async with self.lock:
                if self.state is None or self.closed:
                    return
                try:
                    await self.publisher.restore()
                except PUBLISH_ERRORS as error:
                    failures += 1
                    delay = min(HEAL_LONGEST, delay * 2)
                    log.warning("game %d: its messages are still not up to date (%s); trying again in %.0f s",
                                self.gid, error, delay)
                    continue
            if failures:
                log.info("game %d: its messages are up to date again", self.gid)
            return

    # -- computer seats ------------------------------------------------------------------------------
    def computer_move(self) -> Action | None:
        st = self.state
        if st is None or st.phase == "over":
            return None
        if not self.plays_itself(st.current) and (ending := computers.ends_by_itself(st)) is not None:
            return ending
        seats = [s for s in st.seat_to_act() if self.plays_itself(s)]
        if st.trade is not None and self.plays_itself(st.trade.target):
            seats.insert(0, st.trade.target)
        return self._choose_for(seats)

    def _choose_for(self, seats: list[int]) -> Action | None:
        st = self.state
        assert st is not None
        for seat in seats:
            if st.trade is not None and st.trade.proposer == seat:
                continue  # its offer waits for the partner's answer; ending the turn now would cancel it
            level = self.plays_itself(seat) or "normal"
            for pick in (computers.choose, computers.fallback):
                try:
                    action = pick(st, seat, level)
                except Exception:  # a faulty computer player must not stop the table
                    log.exception("game %d: computer player failed for seat %d", self.gid, seat)
                    action = None
                if action is not None and action.seat == seat and self.check(action) is None:
                    return action
        return None

    def kick_computers(self) -> None:
        idle = self.driver is None or self.driver.done()
        if idle and self.computer_move() is not None:
            self.driver = asyncio.create_task(self._drive(), name=f"turista-computers-{self.gid}")

    async def _drive(self) -> None:
        try:
            await self._drive_moves()
        except Exception:
            # The table stays as it was; the next action or a restart picks the computers up again.
            log.exception("game %d: computer players stopped", self.gid)
            self.driver = None

    async def _drive_moves(self) -> None:
        moves = 0
        wait = self.bot.config.pace
        retries = Backoff(f"game {self.gid}: computer players", log)
        while not self.closed and not self.bot.sessions.closing and moves < MAX_COMPUTER_MOVES:
            await asyncio.sleep(wait)
            wait = self.bot.config.pace
            async with self.lock:
                action = self.computer_move()
                if action is None:
                    break
                try:
                    await self.act(action, None)
                except (IllegalAction, StaleVersion) as error:
                    log.warning("game %d: computer move %s refused: %s", self.gid, action, error)
                    await self.reload()
                    break
                except StoreError as error:
                    if not transient(error):
                        raise
                    # Nothing was saved: the same decision is worked out again once the database heals.
                    wait = retries.failed(error)
                    continue
            retries.succeeded()
            moves += 1
            if self.state is not None and self.state.phase == "over":
                break
        # No await from the last check to here: a person acting meanwhile cannot be missed.
        self.driver = None
        if moves >= MAX_COMPUTER_MOVES:
            log.warning("game %d: computer players made %d moves in a row; pausing them", self.gid, moves)
            self.arm_timers()
        elif moves:
            self.after_change()

    # -- timers --------------------------------------------------------------------------------------
    def arm(self, name: str, delay: float, callback: Callable[[], Awaitable[None]],
            retries: Backoff | None = None) -> None:
        """Run `callback` after `delay` seconds as timer `name` (replacing one of that name). A callback
        the database refused (it writes before anything else) runs again, later and later, until it works."""
        self.disarm(name)
        if self.bot.sessions.closing:
            return

        async def later() -> None:
            await asyncio.sleep(max(0.0, delay))
            self.timers.pop(name, None)
            backoff = retries or Backoff(f"game {self.gid}: the {name} timer", log)
            try:
                await callback()
            except StoreError as error:
                if not transient(error):
                    log.warning("game %d: timer %s gave up: %s", self.gid, name, error.code)
                    return
                self.arm(name, backoff.failed(error), callback, backoff)
                return
            except Exception:
                log.exception("game %d: timer %s failed", self.gid, name)
                return
            backoff.succeeded()

        self.timers[name] = asyncio.create_task(later(), name=f"turista-{name}-{self.gid}")

    def disarm(self, name: str) -> None:
        task = self.timers.pop(name, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def waiting_people(self, st: State) -> list[int]:
        """The people whose clock runs: the seats to act that no computer plays, or, when a computer's own
        trade offer holds up the game, the person it is addressed to."""
        offer = st.trade
        if offer is not None and self.plays_itself(offer.proposer) and offer.proposer in st.seat_to_act():
            return [] if self.plays_itself(offer.target) else [offer.target]
        return [s for s in st.seat_to_act() if not self.plays_itself(s)]

    def decision_delay(self, st: State) -> float | None:
        """Seconds the pending decision may take: an auction's quiet period, or the turn timeout while the
        game waits for a person; None when no clock runs."""
        scale = self.bot.config.time_scale
        if st.phase == "over":
            return None
        if st.auction is not None:
            return self.bot.config.auction_quiet * scale
        timeout = float(self.row.settings.get("turn_timeout", 0) or 0) * scale
        return timeout if timeout > 0 and self.waiting_people(st) else None

    def arm_timers(self) -> None:
        st = self.state
        if st is None or self.closed:
            return
        version = st.version
        delay = self.decision_delay(st)
        if delay is not None and self.row.deadline is None:
            # A game started without one (or saved by an older release): the clock starts now.
            self.row.deadline = time.time() + delay
            self.save_deadline(self.row.deadline)
        left = 0.0 if self.row.deadline is None else self.row.deadline - time.time()
        if st.auction is not None:
            self.arm("auction", left, lambda: self._system(Action(kind="close_auction"), version))
        else:
            self.disarm("auction")
        timeout = float(self.row.settings.get("turn_timeout", 0) or 0) * self.bot.config.time_scale
        if timeout > 0 and self.waiting_people(st):
            # The turn clock of an auction's bidders starts afresh; otherwise it is the saved deadline.
            self.arm("turn", timeout if st.auction is not None else left, lambda: self._turn_timeout(version))
        else:
            self.disarm("turn")
        ends_at = self.row.settings.get("ends_at")
        if ends_at and not st.ending and "clock" not in self.timers:
            self.arm("clock", float(ends_at) - time.time(), self._time_up)

    def save_deadline(self, deadline: float) -> None:
        async def save() -> None:
            try:
                await self.bot.writes(self.bot.store.set_deadline, self.gid, deadline)
            except StoreError as error:
                log.warning("game %d: could not save the decision deadline: %s", self.gid, error)

        asyncio.get_running_loop().create_task(save(), name=f"turista-deadline-{self.gid}")

    async def _system(self, action: Action, version: int) -> None:
        async with self.lock:
            if self.state is None or self.state.version != version or self.check(action) is not None:
                return
            await self.act(action, None)
        self.after_change()

    async def _time_up(self) -> None:
        async with self.lock:
            if self.state is None or self.closed or self.state.ending:
                return
            await self.act(Action(kind="time_up", seat=SYSTEM), None)
            await self.notice(t(self.lang, "table.time_up"))
        self.after_change()

    async def notice(self, text: str, mentions: discord.AllowedMentions = components.NO_MENTIONS) -> None:
        """A one-off message for the table (a warning, "played for…"): the game never waits on it."""
        try:
            content, embed = embeds.notice(text)
            await self.channel.send(content, embed=embed, allowed_mentions=mentions)
        except discord.HTTPException as error:
            log.warning("game %d: could not post a notice (%s): %s", self.gid, error, text[:80])

    async def _turn_timeout(self, version: int) -> None:
        """First a warning, then the computer plays for whoever lets the clock run out again."""
        async with self.lock:
            st = self.state
            if st is None or st.version != version or self.closed:
                return
            humans = self.waiting_people(st)
            if not humans:
                return
            if self.warned != version:
                # The new deadline is written first: if the database refuses it, the timer tries again
                # and nothing was said yet.
                timeout = float(self.row.settings.get("turn_timeout", 0) or 0) * self.bot.config.time_scale
                if st.auction is None:
                    deadline = time.time() + timeout
                    await self.bot.writes(self.bot.store.set_deadline, self.gid, deadline)
                    self.row.deadline = deadline
                self.warned = version
                users = [u for u in (self.user_of(s) for s in humans) if u]
                # Discord shows the relative timestamp counting down in each reader's own words.
                countdown = f"<t:{math.ceil(time.time() + timeout)}:R>"
                await self.notice(t(self.lang, "table.timeout_warning", who=" ".join(f"<@{u}>" for u in users),
                                    deadline=countdown),
                                  discord.AllowedMentions(users=[discord.Object(u) for u in users]))
                self.arm("turn", timeout, lambda: self._turn_timeout(version))
                return
            # Played for safely: an unanswered offer is turned down, never accepted on someone's behalf.
            answering = st.trade is not None and humans == [st.trade.target] and humans[0] not in st.seat_to_act()
            action = Action(kind="reject_trade", seat=humans[0]) if answering else self._choose_for(humans)
            if action is None:
                return
            if self.played_for != version:  # said once, even if the database makes the move wait
                self.played_for = version
                await self.notice(t(self.lang, "table.played_for", seat=buttons.seat_label(st, action.seat)))
            await self.act(action, None)
            self.absences[action.seat] = self.absences.get(action.seat, 0) + 1
            if self.absences[action.seat] >= AFK_LIMIT:
                try:
                    await self._set_stand_in(action.seat, "normal")
                    await self.notice(t(self.lang, "table.replaced", seat=buttons.seat_label(st, action.seat)))
                except StoreError as error:  # the move is made; the next time out tries again
                    log.warning("game %d: could not hand seat %d to a computer: %s", self.gid, action.seat,
                                error.code)
        self.after_change()

    async def _set_stand_in(self, seat: int, level: str) -> None:
        """A computer plays `seat` (level) or gives it back to its person (""); the person keeps the seat."""
        await self.bot.writes(self.bot.store.update_seat, self.gid, seat, computer=level)
        self.row.seats = await asyncio.to_thread(self.bot.store.seats, self.gid)
        self.absences.pop(seat, None)

    async def hand_to_computer(self, user_id: int) -> bool:
        """`/turista kick` in a game: a computer plays the person's seat from now on; False if not seated."""
        async with self.lock:
            seat = self.seat_of(user_id)
            st = self.state
            if seat is None or st is None:
                return False
            await self.bot.writes(self.bot.store.update_seat, self.gid, seat, user_id=None, computer="normal")
            self.row.seats = await asyncio.to_thread(self.bot.store.seats, self.gid)
            _, embed = embeds.notice(t(self.lang, "table.replaced_by_host", seat=buttons.seat_label(st, seat)))
            await self.channel.send(embed=embed, allowed_mentions=components.NO_MENTIONS)
        self.after_change()
        return True

    async def returned(self, user_id: int) -> None:
        """A person acted: a computer standing in for them steps aside (the lock must be held)."""
        seat = self.seat_of(user_id)
        if seat is None:
            return
        self.absences.pop(seat, None)
        st = self.state
        if st is not None and not st.seats[seat].computer and self.plays_itself(seat):
            await self._set_stand_in(seat, "")
            _, embed = embeds.notice(t(self.lang, "table.back", seat=buttons.seat_label(st, seat)))
            await self.channel.send(embed=embed, allowed_mentions=components.NO_MENTIONS)

    # -- the end -------------------------------------------------------------------------------------
    def finish(self) -> None:
        if self.closed:
            return
        self.closed = True
        for name in list(self.timers):
            self.disarm(name)
        self.bot.sessions.forget(self)

    async def announce_winner(self, st: State) -> None:
        await self._announce(st, t(self.lang, "over.title", seat=buttons.seat_label(st, st.winner)), st.standings)
        self._show_in_lobby(threads.result(st, self.lang))

    async def _announce(self, st: State, head: str, standings: list[Standing]) -> None:
        """The final ranking with the end-of-game picture, for a game won or ended by the host."""
        kwargs: dict[str, Any] = {"allowed_mentions": components.NO_MENTIONS}
        try:
            picture = await pool.summary_file(self.bot.store, self.gid, self.lang)
        except Exception:  # the standings matter more than the chart
            log.exception("game %d: the summary picture failed", self.gid)
            picture = None
        if picture is not None:
            kwargs["file"] = picture
        try:
            embed = embeds.standings(st, head, standings, self.lang, picture=picture is not None, game=self.gid)
            await self.channel.send(embed=embed, **kwargs)
        except discord.HTTPException:
            log.exception("game %d: could not announce the result", self.gid)

    async def abandon(self, who: str) -> None:
        """`/turista end`: the game stops where it is, its buttons go away, and the ranking as it stands is
        posted with the end-of-game picture (the game itself has no winner)."""
        async with self.lock:
            self.closed = True
            for name in list(self.timers):
                self.disarm(name)
            await self.bot.writes(self.bot.store.set_status, self.gid, "abandoned")
            await self.publisher.take_down()
            st = self.state
        self.bot.sessions.forget(self)
        if st is not None:
            await self._announce(st, t(self.lang, "over.ended", who=who), standings(st, edition_of(st)))
            self._show_in_lobby(threads.result(st, self.lang, who))

    def cancel_tasks(self) -> None:
        for name in list(self.timers):
            self.disarm(name)
        if self.driver is not None:
            self.driver.cancel()
        if self.healing is not None:
            self.healing.cancel()


class Sessions:
    """The open games this process serves, loaded from the store on first use."""

    def __init__(self, bot: Host) -> None:
        self.bot = bot
        self.by_game: dict[int, Session] = {}
        self.loading = asyncio.Lock()
        self.locks: dict[int, asyncio.Lock] = {}
        self.closing = False  # the process is shutting down: no new computer moves or timers
        self.background: set[asyncio.Task[None]] = set()
        # Start-up puts the messages of every open game right; a few at a time, so that the first clicks
        # after a restart do not queue behind a thousand posts.
        self.restoring = asyncio.Semaphore(RESTORE_AT_ONCE)

    def lock_for(self, channel_id: int) -> asyncio.Lock:
        """The one lock of a channel: its lobby and its game share it."""
        return self.locks.setdefault(channel_id, asyncio.Lock())

    async def for_game(self, gid: int) -> Session | None:
        session = self.by_game.get(gid)
        if session is not None:
            return session
        async with self.loading:
            if gid in self.by_game:
                return self.by_game[gid]
            from bot.store import NoSuchGame

            try:
                row = await read(self.bot.store.game, gid)
            except NoSuchGame:
                return None
            if row.status != "active":
                return None
            session = Session(self.bot, row)
            self.by_game[gid] = session
            return session

    async def for_channel(self, channel_id: int) -> Session | None:
        session = next((s for s in self.by_game.values() if s.plays_in(channel_id)), None)
        if session is not None:
            return session
        row = await read(self.bot.store.game_by_channel, channel_id)
        if row is None or row.status != "active":
            return None
        return await self.for_game(row.id)

    def forget(self, session: Session) -> None:
        if self.by_game.get(session.gid) is session:
            del self.by_game[session.gid]

    async def resume_all(self) -> None:
        """After a start: re-arm the timers of every open game and let computer seats carry on."""
        resumed = []
        async with self.loading:
            config = self.bot.config
            if config.shards is None:  # every shard is this process's
                rows = await asyncio.to_thread(self.bot.store.open_games)
            else:
                rows = await asyncio.to_thread(self.bot.store.open_games, config.shard_count, config.shards)
            for row in rows:
                if row.status != "active" or row.state is None:
                    continue
                session = self.by_game.get(row.id)  # a click may already have loaded it
                if session is None:
                    session = Session(self.bot, row)
                    self.by_game[row.id] = session
                resumed.append(session)
        log.info("resumed %d open game(s)", len(resumed))
        for session in resumed:
            self.spawn(self._resume(session), f"turista-resume-{session.gid}")

    def spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        """Run `work` in the background, kept alive until it ends."""
        task = asyncio.create_task(work, name=name)
        self.background.add(task)
        task.add_done_callback(self.background.discard)

    async def _resume(self, session: Session) -> None:
        async with self.restoring:
            await session.refresh()
        session.after_change()

    async def close(self, timeout: float = 5.0) -> None:
        """Stop timers and computer players, then let the work in progress in every channel finish, so a
        restart never cuts an action between the database and the table message."""
        self.closing = True
        for session in self.by_game.values():
            session.cancel_tasks()
        try:
            async with asyncio.timeout(timeout):
                for lock in list(self.locks.values()):
                    async with lock:
                        pass
                for session in list(self.by_game.values()):
                    async with session.lock:
                        await session.publisher.record_edits()
        except TimeoutError:
            log.warning("shutting down with work still in progress")

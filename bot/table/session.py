"""One session per game in play: the game in memory, the lock that serialises its moves, its clocks and its
computer seats. No Discord here: after each change the session tells its face what changed (`bot.table.face`).

Every move, whoever makes it (a person, a computer seat, a timer), goes through `Session.act` under the lock: the
engine applies it, the store records it (with the next decision's deadline and the book's news), then the face
shows it. Games in different channels have different sessions and never wait for each other.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from typing import Any, Protocol

import msgspec

from bot.config import Config
from bot.store import GameRow, SeatRow, StaleVersion, StoreError
from bot.table import computers
from bot.table.backoff import Backoff, transient
from bot.table.book import Book
from bot.table.clocks import Clocks
from bot.table.draft import Draft
from bot.table.face import Face, Notice, NotShown, Table
from bot.table.pacing import Pacing
from bot.table.seating import ChangingHands
from bot.table.settings import TableSettings
from bot.table.storage import Storage
from bot.table.takebacks import TakingBack
from engine import DEFAULT_LEVEL, SYSTEM, Action, IllegalAction, State, refusal
from engine import apply as engine_apply

log = logging.getLogger("turista.game")
MAX_COMPUTER_MOVES = 400  # a safety net: computers never keep a table busy forever
AFK_LIMIT = 3  # decisions in a row played for an absent person before a computer takes their seat
HEAL_FIRST = 2.0  # seconds before messages Discord refused are tried again, doubling up to HEAL_LONGEST
HEAL_LONGEST = 60.0
Refusal = tuple[str, dict[str, Any]]
PASSES = ("pass_bid", "decline")  # the decisions a run-out clock may pass on (an offer's answer is a no)


def events_line(events: list[dict]) -> str:
    """The events of a move on one log line, as recorded: `code key=value …; code …`."""
    return "; ".join(" ".join([event["code"], *(f"{k}={v}" for k, v in event.items() if k != "code")])
                     for event in events)


class Tables(Protocol):
    """What a session needs of the sessions of its process (`bot.table.sessions.Sessions`)."""

    config: Config
    storage: Storage
    closing: bool

    def lock_for(self, channel_id: int) -> asyncio.Lock: ...

    def language(self, guild_id: int) -> str: ...

    def make_face(self, game: int, book: Book) -> Face: ...

    def forget(self, session: Session) -> None: ...


class Session(TakingBack, ChangingHands, Pacing):
    def __init__(self, tables: Tables, row: GameRow) -> None:
        self.tables = tables
        self.config = tables.config
        self.storage = tables.storage
        self.row = row
        self.gid = row.id
        self.channel_id = row.channel_id
        self.lock = tables.lock_for(row.channel_id)
        self.state: State | None = row.state
        self.settings = TableSettings(row.settings)
        self.lang = tables.language(row.guild_id)
        self.book = Book(row.messages)
        self.face = tables.make_face(row.id, self.book)
        self.clocks = Clocks(row.id)
        self.driver: asyncio.Task[None] | None = None
        self.healing: asyncio.Task[None] | None = None  # messages being put right after the face failed
        self.warned = -1  # the version at which the seat to act was last warned
        self.played_for = -1  # the version for which "played for…" was last said
        self.absences: dict[int, int] = {}  # seat -> decisions in a row the clock made for it
        self.closed = False
        self.drafts: dict[int, Draft] = {}  # person -> the trade offer they are putting together, unsent
        self.votes: set[int] = set()  # people who asked to pause (or resume) the game, until it is done

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

    def left(self, seat: int) -> bool:
        """Whether the seat's person left it to a computer (`hand_over`): it is still theirs to come back to, but
        they play nothing until they do."""
        st = self.state
        return st is not None and bool(st.seats[seat].computer) and self.user_of(seat) is not None

    def plays_in(self, channel_id: int | None) -> bool:
        """Whether an interaction from `channel_id` is at this game's table (its channel or its thread)."""
        return channel_id is not None and channel_id in (self.channel_id, self.row.thread_id)

    def table(self) -> Table:
        """The game as its face shows it now: each seat under its row's name, which is a person's who sat down
        in a computer's seat (the engine's state keeps the name the seat started with)."""
        st = self.state
        assert st is not None
        row = self.row
        if any(s.seat < len(st.seats) and s.name != st.seats[s.seat].name for s in row.seats):
            named = {s.seat: s.name for s in row.seats}
            st = msgspec.structs.replace(st, seats=[msgspec.structs.replace(seat, name=named.get(k, seat.name))
                                                    for k, seat in enumerate(st.seats)])
        since = deadline = None
        delay = self.decision_delay(st)
        if self.settings.correspondence and row.deadline is not None and delay is not None:
            since, deadline = row.deadline - delay, row.deadline
        return Table(row.id, row.guild_id, row.host_id, row.edition, row.channel_id, row.where, self.lang, st,
                     row.seats, self.settings, row.messages.get("lobby"), since, deadline, row.paused_at)

    # -- applying ------------------------------------------------------------------------------------
    def unavailable(self, version: int | None = None) -> Refusal | None:
        """Why nothing can be done in the game now: there is none (not loaded, or closed), it is paused, or, with
        `version`, it has moved on since. None when something may be done."""
        st = self.state
        if st is None or self.closed:
            return "no_game", {}
        if self.paused:
            return "paused", {}
        if version is not None and version != st.version:
            return "outdated", {}
        return None

    def check(self, action: Action, version: int | None = None) -> Refusal | None:
        """Why `action` cannot be applied now (error code and parameters), without changing anything."""
        blocked = self.unavailable(version)
        if blocked is not None or self.state is None:
            return blocked
        return refusal(self.state, action)

    async def act(self, action: Action, actor: int | None, click: object | None = None, *,
                  before: list[dict] | None = None, hold: bool = False,
                  outcome: tuple[State, list[dict]] | None = None) -> list[dict]:
        """Apply `action` (the lock must be held); raises IllegalAction, StaleVersion or StoreError. `click`: the
        face's handle on the click that asked for it, handed on to the face untouched. `before`: the events of a
        move made just before under this lock and held (shown now, with this one's); `hold`: show nothing yet,
        another move follows at once. `outcome`: the new state and events, already worked out (a log entry that
        is not a move of the rules, such as a take-back)."""
        st = self.state
        assert st is not None and self.lock.locked()
        new_state, events = outcome if outcome is not None else engine_apply(st, action)
        # The next decision's deadline is saved with the move, so a restart resumes the same clock; an auction
        # whose message is not up yet gets its quiet period once the face has shown it (`arm_timers`).
        delay = self.decision_delay(new_state)
        if new_state.auction is not None and not self.auction_shown(events):
            delay = None
        deadline = None if delay is None else time.time() + delay
        posting = self.book.posts_ahead(events, self.row.where)
        await self.storage.apply(self.gid, st.version, actor, action, events, new_state, deadline=deadline,
                                 shown=self.book.take_unrecorded(), posting=posting)
        self.book.marked(posting, new_state.version)
        self.row.deadline = deadline
        self.state = new_state
        # One line per move: the events as the store keeps them (sentences cost more than the move itself).
        if log.isEnabledFor(logging.INFO):
            log.info("game %d v%d %s: %s", self.gid, new_state.version, action.kind, events_line(events))
        if not hold:
            await self._show([*(before or ()), *events], click)
        return events

    async def _show(self, events: list[dict], click: object | None = None) -> None:
        try:
            await self.face.show(self.table(), events, click)
        except NotShown as error:
            # The move is recorded; its messages are put right in the background, or by the next move.
            log.warning("game %d: the table could not be updated: %s", self.gid, error)
            self.heal_later()

    async def run(self, action: Action, actor: int | None, version: int | None = None, *,
                  click: object | None = None, first: Action | None = None) -> Refusal | list[dict]:
        """Take the lock, re-check (against `version`, the one the button was drawn for) and apply: the
        refusal, or the events. A click that waited for the lock behind another is never applied twice.
        `first`: a move made just before `action` under the same lock, both shown at once (a counter-offer
        turns down the offer it answers); if `action` is then refused, `first` stays made."""
        async with self.lock:
            why = self.check(first or action, version)
            if why is not None:
                return why
            if actor is not None:
                await self.returned(actor)
            earlier: list[dict] = []
            try:
                if first is not None:
                    earlier = await self.act(first, actor, hold=True)
                    why = self.check(action)
                    if why is not None:
                        await self._show(earlier)
                        return why
                events = await self.act(action, actor, click, before=earlier)
            except IllegalAction as error:
                if earlier:
                    await self._show(earlier)
                return error.code, dict(error.params)
            except StaleVersion:
                await self.reload()
                self.resync()
                return "outdated", {}
        self.after_change()
        return [*earlier, *events]

    async def opened(self, events: list[dict]) -> None:
        """The game has just started (the lock must be held): its first table goes up with the start's events.
        Whatever the face answers, the game is stored; its clocks and computer seats start after the lock."""
        try:
            await self.face.opened(self.table(), events)
        except NotShown as error:
            log.warning("game %d: started; Discord refused the first table (%s); the game goes on and the table "
                        "is posted as soon as Discord takes it", self.gid, error)
            self.heal_later()

    def adopt(self, row: GameRow) -> None:
        """The game as its start stored it: a start-up that raced the start may have loaded it before its thread
        and lobby message were stored."""
        self.row, self.state, self.settings = row, row.state, TableSettings(row.settings)

    async def reload(self) -> None:
        self.row = await self.storage.game(self.gid)
        self.state = self.row.state
        self.settings = TableSettings(self.row.settings)

    def resync(self) -> None:
        """After a reload that found the stored game ahead of this session (a move the database made though its
        answer was lost, as when the server went away during the commit): its messages are brought up to date,
        and its computer seats and clocks go on from the stored state."""
        self.heal_later()
        self.after_change()

    def after_change(self) -> None:
        """Computer seats and timers react to the new state (outside the lock)."""
        if self.closed or self.state is None or self.tables.closing:
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
                await self._restore()
                return
            except NotShown as error:
                log.warning("game %d: could not bring its messages up to date: %s", self.gid, error)
        self.heal_later()

    async def _restore(self) -> None:
        await self.face.restore(self.table())
        await self.record_edits()  # at once: start-up and healing are rare, and may be followed by no move

    async def record_edits(self) -> None:
        """Record the edits of the game's messages not recorded yet (at a stop, or after a restore)."""
        shown = self.book.take_unrecorded()
        if shown:
            try:
                await self.storage.shown(self.gid, shown)
            except StoreError as error:
                log.warning("game %d: could not record a message (shown): %s", self.gid, error.code)

    def heal_later(self) -> None:
        """Try again, later and later, until the game has its messages with live buttons: Discord refused
        or did not answer, and no one may click anything until then."""
        if self.healing is None or self.healing.done():
            self.healing = asyncio.create_task(self._heal(), name=f"turista-heal-{self.gid}")

    async def _heal(self) -> None:
        delay = HEAL_FIRST
        failures = 0
        while not self.closed and not self.tables.closing:
            await asyncio.sleep(delay)
            async with self.lock:
                if self.state is None or self.closed:
                    return
                try:
                    await self._restore()
                except NotShown as error:
                    failures += 1
                    delay = min(HEAL_LONGEST, delay * 2)
                    log.warning("game %d: its messages are still not up to date (%s); trying again in %.0f s",
                                self.gid, error, delay)
                    continue
            if failures:
                log.info("game %d: its messages are up to date again", self.gid)
            self.arm_timers()  # an auction shown only now starts its quiet period now
            return

    async def tell(self, notice: Notice) -> None:
        if self.state is not None:
            await self.face.tell(self.table(), notice)

    # -- computer seats ------------------------------------------------------------------------------
    def computer_move(self) -> Action | None:
        st = self.state
        if st is None or st.phase == "over" or self.paused:
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
            try:
                action = computers.choose(st, seat, level)
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
        except Exception as error:
            self.driver = None
            if self.closed and isinstance(error, StoreError):
                return  # the process stepped aside (another took over the game's shard), and said so
            # The table stays as it was; the next move or a restart picks the computers up again.
            log.exception("game %d: computer players stopped", self.gid)

    async def _drive_moves(self) -> None:
        moves = 0
        reloaded = False
        wait = self.config.pace
        retries = Backoff(f"game {self.gid}: computer players", log)
        while not self.closed and not self.tables.closing and moves < MAX_COMPUTER_MOVES:
            await asyncio.sleep(wait)
            wait = self.config.pace
            async with self.lock:
                action = self.computer_move()
                if action is None:
                    break
                try:
                    await self.act(action, None)
                except (IllegalAction, StaleVersion) as error:
                    log.warning("game %d: computer move %s refused: %s", self.gid, action, error)
                    await self.reload()
                    reloaded = True
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
        elif reloaded:
            self.resync()
        elif moves:
            self.after_change()

    # -- clocks --------------------------------------------------------------------------------------
    def waiting_people(self, st: State) -> list[int]:
        """The people whose clock runs: the seats to act that no computer plays, or, when a computer's own
        trade offer holds up the game (by correspondence anyone's offer), the person it is addressed to."""
        offer = st.trade
        holds_up = offer is not None and offer.proposer in st.seat_to_act()
        if holds_up and offer is not None and (self.plays_itself(offer.proposer) or self.settings.correspondence):
            return [] if self.plays_itself(offer.target) else [offer.target]
        return [s for s in st.seat_to_act() if not self.plays_itself(s)]

    @property
    def turn_timeout(self) -> float:
        """Seconds a person has for each decision (scaled as the configuration says); 0 without a clock."""
        return self.settings.turn_timeout * self.config.time_scale

    def decision_delay(self, st: State) -> float | None:
        """Seconds the pending decision may take: an auction's quiet period, or the turn timeout while the
        game waits for a person; None when no clock runs."""
        if st.phase == "over":
            return None
        if st.auction is not None:
            # Live, a quiet period closes it; by correspondence it stays open until every bidder but the highest
            # has passed (the rules close it then), or its clock runs out (the silent bidders pass).
            if self.settings.correspondence:
                return self.turn_timeout
            return self.config.auction_quiet * self.config.time_scale
        timeout = self.turn_timeout
        return timeout if timeout > 0 and self.waiting_people(st) else None

    def auction_shown(self, events: Sequence[dict] = ()) -> bool:
        """Whether the open auction's message is up (as the book says): an auction's clocks run only from the
        moment people can see it and bid. `events`: those of a move just made, which may open another auction,
        whose message the face has yet to post."""
        return self.book.editable("auction") and not any(e["code"] == "auction_opened" for e in events)

    def arm_timers(self) -> None:
        st = self.state
        if st is None or self.closed or self.tables.closing:
            return
        if self.paused:
            # Every clock waits: the decision's with the time it had left (stored), the reminders with it.
            for name in ("turn", "auction", "remind", "clock"):
                self.clocks.disarm(name)
            return
        version = st.version
        if st.auction is not None and not self.auction_shown():
            # Its message did not go up (Discord refused it): the auction's clocks wait for healing to show it,
            # and its quiet period then starts afresh.
            self.row.deadline = None
            self.clocks.disarm("auction")
            self.clocks.disarm("turn")
        else:
            self._arm_decision(st, version)
            self._arm_reminders(st, version)
        ends_at = self.settings.ends_at
        if ends_at and not st.ending and "clock" not in self.clocks:
            self.clocks.arm("clock", ends_at - time.time(), self._time_up)

    def _arm_decision(self, st: State, version: int) -> None:
        """The clocks of the pending decision: an auction's quiet period, the turn timeout."""
        delay = self.decision_delay(st)
        if delay is not None and self.row.deadline is None:
            # A decision whose clock had not started (an auction just shown, a game saved by an older release):
            # it starts now.
            self.row.deadline = time.time() + delay
            self.save_deadline(self.row.deadline)
        left = 0.0 if self.row.deadline is None else self.row.deadline - time.time()
        if st.auction is not None:
            self.clocks.arm("auction", left, lambda: self._system(Action(kind="close_auction"), version))
        else:
            self.clocks.disarm("auction")
        timeout = self.turn_timeout
        correspondence = self.settings.correspondence
        if timeout > 0 and self.waiting_people(st) and not (correspondence and st.auction is not None):
            # Live, the turn clock of an auction's bidders starts afresh; otherwise it is the saved deadline. Half
            # of the time gone, the people it waits for are warned (by correspondence, the reminders do that); at
            # its end the decision is played or passed for them.
            deadline = time.time() + timeout if st.auction is not None else time.time() + left
            warn_at = deadline if correspondence else deadline - timeout / 2
            self.clocks.arm("turn", warn_at - time.time(), lambda: self._turn_timeout(version, deadline))
        else:
            self.clocks.disarm("turn")

    def save_deadline(self, deadline: float) -> None:
        async def save() -> None:
            try:
                await self.storage.set_deadline(self.gid, deadline)
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
            await self.tell(Notice("table.time_up"))
        self.after_change()

    async def _turn_timeout(self, version: int, deadline: float) -> None:
        """Half the time gone, a warning with the time left; at `deadline`, the computer plays for whoever the
        game still waits for."""
        async with self.lock:
            st = self.state
            if st is None or st.version != version or self.closed or self.paused:
                return
            humans = self.waiting_people(st)
            if not humans:
                return
            if self.warned != version and not self.settings.correspondence:
                self.warned = version
                users = tuple(u for u in (self.user_of(s) for s in humans) if u)
                await self.tell(Notice("table.timeout_warning", ping=users, deadline=deadline))
                self.clocks.arm("turn", deadline - time.time(), lambda: self._turn_timeout(version, deadline))
                return
            # Played for safely: an unanswered offer is turned down, never accepted on someone's behalf.
            answering = st.trade is not None and humans == [st.trade.target] and humans[0] not in st.seat_to_act()
            if answering:
                action: Action | None = Action(kind="reject_trade", seat=humans[0])
            else:
                action = (self.settings.clock_passes and self._pass_for(humans)) or self._choose_for(humans)
            if action is None:
                return
            if self.played_for != version:  # said once, even if the database makes the move wait
                self.played_for = version
                await self.tell(Notice("table.played_for", seat=action.seat))
            await self.act(action, None)
            self.absences[action.seat] = self.absences.get(action.seat, 0) + 1
            if self.absences[action.seat] >= AFK_LIMIT:
                try:
                    await self._set_stand_in(action.seat, "normal")
                    await self.tell(Notice("table.replaced", seat=action.seat))
                except StoreError as error:  # the move is made; the next time out tries again
                    log.warning("game %d: could not hand seat %d to a computer: %s", self.gid, action.seat,
                                error.code)
        self.after_change()

    def _pass_for(self, seats: list[int]) -> Action | None:
        """The pass the rules allow one of `seats` now, when the table's clock passes for the absent
        (`clock_passes`): leave the auction, let the bank have the title. None where there is no pass (a roll, a
        debt, inherited mortgages): a computer plays those."""
        for seat in seats:
            for kind in PASSES:
                action = Action(kind=kind, seat=seat)
                if self.check(action) is None:
                    return action
        return None

    # -- who plays a seat ------------------------------------------------------------------------------
    async def _set_stand_in(self, seat: int, level: str) -> None:
        """A computer plays `seat` (level) or gives it back to its person (""); the person keeps the seat."""
        await self.storage.update_seat(self.gid, seat, computer=level)
        self.row.seats = await self.storage.seats(self.gid)
        self.absences.pop(seat, None)

    async def hand_to_computer(self, user_id: int) -> bool:
        """`/turista kick` in a game: a computer plays the person's seat from now on, and the seat is no longer
        theirs (they may take it back: `seat_handed_over`); False if not seated."""
        async with self.lock:
            seat = self.seat_of(user_id)
            if seat is None or self.state is None or self.closed:
                return False
            await self._leave_seat(seat, None)
            await self.storage.update_seat(self.gid, seat, user_id=None, computer=DEFAULT_LEVEL)
            self.row.seats = await self.storage.seats(self.gid)
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
            await self.tell(Notice("table.back", seat=seat))

    # -- the end -------------------------------------------------------------------------------------
    def finish(self) -> None:
        if self.closed:
            return
        self.closed = True
        self.clocks.stop()
        self.tables.forget(self)

    async def abandon(self, who: str) -> None:
        """`/turista end`: the game stops where it is; its face takes the buttons down and posts the standings
        as they are (the game itself has no winner)."""
        async with self.lock:
            self.closed = True
            self.clocks.stop()
            await self.storage.set_status(self.gid, "abandoned")
            table = self.table() if self.state is not None else None
        self.tables.forget(self)
        if table is not None:
            await self.face.ended(table, who)

    def cancel_tasks(self) -> None:
        self.clocks.stop()
        if self.driver is not None:
            self.driver.cancel()
        if self.healing is not None:
            self.healing.cancel()

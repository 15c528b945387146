"""Seats changing hands at a table during its game: a person leaves their seat to a computer (or is put out of
it), a host hands the role on, a person sits down in a computer's seat, their own again or a free one. Each
change of who plays a seat is an entry of the game's log (`engine.hand_over`, `engine.sit`), made under the
table's lock. Part of a session (`bot.table.session.Session` inherits it). No Discord here.
"""

from __future__ import annotations

from typing import Any

from bot.store import SeatRow, StaleVersion
from bot.table import names
from bot.table.face import Notice
from engine import DEFAULT_LEVEL, HAND_OVER, SIT, Action, hand_over_refusal, sit_refusal
from engine import hand_over as engine_hand_over
from engine import sit as engine_sit

Refusal = tuple[str, dict[str, Any]]  # as `bot.table.session.Refusal`


class ChangingHands:
    """A session's seats changing hands (the state, store, lock and moves it uses are the session's)."""

    async def hand_over(self, user_id: int) -> bool:
        """`/turista leave` in a game, the seat to a computer: a computer plays it from now on and the seat waits
        for its person, who may come back to it (`sit_down`); a host hands the role on. False if not seated."""
        async with self.lock:
            seat = self.seat_of(user_id)
            if seat is None or self.state is None or self.closed:
                return False
            await self._leave_seat(seat, user_id)
            await self.storage.update_seat(self.gid, seat, computer=DEFAULT_LEVEL)
            self.row.seats = await self.storage.seats(self.gid)
            if user_id == self.row.host_id:
                await self.hand_on_host(seat)
        self.after_change()
        return True

    async def _leave_seat(self, seat: int, actor: int | None) -> None:
        """The log's entry of a person leaving `seat` to a computer (the lock held), unless a computer plays it
        already; the seat's row is the caller's to change (a crash in between leaves the computer playing it,
        as the state says)."""
        st = self.state
        assert st is not None
        self.absences.pop(seat, None)
        if hand_over_refusal(st, seat) is None:
            await self.act(Action(kind=HAND_OVER, seat=seat), actor, outcome=engine_hand_over(st, seat))

    async def hand_on_host(self, seat: int) -> None:
        """The host, in `seat`, leaves: the next person seated after them who still plays hosts the table (the
        lock must be held); nobody, when no person is left playing."""
        st = self.state
        assert st is not None
        count = len(st.seats)
        heir = next((s for s in ((seat + k) % count for k in range(1, count))
                     if self.user_of(s) is not None and not st.seats[s].out and not st.seats[s].computer), None)
        if heir is None:
            return
        host = self.user_of(heir)
        assert host is not None
        await self.storage.set_host(self.gid, host)
        self.row.host_id = host
        await self.tell(Notice("table.new_host", seat=heir))

    async def seat_handed_over(self, user_id: int) -> int | None:
        """The seat the person played until a computer took it: theirs still (they left it), or one the host put
        them out of that nobody has taken since (their moves are in its log)."""
        st = self.state
        if st is None:
            return None
        own = self.seat_of(user_id)
        if own is not None:
            return own if st.seats[own].computer and not st.seats[own].out else None
        free = {s.seat for s in self.seats if s.user_id is None and st.seats[s.seat].computer
                and not st.seats[s.seat].out}
        if not free:
            return None
        _, entries, actors = await self.logged()
        return next((action.seat for (action, _), actor in zip(entries, actors, strict=True)
                     if actor == user_id and action is not None and action.seat in free), None)

    def free_computer_seat(self) -> int | None:
        """The first seat a computer plays that no person holds (one from the start, or one the host put its
        person out of), still in the game."""
        st = self.state
        if st is None:
            return None
        return next((s.seat for s in self.seats if s.user_id is None and st.seats[s.seat].computer
                     and not st.seats[s.seat].out), None)

    async def sit_down(self, seat: int, user_id: int, name: str) -> Refusal | list[dict]:
        """The person takes the computer's seat `seat`, with its cash, titles and turn (their own again, or a
        free one): an entry of the log (`engine.sit`), then the seat is theirs. The refusal, or the events."""
        async with self.lock:
            blocked = self.unavailable()
            if blocked is not None:
                return blocked
            st = self.state
            own = self.seat_of(user_id)
            if own is not None and own != seat:
                return "already_seated", {}
            held = next((s for s in self.seats if s.seat == seat), None)
            if held is None or held.user_id not in (None, user_id):
                return "seat_taken", {}
            why = sit_refusal(st, seat)
            if why is not None:
                return why
            name = held.name if own == seat else names.unique(name, [s.name for s in self.seats if s.seat != seat])
            before = self.row.seats
            try:
                # The seat's row gives it the person's name (`table`): the log keeps none.
                self.row.seats = [SeatRow(s.seat, s.user_id, name, s.computer) if s.seat == seat else s
                                  for s in self.seats]
                events = await self.act(Action(kind=SIT, seat=seat), user_id, outcome=engine_sit(st, seat))
            except StaleVersion:
                await self.reload()
                return "outdated", {}
            except BaseException:
                self.row.seats = before
                raise
            # A crash before this: the state says a person plays the seat, its row that a computer does, and the
            # computer goes on (`plays_itself`); a person coming back to their own seat gets it at their first
            # click (`returned`).
            await self.storage.update_seat(self.gid, seat, user_id=user_id, name=name, computer="")
            self.row.seats = await self.storage.seats(self.gid)
        self.after_change()
        return events

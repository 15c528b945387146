"""The pace of a correspondence game: its reminders (when each falls due, to whom and how, each person's choice
of `/notify`) and pausing and resuming any game. Part of a session (`bot.table.session.Session` inherits it), kept
apart as the rules of one thing. No Discord here.
"""

from __future__ import annotations

import time
from dataclasses import replace

from bot.table import notify, reminders
from bot.table.face import Notice
from engine import State


class Pacing:
    """A session's reminders and pause (the state, store, lock, clocks and face it uses are the session's)."""

    def reminded_people(self, st: State) -> list[int]:
        """The people a reminder addresses: those the clock waits for, but not an auction's highest bidder (the
        auction waits for the others to outbid them or pass)."""
        bidder = st.auction.bidder if st.auction is not None else -1
        return [u for u in (self.user_of(s) for s in self.waiting_people(st) if s != bidder) if u]

    def _arm_reminders(self, st: State, version: int) -> None:
        """By correspondence, the next reminder of the pending decision's clock (`bot.table.reminders`)."""
        delay = self.decision_delay(st)
        deadline = self.row.deadline
        due = [] if not self.settings.correspondence or delay is None or deadline is None \
            else reminders.pending(deadline, delay, self.row.reminded)
        if due and self.reminded_people(st):
            self.clocks.arm("remind", due[0] - time.time(), lambda: self._remind(version))
        else:
            self.clocks.disarm("remind")

    async def _remind(self, version: int) -> None:
        """Remind the people the decision waits for, once: what was sent is stored before it is sent, so that a
        restart never sends it again (a reminder Discord then refuses is lost, and logged as such)."""
        async with self.lock:
            st = self.state
            deadline = self.row.deadline
            if st is None or st.version != version or self.closed or deadline is None or self.paused:
                return
            delay = self.decision_delay(st)
            now = time.time()
            due = None if delay is None else reminders.owed(deadline, delay, self.row.reminded, now)
            users = self.reminded_people(st)
            if due is not None and delay is not None and users:
                prefs = await self.storage.notify_of(users)
                wanted = [u for u in users if prefs[u].mode != "none"]
                quiet = {u: end for u in wanted if (end := notify.quiet_until(prefs[u], now)) is not None}
                later = max(quiet.values(), default=None)
                if later is not None and later < deadline:
                    # The reminder waits for the quiet hours to end; the clock does not.
                    self.clocks.arm("remind", later - now, lambda: self._remind(version))
                    return
                # Stored before it is sent: a restart never sends it twice.
                await self.storage.set_reminded(self.gid, due)
                self.row.reminded = due
                awake = [u for u in wanted if u not in quiet]
                direct = [u for u in awake if prefs[u].mode == "dm"
                          and await self.storage.count_dm(u, notify.day_of(prefs[u], now), notify.DM_BUDGET)]
                seat = self.seat_of(users[0])
                notice = Notice("table.reminder", ping=tuple(direct), deadline=deadline, since=deadline - delay,
                                what=reminders.waiting_for(st, seat) if seat is not None else "turn", plain=True)
                refused = await self.face.remind_directly(self.table(), notice) if direct else []
                here = tuple(u for u in awake if u not in direct or u in refused)
                if here:
                    await self.tell(replace(notice, ping=here))
        if self.state is not None and self.state.version == version and not self.closed:
            self._arm_reminders(self.state, version)

    @property
    def paused(self) -> bool:
        return self.row.paused_at is not None

    def voters(self) -> list[int]:
        """The people who play a seat now (not one left to a computer): a majority of them pauses or resumes."""
        return [s.user_id for s in self.seats if s.user_id and not self.left(s.seat)]

    async def vote_pause(self, user_id: int, manager: bool, *, pause: bool) -> tuple[str, int, int]:
        """`/turista pause` (or resume, `pause=False`) by `user_id`: the host or a manager (`manager`) decides
        alone, the others vote. What came of it ("paused", "resumed", "voted", or the error "already_paused",
        "not_paused"), with the votes so far and the votes needed."""
        async with self.lock:
            if self.state is None or self.closed:
                return "no_game", 0, 0
            if self.paused == pause:
                return ("already_paused" if pause else "not_paused"), 0, 0
            people = self.voters()
            needed = len(people) // 2 + 1
            if not manager:
                self.votes.add(user_id)
                if len(self.votes & set(people)) < needed:
                    return "voted", len(self.votes & set(people)), needed
            self.votes.clear()
            await (self._pause() if pause else self._resume())
        if not pause:
            self.after_change()
        return ("paused" if pause else "resumed"), 0, needed

    async def _pause(self) -> None:
        now = time.time()
        left = None if self.row.deadline is None else max(0.0, self.row.deadline - now)
        await self.storage.pause_game(self.gid, now, left)
        self.row.paused_at, self.row.paused_left = now, left
        self.arm_timers()
        await self.tell(Notice("table.paused", since=now))
        await self._show([])  # the table says it is paused, and since when

    async def _resume(self) -> None:
        now = time.time()
        paused_at, left = self.row.paused_at or now, self.row.paused_left
        deadline = None if left is None else now + left
        # The reminders' moment moves on with the clock, so a reminder sent before the pause is not sent again.
        reminded = None if self.row.reminded is None else self.row.reminded + (now - paused_at)
        await self.storage.resume_game(self.gid, deadline, reminded)
        self.row.paused_at = self.row.paused_left = None
        self.row.deadline, self.row.reminded = deadline, reminded
        await self.tell(Notice("table.resumed" if deadline is not None else "table.resumed_free", deadline=deadline))
        await self._show([])  # the table's line says when the clock runs out now

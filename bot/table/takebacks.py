"""Taking moves back at a table: whose yes a take-back needs, whether a person may ask for one now, and the
take-back itself, made under the table's lock as an entry of the game's log (`engine.take_back`). Part of a
session (`bot.table.session.Session` inherits it), kept apart as the rules of one thing. No Discord here.
"""

from __future__ import annotations

import logging
from collections.abc import Collection
from typing import Any

from bot.league import HOST_TOOK_BACK
from bot.store import StaleVersion, StoreError
from bot.table.settings import TableSettings
from engine import TAKE_BACK, Action, IllegalAction, LogEntry, State, take_back_refusal
from engine import take_back as engine_take_back

Refusal = tuple[str, dict[str, Any]]  # as `bot.table.session.Refusal`

log = logging.getLogger("turista.game")
TAKE_BACK_LIMIT = 3  # take-backs a game allows, under its house rule `take_backs`


class TakingBack:
    """A session's take-backs (the state, store, lock and moves it uses are the session's)."""

    def others_playing(self, seat: int) -> list[int]:
        """Every other person still in the game whose seat no computer plays."""
        st = self.state
        assert st is not None
        return [s.user_id for s in self.seats if s.user_id is not None and s.seat != seat
                and not st.seats[s.seat].out and not self.plays_itself(s.seat)]

    def people_asked(self, seat: int) -> list[int]:
        """Whose yes a take-back by `seat` needs: every other person still playing (a computer seat agrees); under
        the house rule `take_back_host`, the host alone (nobody, when the host asks), and the game is then rated
        for nobody (`bot.league.HOST_TOOK_BACK`)."""
        others = self.others_playing(seat)
        if self.settings.take_back_host:
            if self.user_of(seat) == self.row.host_id:
                return []
            return [self.row.host_id] if self.row.host_id in others else others
        return others

    async def logged(self) -> tuple[State, list[LogEntry], list[int | None]]:
        """The game's first state, its log's entries (action and events, the start row left out) and who made
        each (a person's id; None for the bot: computers, clocks)."""
        first = await self.storage.initial_state(self.gid)
        rows = [row for row in await self.storage.log(self.gid) if row.action is not None]
        assert first is not None
        return first, [(row.decoded_action(), row.decoded_events()) for row in rows], [row.actor for row in rows]

    async def take_back_refusal(self, user_id: int, count: int) -> tuple[Refusal | None, list[dict]]:
        """Why the person may not ask to take back their last `count` moves now (None if they may), and the
        events of those moves (what the request shows)."""
        st = self.state
        seat = self.seat_of(user_id)
        if st is None or self.closed or seat is None:
            return ("no_game", {}) if seat is not None else ("not_a_player", {}), []
        if self.paused:
            return ("paused", {}), []
        if not self.settings.take_backs:
            return ("take_backs_off", {}), []
        _, entries, actors = await self.logged()
        if sum(1 for action, _ in entries if action is not None and action.kind == TAKE_BACK) >= TAKE_BACK_LIMIT:
            return ("take_back_limit", {"count": TAKE_BACK_LIMIT}), []
        # Moves the clock or a computer made for the seat are not the person's to take back.
        mine = 0
        for actor in reversed(actors):
            if actor != user_id:
                break
            mine += 1
        why = take_back_refusal(entries[len(entries) - mine:], seat, count) if mine else ("cannot_take_back", {})
        if why is not None:
            return why, []
        return None, [event for _, events in entries[len(entries) - count:] for event in events]

    async def last_events(self, count: int) -> list[dict]:
        """The events of the game's last `count` log entries, oldest first."""
        assert self.state is not None
        rows = await self.storage.log(self.gid, after=self.state.version - count)
        return [event for row in rows for event in row.decoded_events()]

    async def take_back(self, version: int, seat: int, count: int, actor: int | None, *,
                        asked: bool = False, agreed: Collection[int] = ()) -> Refusal | list[dict]:
        """Take back `seat`'s last `count` moves, agreed at `version` (by `agreed`): the game as it was before
        them, as a new entry of the log. `asked`: agreed on a request (`Store.ask_take_back`), which must still be
        open and is then settled, both under the lock (a No clicked meanwhile wins). The refusal, or the events."""
        async with self.lock:
            blocked = self.unavailable(version)
            if blocked is not None:
                return blocked
            st = self.state
            if asked:
                request = await self.storage.take_back_request(self.gid, version)
                if request is None or request.status != "open":
                    return "take_back_closed", {}
            first, entries, _ = await self.logged()
            try:
                outcome = engine_take_back(first, entries, st, seat, count)
                if self.settings.take_back_host and set(self.others_playing(seat)) - set(agreed) \
                        and not self.settings.values.get(HOST_TOOK_BACK):
                    # Not everyone said yes (the host alone did): the game will be rated for nobody. Marked first, so
                    # that a crash in between errs on the side of no rating.
                    await self._mark_unrated()
                events = await self.act(Action(kind=TAKE_BACK, seat=seat, count=count), actor, outcome=outcome)
            except IllegalAction as error:
                return error.code, dict(error.params)
            except StaleVersion:
                await self.reload()
                return "outdated", {}
            if asked:
                try:
                    await self.storage.settle_take_back(self.gid, version, "done")
                except StoreError as error:  # the take-back is made; the request is outdated by its version anyway
                    log.warning("game %d: could not close the take-back request: %s", self.gid, error.code)
        self.after_change()
        return events

    async def _mark_unrated(self) -> None:
        values = {**self.settings.values, HOST_TOOK_BACK: True}
        await self.storage.update_settings(self.gid, values)
        self.row.settings = values
        self.settings = TableSettings(values)

    async def refuse_take_back(self, version: int) -> bool:
        """A No to the take-back asked at `version` (under the lock, so that it never crosses the last Yes);
        False when it was no longer open."""
        async with self.lock:
            return await self.storage.settle_take_back(self.gid, version, "refused")

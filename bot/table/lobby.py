"""A table before its game starts: who sits at it, who hosts it, its house rules, and its start.

Every change happens under the channel's lock (its lobby and its game share one), on the row read again under
that lock, and is checked there by the same rules that gave an immediate answer before (`check`): a click that
waited behind another is never applied to a lobby that changed meanwhile. What cannot be done raises `Refusal`
with a code the handlers say in the player's words. No Discord here.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from typing import Any

from bot.config import Config
from bot.store import GameRow, StoreError
from bot.table import names
from bot.table.settings import NotOffered, TableSettings
from bot.table.storage import Storage
from engine import IllegalAction, State, new_game

COMPUTER_NAMES = ("Lupita", "Don Ramón", "Chabelo", "Doña Florinda", "El Profe", "La Güera")


class Refusal(Exception):
    """Why a lobby cannot do what was asked: an error code and its parameters."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


@dataclass(frozen=True)
class Actor:
    """Who asks: the person, and whether they may manage the channel (or administer the server)."""

    user_id: int
    manages_channel: bool = False


def may_manage(actor: Actor, row: GameRow) -> bool:
    """The host, or anyone who may manage the channel, runs the table; once the host has left the lobby, anyone
    still seated may."""
    if actor.user_id == row.host_id or actor.manages_channel:
        return True
    # A host who leaves hands the role on (see `Store.remove_seat`); a lobby from before that still works.
    return row.status == "lobby" and row.seat_of(row.host_id) is None and row.seat_of(actor.user_id) is not None


def check(row: GameRow | None, gid: int | None = None, manager: Actor | None = None) -> GameRow:
    """The channel's table if it is still in the lobby (and is game `gid`, for a button), and, with `manager`,
    if that person may run it; else the Refusal that says why."""
    if row is None or (gid is not None and row.id != gid):
        raise Refusal("no_lobby")
    if row.status != "lobby":
        raise Refusal("game_running")
    if manager is not None and not may_manage(manager, row):
        raise Refusal("not_host")
    return row


def _seat_refusal(error: StoreError) -> Refusal:
    """Why a seat could not be taken, in the player's words: the table is full, they sit there already, the game
    started, the database is busy…, and only otherwise "no open table"."""
    if error.code in ("table_full", "already_seated") or error.code.startswith("db_"):
        return Refusal(error.code)
    return Refusal("game_running" if error.code == "game_active" else "no_lobby")


@dataclass(frozen=True)
class Started:
    row: GameRow  # the table as stored once started
    state: State
    events: list[dict]


class Lobby:
    """The lobbies of this process, each changed under its channel's lock (`changing`)."""

    def __init__(self, config: Config, storage: Storage, lock_for: Callable[[int], asyncio.Lock]) -> None:
        self.config = config
        self.storage = storage
        self.lock_for = lock_for

    async def of_channel(self, channel_id: int) -> GameRow | None:
        """The channel's open table (lobby or game in play), if any."""
        return await self.storage.game_by_channel(channel_id)

    @contextlib.asynccontextmanager
    async def changing(self, channel_id: int, gid: int | None = None,
                       manager: Actor | None = None) -> AsyncIterator[GameRow]:
        """Hold the channel's lock, with its lobby read again and checked (`check`)."""
        async with self.lock_for(channel_id):
            yield check(await self.of_channel(channel_id), gid, manager)

    async def _again(self, row: GameRow) -> GameRow:
        return await self.storage.game(row.id)

    # -- opening and seats (each with the channel's lock held) ---------------------------------------------
    async def open(self, guild_id: int, channel_id: int, host_id: int, host_name: str, edition: str,
                   settings: TableSettings) -> GameRow:
        """A new table in the channel, with its host seated."""
        seed = self.config.seed if self.config.seed is not None else _fresh_seed()
        try:
            gid = await self.storage.create_game(guild_id, channel_id, host_id, edition, dict(settings.values), seed,
                                                 host_name=host_name)
        except StoreError as error:
            raise Refusal(error.code) from error
        return await self.storage.game(gid)

    async def rematch(self, old: GameRow, host_id: int, host_name: str) -> GameRow:
        """A rematch of the game `old` in its channel (the channel's lock held): a new table with the same
        edition and house rules, `host_id` its host, and everyone who played seated again in the order they
        sat: the people, and the computer seats at their level. A seat the host handed to a computer (its
        person put out, or forgotten since) stays empty. Refused while the channel has an open table (a second
        click on the same Rematch, or a table opened meanwhile)."""
        if await self.of_channel(old.channel_id) is not None:
            raise Refusal("rematch_busy")
        st = old.state
        row = await self.open(old.guild_id, old.channel_id, host_id, host_name, old.edition,
                              TableSettings(old.settings).again())
        taken = [host_name]
        for seat in sorted(old.seats, key=lambda s: s.seat):
            from_the_start = st is not None and seat.seat < len(st.seats) and bool(st.seats[seat.seat].computer)
            if seat.user_id == host_id or (seat.user_id is None and not from_the_start):
                continue
            name = names.unique(seat.name, taken)
            try:
                await self.storage.add_seat(row.id, seat.user_id, name, seat.computer if seat.user_id is None else "")
            except StoreError as error:
                raise _seat_refusal(error) from error
            taken.append(name)
        return await self._again(row)

    async def join(self, row: GameRow, user_id: int, name: str) -> GameRow:
        if row.seat_of(user_id) is not None:
            raise Refusal("already_seated")
        try:
            await self.storage.add_seat(row.id, user_id, names.unique(name, [s.name for s in row.seats]))
        except StoreError as error:
            raise _seat_refusal(error) from error
        return await self._again(row)

    async def leave(self, row: GameRow, user_id: int) -> tuple[GameRow, bool]:
        """The person stands up; (the table now, whether it closed because nobody is left)."""
        if not await self.storage.remove_seat(row.id, user_id):
            raise Refusal("not_seated")
        row = await self._again(row)
        if any(s.user_id for s in row.seats):
            return row, False
        # The last person left: nobody is left to start it, so the table closes.
        await self.storage.set_status(row.id, "abandoned")
        return row, True

    async def add_computer(self, row: GameRow, level: str) -> tuple[GameRow, str]:
        """A computer seat of `level`; (the table now, the computer's name)."""
        taken = [s.name for s in row.seats]
        name = next((n for n in COMPUTER_NAMES if names.unique(n, taken) == n), f"CPU {len(row.seats) + 1}")
        try:
            await self.storage.add_seat(row.id, None, name, level)
        except StoreError as error:
            raise _seat_refusal(error) from error
        return await self._again(row), name

    async def remove_computer(self, row: GameRow) -> tuple[GameRow, str]:
        """The last computer seated stands up; (the table now, its name)."""
        seat = next((s for s in reversed(row.seats) if s.computer), None)
        if seat is None:
            raise Refusal("not_seated")
        await self.storage.remove_seat_at(row.id, seat.seat)
        return await self._again(row), seat.name

    async def kick(self, row: GameRow, user_id: int) -> GameRow:
        if not await self.storage.remove_seat(row.id, user_id):
            raise Refusal("not_seated")
        return await self._again(row)

    async def choose(self, row: GameRow, what: str, values: list[str]) -> GameRow:
        """Fold one of the house rules' selects into the table's settings."""
        try:
            settings = TableSettings(row.settings).chosen(what, values)
        except NotOffered as error:  # only a modified client sends what the select did not offer
            raise Refusal("invalid") from error
        await self.storage.update_settings(row.id, dict(settings.values))
        return await self._again(row)

    async def cancel(self, row: GameRow) -> None:
        await self.storage.set_status(row.id, "abandoned")

    async def start(self, row: GameRow) -> Started:
        """The game begins: its first state is stored with the clock of its first decision and the end of its
        time limit; the thread and the first table are the face's to show."""
        if len(row.seats) < 2:
            raise Refusal("not_enough_players")
        settings = TableSettings(row.settings)
        try:
            state, events = new_game(settings.edition(row.edition), [s.name for s in row.seats], row.seed,
                                     settings=settings.rules, computers=[s.computer for s in row.seats])
        except IllegalAction as error:
            raise Refusal(error.code, **dict(error.params)) from error
        if settings.time_limit:
            # The game's clock is part of its settings; `deadline` is the clock of each decision.
            ends_at = time.time() + settings.time_limit * self.config.minute
            await self.storage.update_settings(row.id, dict(settings.started(ends_at).values))
        # The first decision's clock is saved with the start, like every later one with its move.
        timeout = settings.turn_timeout * self.config.time_scale
        person_first = any(not row.seats[s].computer for s in state.seat_to_act())
        deadline = time.time() + timeout if timeout and person_first else None
        await self.storage.start_game(row.id, state, events, deadline=deadline)
        return Started(await self._again(row), state, events)


def _fresh_seed() -> int:
    return random.SystemRandom().randrange(1, 2**31)

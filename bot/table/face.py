"""What a table tells the face that shows it, and nothing more: the one interface between the two wings.

The table (`bot.table.session`) applies moves and keeps the game; its face (`bot.face.publisher`) shows it in
Discord. After each change the table hands the face a `Table` (the game as it is now) with what changed, and the
click to answer if a click asked for it; the face never calls back into the table, and the table never waits on
anything but what the face raises.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from bot.store import MessageRow, SeatRow
from bot.table.settings import TableSettings
from engine import State


class NotShown(Exception):
    """The face could not show a change (Discord refused or did not answer, or the database did not record a
    message): the change is made all the same, and the table has its messages put right later."""


@dataclass(frozen=True)
class Table:
    """A game as its face shows it, at one moment: handed to every call of the face, never kept by it."""

    game: int
    guild_id: int
    host_id: int
    opened_with: str  # the edition the table was opened with (its settings may name another)
    channel_id: int  # the channel the table was opened in (its lobby message is there)
    where: int  # where the game's messages go: its thread, else the channel
    lang: str  # the language of the shared messages
    state: State
    seats: list[SeatRow]
    settings: TableSettings
    lobby: MessageRow | None  # the lobby message in the channel, which tells how the game goes
    # By correspondence: since when the game waits for the decision pending, and when its clock runs out (unix
    # times), for the table's line that says so; None live, or when no clock runs.
    since: float | None = None
    deadline: float | None = None
    paused_at: float | None = None  # since when the game is paused (`/turista pause`); None: it is not

    @property
    def thread_id(self) -> int | None:
        return self.where if self.where != self.channel_id else None

    def user_of(self, seat: int) -> int | None:
        return next((s.user_id for s in self.seats if s.seat == seat), None)


@dataclass(frozen=True)
class Notice:
    """A one-off message for the table (a warning, "played for…"), by its catalogue key."""

    key: str  # e.g. "table.played_for"
    seat: int | None = None  # the seat it names
    ping: tuple[int, ...] = ()  # the people it addresses and pings (user ids)
    deadline: float | None = None  # unix time of a countdown it shows
    since: float | None = None  # unix time the game has waited since (a reminder says it)
    what: str = ""  # what the game waits for (`bot.table.reminders.waiting_for`), for a reminder
    plain: bool = False  # the text itself as the message's content, so that a push notification shows it


class Face(Protocol):
    """How a table is shown. Every call may raise `NotShown`, except `tell`, which the game never waits on."""

    async def show(self, table: Table, events: list[dict], click: object | None = None) -> None:
        """Show what `events` changed; `click`: the face's own handle on the click that asked for them."""

    async def opened(self, table: Table, events: list[dict]) -> None:
        """The game's first table, telling how it started (`events`: those of the start)."""

    async def restore(self, table: Table) -> None:
        """Every message that carries a pending decision shows the current version (after a start, a failure)."""

    async def tell(self, table: Table, notice: Notice) -> None:
        """Post `notice`; a failure is only logged."""

    async def remind_directly(self, table: Table, notice: Notice) -> list[int]:
        """Send the reminder `notice` by direct message to each person it names (`ping`): those Discord refused
        (a person who takes no direct messages), whose reminder then goes to the game's channel."""

    async def ended(self, table: Table, ended_by: str) -> None:
        """The game was stopped by `ended_by`: no message keeps buttons, and the standings as they are go up."""

    async def close(self) -> None:
        """Let what the face does in the background finish (the process stops)."""

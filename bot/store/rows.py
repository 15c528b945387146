"""What the store hands back: plain rows, with the engine state decoded only when asked for."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import msgspec

import engine


@dataclass(frozen=True, slots=True)
class Activity:
    """What an admin's monitoring wants to know: open games, and when anything last happened."""

    lobbies: int  # tables waiting for players
    playing: int  # games under way
    last_action: float | None  # unix time of the newest change to any game, None for an empty database


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int  # the engine seat index
    user_id: int | None  # None for a computer player
    name: str
    computer: str = ""  # "" for a person, else the computer player's level


MESSAGE_KINDS = ("lobby", "table", "auction", "offer")


@dataclass(frozen=True, slots=True)
class MessageRow:
    """A message of the game that carries a decision (see `MESSAGE_KINDS`) as last stored."""

    kind: str
    channel_id: int  # the channel or thread it is in
    message_id: int | None  # None until a first post is confirmed
    version: int  # the state version it shows
    posting: int | None = None  # the version of a POST not yet confirmed (a crash may have cut it)
    digest: str | None = None  # what was last sent (to skip an edit that changes nothing)
    board: str | None = None  # the picture attached (to upload it again only when the board changed)
    updated_at: float = 0.0


@dataclass(eq=False)
class GameRow:
    id: int
    guild_id: int
    channel_id: int
    host_id: int
    status: str  # lobby, active, finished, abandoned
    edition: str
    settings: dict[str, Any]  # engine Settings fields plus the bot's own keys
    seed: int
    version: int
    table_message_id: int | None  # the lobby message (a game in play keeps its messages in `messages`)
    deadline: float | None  # unix time the pending decision times out, None when no timer runs
    created_at: float
    updated_at: float
    started_at: float | None
    finished_at: float | None
    seats: list[SeatRow] = field(default_factory=list)
    thread_id: int | None = None  # the game's own thread, None when it is played in the channel
    messages: dict[str, MessageRow] = field(default_factory=dict)  # by kind
    snapshot: str | None = field(default=None, repr=False)
    _state: engine.State | None = field(default=None, repr=False)

    @property
    def state(self) -> engine.State | None:
        """The latest engine state (None in the lobby), decoded on first use: start-up stays fast."""
        if self._state is None and self.snapshot is not None:
            self._state = engine.from_json(self.snapshot)
        return self._state

    @property
    def where(self) -> int:
        """Where the game's messages go: its thread, else the channel."""
        return self.thread_id or self.channel_id

    @property
    def is_open(self) -> bool:
        return self.status in ("lobby", "active")

    def seat_of(self, user_id: int) -> int | None:
        """The engine seat `user_id` plays, if any."""
        return next((s.seat for s in self.seats if s.user_id == user_id), None)

    def engine_settings(self) -> engine.Settings:
        return engine_settings(self.settings)


def engine_settings(settings: dict[str, Any]) -> engine.Settings:
    """The engine's Settings from the free settings dict (the bot's own keys are ignored)."""
    known = set(engine.Settings.__struct_fields__)
    return msgspec.convert({k: v for k, v in settings.items() if k in known}, engine.Settings)


_action_decoder = msgspec.json.Decoder(engine.Action)


@dataclass(frozen=True, slots=True)
class LogRow:
    seq: int  # the game version this action produced; seq of the start row = the initial version
    actor: int | None  # the Discord user who acted; None for the bot itself (computers, timers)
    action: str | None  # the engine Action as JSON; None on the game's start row
    events: str  # the engine events as a JSON list
    time: float

    def decoded_action(self) -> engine.Action | None:
        return None if self.action is None else _action_decoder.decode(self.action)

    def decoded_events(self) -> list[dict[str, Any]]:
        return msgspec.json.decode(self.events)


@dataclass(frozen=True, slots=True)
class ResultRow:
    seat: int
    rank: int
    net_worth: int
    rent_collected: int = 0
    titles: int = 0  # titles owned at the end
    user_id: int | None = None
    name: str = ""
    computer: str = ""
    cash: int = 0
    titles_value: int = 0  # what those titles count for in the net worth (mortgaged at half)
    buildings_value: int = 0
    out: bool = False  # bankrupt or withdrawn


@dataclass(frozen=True, slots=True)
class HistoryRow:
    """A finished or abandoned game, for `/turista history`."""

    id: int
    channel_id: int
    edition: str
    status: str
    created_at: float
    started_at: float | None
    finished_at: float | None
    turns: int | None
    players: list[SeatRow]
    results: list[ResultRow]  # by rank; empty for an abandoned game

    @property
    def winner(self) -> ResultRow | None:
        return self.results[0] if self.results else None


@dataclass(frozen=True, slots=True)
class LeaderRow:
    """One person's record over a guild's finished games."""

    user_id: int
    name: str  # the name they played under most recently
    games: int
    wins: int
    average_rank: float
    best_net_worth: int
    rent_collected: int

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


NOTIFY_MODES = ("channel", "dm", "none")  # where a person's reminders go


@dataclass(frozen=True, slots=True)
class NotifyRow:
    """How a person wants their reminders (`/turista notify`): where, and the hours they are not to come."""

    user_id: int
    mode: str = "channel"  # one of NOTIFY_MODES
    quiet_from: int | None = None  # hour of the day (0-23, in `time_zone`) the quiet hours start; None: none
    quiet_to: int | None = None  # hour they end
    time_zone: str = "UTC"  # an IANA name, e.g. America/Mexico_City


@dataclass(frozen=True, slots=True)
class LeaseRow:
    """Who may write the games of one gateway shard (`shard` of `shard_count`): the process `owner`, as long as
    the lease's `epoch` is the one it took."""

    shard_count: int
    shard: int
    owner: str
    epoch: int
    taken_at: float


@dataclass(frozen=True, slots=True)
class Fence:
    """The leases a store holds: its writes of a game are made only while the game's shard's lease still has
    `epoch` (every lease this process took at once has the same epoch)."""

    shard_count: int
    shards: tuple[int, ...]
    owner: str
    epoch: int

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.shard_count


@dataclass(frozen=True, slots=True)
class RegistrationRow:
    """The slash commands of an application in one scope (guild 0: global), as the bot last registered them."""

    application_id: int
    guild_id: int
    digest: str | None  # of the payload Discord last accepted, None if it never did
    synced_at: float | None
    refused: str | None  # why Discord refused the newest attempt (its command and field), None if it accepted it
    refused_at: float | None
    kept: int | None  # how many commands Discord still had after that refusal


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int  # the engine seat index
    user_id: int | None  # None for a computer player
    name: str
    computer: str = ""  # "" for a person, else the computer player's level


@dataclass(frozen=True, slots=True)
class TakeBackRow:
    """A take-back asked for at a game's `version`: who asks (seat, person), how many of their last moves, who
    agreed so far, and whether it is still open, refused or done."""

    version: int
    seat: int
    user_id: int | None
    count: int
    agreed: tuple[int, ...] = ()
    status: str = "open"


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
    reminded: float | None = None  # when the latest reminder sent was due (unix time); None: none yet
    paused_at: float | None = None  # since when the game is paused (unix time); None: it is not
    paused_left: float | None = None  # seconds its pending decision's clock had left when it was paused
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


# -- the league ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class SeasonRow:
    guild_id: int
    number: int  # from 1
    started_at: float
    started_by: int | None  # who started it; None: it began with the guild's first rated game
    games: int  # games rated in it


@dataclass(frozen=True, slots=True)
class RankingRow:
    """One person in a season's table. `rating` is what to show (bot.league.shown); mu and sigma are the model's."""

    place: int | None  # 1 = best; None for a provisional entry (too few games)
    user_id: int
    name: str  # the name of their latest rated game
    rating: int
    mu: float
    sigma: float
    games: int
    wins: int
    trend: int  # how the shown rating moved in their latest rated game
    last_game_id: int
    last_played_at: float


@dataclass(frozen=True, slots=True)
class Ranking:
    """A guild's table for one season: the people with enough games by rating, then the provisional ones.

    With an edition, the ratings are that edition's own: every rated game also updates a rating per edition,
    computed from that edition's games only (not the overall rating filtered)."""

    guild_id: int
    season: int
    edition: str | None
    started_at: float | None  # None: the season has no rated game yet
    ranked: list[RankingRow]
    provisional: list[RankingRow]
    games: int = 0  # the games rated in the season (with an edition, that edition's only)


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A person's rating before and after one rated game (shown values), in the order the games were rated."""

    game_id: int
    season: int
    position: int  # the game's place in the season's order
    rated_at: float
    edition: str  # the game's edition
    placing: int
    before: int
    after: int
    mu: float  # after the game
    sigma: float


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one game did to one of its people's rating over every edition (shown values)."""

    game_id: int
    user_id: int
    seat: int
    placing: int
    season: int
    before: int
    after: int
    mu: float  # after the game
    sigma: float


@dataclass(frozen=True, slots=True)
class BestGame:
    game_id: int
    edition: str
    net_worth: int
    rank: int
    finished_at: float | None


@dataclass(frozen=True, slots=True)
class TitleCount:
    edition: str
    square: int  # the title's square on that edition's board
    times: int  # how often they bought it (from the bank or at auction), over their finished games


@dataclass(frozen=True, slots=True)
class Opponent:
    user_id: int
    name: str  # the name of the latest game played together
    games: int  # finished games played together
    ahead: int  # of those, how many the profile's person finished above them


@dataclass(frozen=True, slots=True)
class Profile:
    """A person's record in a guild: their rating in a season, and what their finished games there show."""

    guild_id: int
    user_id: int
    name: str  # the name of their latest finished game in the guild
    season: int
    rating: int | None  # None: no rated game in this season
    mu: float | None
    sigma: float | None
    place: int | None  # in the season's table; None while provisional
    provisional: bool
    season_games: int  # rated games in the season
    season_wins: int
    games: int  # finished games in the guild, every season, rated or not
    wins: int
    history: list[RatingPoint]  # the season's rated games, oldest first
    favourite_edition: str | None  # the edition of most of their games (ties: the latest played)
    best_game: BestGame | None  # the most worth at the end
    titles: list[TitleCount]  # the titles they buy most, most first
    opponents: list[Opponent]  # the people they play against most, most first


@dataclass(frozen=True, slots=True)
class PlacedPlayer:
    placing: int
    seat: int
    user_id: int | None
    name: str
    computer: str
    net_worth: int
    out: bool
    rating_before: int | None = None  # shown ratings, for a rated person
    rating_after: int | None = None


@dataclass(frozen=True, slots=True)
class GameSummary:
    """A game that ended (played to its end, or ended by its host) for the guild's list of last games."""

    id: int
    channel_id: int
    edition: str
    status: str  # finished, abandoned
    started_at: float
    finished_at: float | None
    turns: int
    minutes: float  # from the start to the end
    season: int | None  # the season it was rated in; None when unrated
    players: list[PlacedPlayer]  # by placing


@dataclass(frozen=True, slots=True)
class Rerated:
    """What `Store.rerate` recomputed for one guild."""

    guild_id: int
    games: int  # games that changed ratings
    people: int  # people rated, over every season


@dataclass(frozen=True, slots=True)
class PersonalSeat:
    game_id: int
    guild_id: int
    channel_id: int
    edition: str
    status: str
    seat: int
    name: str
    computer: str  # a computer standing in for them, if one is
    created_at: float
    finished_at: float | None
    rank: int | None  # their placing, in a finished game
    net_worth: int | None
    handed_over: bool = False  # the host handed the seat to a computer: it keeps their name, not their id


@dataclass(frozen=True, slots=True)
class PersonalRating:
    guild_id: int
    season: int
    edition: str  # "" for the rating over every edition
    name: str
    mu: float
    sigma: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class PersonalData:
    """Everything the store keeps that names or identifies one person (`/turista privacy`)."""

    user_id: int
    seats: list[PersonalSeat]  # every game they sat at, of every guild, open ones too
    ratings: list[PersonalRating]
    rating_changes: int  # rated games recorded for them (one row per game and rating)
    actions: int  # moves of theirs in the games' logs (their id beside each)
    hosted: list[int]  # games they opened
    seasons_started: list[tuple[int, int]]  # (guild, season) they started


@dataclass(frozen=True, slots=True)
class Forgotten:
    """What `Store.forget` changed."""

    games: int  # past games whose seat, results and states now name them as a former player
    ratings: int  # rating rows removed
    actions: int  # log rows whose actor was them

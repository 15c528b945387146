"""Ratings in the database: seasons, a game rated inside the transaction that ends it, and a guild's ratings
recomputed from its games (`turista store rerate`).

The rules (who is rated, how, what is shown) are bot.league's; this module only moves rows. Every function
takes the open transaction of a `Store` method.

Order: ratings depend on the order games are rated in. Each season of a guild counts its rated games
(`seasons.games`) and each rated game keeps its number there (`league_games.position`); every rating
transaction of a guild takes the row of its current season first, so two games of one guild are rated one
after the other, each from the other's result, and `rerate` replays them in the same order.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import msgspec

import engine
from bot import league
from bot.league import Change, Placed, Skill
from bot.store.backend import Tx
from bot.store.errors import Conflict, StoreError
from bot.store.rows import Rerated, ResultRow, SeasonRow

ALL_EDITIONS: Final = ""  # the `edition` of the rating over every edition
MAX_MARKS: Final = 500  # ids per `IN (…)` list
_SEASON_COLUMNS: Final = "guild_id, number, started_at, started_by, games"


def marks(values: Sequence[object]) -> str:
    return ",".join("?" * len(values))


def chunks(values: Sequence[int], size: int = MAX_MARKS) -> Iterable[Sequence[int]]:
    for start in range(0, len(values), size):
        yield values[start : start + size]


# -- seasons ---------------------------------------------------------------------------------------------
def seasons(tx: Tx, guild_id: int) -> list[SeasonRow]:
    rows = tx.execute(f"SELECT {_SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY number", [guild_id])
    return [SeasonRow(*r) for r in rows]


def current_season(tx: Tx, guild_id: int) -> int:
    """The guild's season now: 1 until a first game is rated or a season is started."""
    return tx.execute("SELECT coalesce(max(number), 1) FROM seasons WHERE guild_id = ?", [guild_id]).fetchone()[0]


def new_season(tx: Tx, guild_id: int, by_user: int, after: int | None, ts: float, for_update: str) -> SeasonRow:
    """Start the guild's next season (season 2 for a guild that never rated a game: the first one ends
    empty). With `after`, only if the current season is still `after`, so a second click on the same
    confirmation changes nothing: `season_changed` otherwise."""
    # The current season's row first: a game being rated meanwhile ends in the season it began in.
    row = tx.execute(
        "SELECT number FROM seasons WHERE guild_id = ? ORDER BY number DESC LIMIT 1" + for_update, [guild_id]
    ).fetchone()
    if row is None:  # nothing rated yet: season 1 ends unplayed, now
        tx.execute(
            "INSERT INTO seasons (guild_id, number, started_at, started_by, games) VALUES (?, 1, ?, NULL, 0)"
            " ON CONFLICT (guild_id, number) DO NOTHING",
            [guild_id, ts],
        )
    current = row[0] if row is not None else 1
    if after is not None and after != current:
        raise StoreError("season_changed", guild_id=guild_id, season=current)
    number = current + 1
    try:
        tx.execute(
            "INSERT INTO seasons (guild_id, number, started_at, started_by, games) VALUES (?, ?, ?, ?, 0)",
            [guild_id, number, ts, by_user],
        )
    except Conflict:  # PostgreSQL: another process started it between our read and this write
        raise StoreError("season_changed", guild_id=guild_id, season=number) from None
    return SeasonRow(guild_id, number, ts, by_user, 0)


def _claim_position(tx: Tx, guild_id: int, ts: float) -> tuple[int, int]:
    """The season a game rated now goes into and its place in that season's order (the season's row stays
    locked until the transaction ends)."""
    tx.execute(
        "INSERT INTO seasons (guild_id, number, started_at, started_by, games) VALUES (?, 1, ?, NULL, 0)"
        " ON CONFLICT (guild_id, number) DO NOTHING",
        [guild_id, ts],
    )
    while True:
        number = current_season(tx, guild_id)
        position = tx.execute(
            "UPDATE seasons SET games = games + 1 WHERE guild_id = ? AND number = ? RETURNING games", [guild_id, number]
        ).fetchone()[0]
        # PostgreSQL: a season started while this waited for the row is seen now; rate in that one instead.
        if current_season(tx, guild_id) == number:
            return number, position
        tx.execute("UPDATE seasons SET games = games - 1 WHERE guild_id = ? AND number = ?", [guild_id, number])


# -- rating a game ----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class _Game:
    """A game that ended, as rating it needs it."""

    id: int
    guild_id: int
    edition: str
    at: float  # when it ended
    placed: list[Placed]
    names: dict[int, str]  # the people's names in it


def _from_results(game_id: int, guild_id: int, edition: str, at: float, results: Iterable[ResultRow]) -> _Game:
    rows = list(results)
    return _Game(
        game_id,
        guild_id,
        edition,
        at,
        [Placed(r.seat, r.rank, r.user_id, r.computer) for r in rows],
        {r.user_id: r.name for r in rows if r.user_id is not None},
    )


def _from_state(
    game_id: int, guild_id: int, edition: str, at: float, snapshot: str, seats: Iterable[Sequence[Any]]
) -> _Game:
    """A game its host ended: placed by the standings as they stood (bot.league.placings)."""
    placing = league.placings(engine.from_json(snapshot))
    rows = list(seats)  # (seat, user_id, name, computer)
    return _Game(
        game_id,
        guild_id,
        edition,
        at,
        [Placed(seat, placing[seat], user_id, computer) for seat, user_id, _, computer in rows],
        {user_id: name for _, user_id, name, _ in rows if user_id is not None},
    )


class _Move(msgspec.Struct):
    """What crediting a seat reads of a log row's action."""

    kind: str
    seat: int = -1


_move = msgspec.json.Decoder(_Move)


def credit(tx: Tx, game_id: int, seats: Iterable[tuple[int, int | None, str]]) -> dict[int, tuple[int | None, str]]:
    """Per seat (seat, holder, computer level at the end), whom it is rated for (`bot.league.credited`): a seat
    changed hands when its log has a person leaving it to a computer or sitting down in it, or when nobody holds
    it at the end but a person made moves in it (put out by the host before the log said so). The log says who
    made each move."""
    moves: dict[int, list[int | None]] = {}
    changed_hands: set[int] = set()
    for actor, action in tx.execute(
        "SELECT actor, action FROM actions WHERE game_id = ? AND action IS NOT NULL ORDER BY seq", [game_id]
    ):
        move = _move.decode(action)
        if move.kind in (engine.SIT, engine.HAND_OVER):
            changed_hands.add(move.seat)
        elif move.kind != engine.TAKE_BACK and move.seat >= 0:
            moves.setdefault(move.seat, []).append(actor)
    out = {}
    for seat, holder, level in seats:
        made = moves.get(seat, [])
        changed = seat in changed_hands or (holder is None and any(m is not None for m in made))
        out[seat] = league.credited(holder, level, made, changed)
    return out


def rate_finished(tx: Tx, game_id: int, results: Sequence[ResultRow]) -> None:
    """Rate a game that has just been played to its end, by its results (the final standings)."""
    guild_id, edition, at, settings = tx.execute(
        "SELECT guild_id, edition, finished_at, settings FROM games WHERE id = ?", [game_id]
    ).fetchone()
    if league.rated_at_all(msgspec.json.decode(settings)):
        _rate(tx, _from_results(game_id, guild_id, edition, at, results))


def rate_ended(tx: Tx, game_id: int) -> None:
    """Rate a game its host has just ended, if its house rule says so."""
    guild_id, edition, at, settings, snapshot = tx.execute(
        "SELECT guild_id, edition, finished_at, settings, snapshot FROM games WHERE id = ?", [game_id]
    ).fetchone()
    rules = msgspec.json.decode(settings)
    if snapshot is None or not league.rated_when_ended(rules) or not league.rated_at_all(rules):
        return
    seats = tx.execute("SELECT seat, user_id, name, computer FROM seats WHERE game_id = ?", [game_id]).fetchall()
    _rate(tx, _from_state(game_id, guild_id, edition, at, snapshot, _credited_seats(tx, game_id, seats)))


def _credited_seats(tx: Tx, game_id: int, seats: Iterable[Sequence[Any]]) -> list[tuple[Any, ...]]:
    """The seats (seat, user_id, name, computer) of a game its host ended, each as `credit` rates it."""
    rows = list(seats)
    rated = credit(tx, game_id, [(seat, user_id, computer) for seat, user_id, _, computer in rows])
    return [(seat, rated[seat][0], name, rated[seat][1]) for seat, _, name, _ in rows]


def _rate(tx: Tx, game: _Game) -> None:
    if not league.rated(game.placed):
        return
    if tx.execute("SELECT 1 FROM league_games WHERE game_id = ?", [game.id]).fetchone() is not None:
        return  # rated once, whatever calls again
    season, position = _claim_position(tx, game.guild_id, game.at)
    tx.execute(
        "INSERT INTO league_games (game_id, guild_id, season, position, rated_at) VALUES (?, ?, ?, ?, ?)",
        [game.id, game.guild_id, season, position, game.at],
    )
    people = [p.user_id for p in game.placed if p.user_id is not None]
    for edition in (ALL_EDITIONS, game.edition):
        skills = {
            user_id: Skill(mu, sigma)
            for user_id, mu, sigma in tx.execute(
                "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND season = ? AND edition = ?"
                f" AND user_id IN ({marks(people)})",
                [game.guild_id, season, edition, *people],
            )
        } if people else {}
        changes = league.rate(game.placed, skills)
        tx.executemany(
            "INSERT INTO ratings (guild_id, season, edition, user_id, name, mu, sigma, games, wins, last_game_id,"
            " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)"
            " ON CONFLICT (guild_id, season, edition, user_id) DO UPDATE SET name = excluded.name, mu = excluded.mu,"
            " sigma = excluded.sigma, games = ratings.games + 1, wins = ratings.wins + excluded.wins,"
            " last_game_id = excluded.last_game_id, updated_at = excluded.updated_at",
            [
                (game.guild_id, season, edition, c.user_id, game.names[c.user_id], c.after.mu, c.after.sigma,
                 int(c.won), game.id, game.at)
                for c in changes
            ],
        )  # fmt: skip
        _insert_changes(tx, game, season, position, edition, changes)


def _insert_changes(tx: Tx, game: _Game, season: int, position: int, edition: str, changes: list[Change]) -> None:
    tx.executemany(
        "INSERT INTO rating_changes (game_id, edition, user_id, guild_id, season, position, seat, rank,"
        " mu_before, sigma_before, mu_after, sigma_after) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (game.id, edition, c.user_id, game.guild_id, season, position, c.seat, c.placing, c.before.mu,
             c.before.sigma, c.after.mu, c.after.sigma)
            for c in changes
        ],
    )  # fmt: skip


# -- recomputing ------------------------------------------------------------------------------------------
@dataclass
class _Standing:
    """A person's rating as a recomputation goes."""

    name: str
    skill: Skill
    games: int = 0
    wins: int = 0
    last_game_id: int = 0
    updated_at: float = 0.0


@dataclass
class _Recomputed:
    ratings: dict[tuple[int, str, int], _Standing] = field(default_factory=dict)  # (season, edition, user)
    placed_games: list[tuple[int, int, int, float]] = field(default_factory=list)  # game, season, position, at
    counts: dict[int, int] = field(default_factory=dict)  # season -> games rated


def guilds_with_games(tx: Tx) -> list[int]:
    rows = tx.execute(
        "SELECT DISTINCT guild_id FROM games WHERE status IN ('finished', 'abandoned') ORDER BY guild_id"
    )
    return [r[0] for r in rows]


def _ended_games(tx: Tx, guild_id: int) -> list[_Game]:
    """Every game of the guild that may be rated: finished, or ended by its host under the house rule."""
    games: dict[int, _Game] = {}
    finished = [
        (gid, edition, at)
        for gid, edition, at, settings in tx.execute(
            "SELECT id, edition, finished_at, settings FROM games WHERE guild_id = ? AND status = 'finished'",
            [guild_id],
        )
        if league.rated_at_all(msgspec.json.decode(settings))
    ]
    results: dict[int, list[ResultRow]] = {gid: [] for gid, _, _ in finished}
    for gid, seat, rank, user_id, name, computer in tx.execute(
        "SELECT r.game_id, r.seat, r.rank, r.user_id, r.name, r.computer FROM results r"
        " JOIN games g ON g.id = r.game_id WHERE g.guild_id = ? AND g.status = 'finished'",
        [guild_id],
    ):
        if gid not in results:
            continue  # not rated at all (its host alone let a take-back through)
        results[gid].append(ResultRow(seat=seat, rank=rank, net_worth=0, user_id=user_id, name=name, computer=computer))
    for gid, edition, at in finished:
        games[gid] = _from_results(gid, guild_id, edition, at, results[gid])
    ended = [
        (gid, edition, at)
        for gid, edition, at, settings in tx.execute(
            "SELECT id, edition, finished_at, settings FROM games WHERE guild_id = ? AND status = 'abandoned'"
            " AND initial IS NOT NULL",
            [guild_id],
        )
        if league.rated_when_ended(rules := msgspec.json.decode(settings)) and league.rated_at_all(rules)
    ]
    by_id = {gid: (edition, at) for gid, edition, at in ended}
    for part in chunks(list(by_id)):
        snapshots = dict(tx.execute(f"SELECT id, snapshot FROM games WHERE id IN ({marks(part)})", part).fetchall())
        seats: dict[int, list[Sequence[Any]]] = {gid: [] for gid in part}
        for gid, *seat in tx.execute(
            f"SELECT game_id, seat, user_id, name, computer FROM seats WHERE game_id IN ({marks(part)})", part
        ):
            seats[gid].append(seat)
        for gid in part:
            edition, at = by_id[gid]
            games[gid] = _from_state(gid, guild_id, edition, at, snapshots[gid], _credited_seats(tx, gid, seats[gid]))
    return [g for g in games.values() if league.rated(g.placed)]


def _in_order(tx: Tx, guild_id: int, games: list[_Game]) -> list[tuple[int, _Game]]:
    """(season, game) in the order to rate them: the games rated before in their season and order, the others
    (finished before there were ratings, or whose rating was lost) in their season by time, slotted among them
    by when they ended."""
    recorded = {
        gid: (season, position)
        for gid, season, position in tx.execute(
            "SELECT game_id, season, position FROM league_games WHERE guild_id = ?", [guild_id]
        )
    }
    starts = [(number, started_at) for number, started_at in tx.execute(
        "SELECT number, started_at FROM seasons WHERE guild_id = ? ORDER BY number", [guild_id]
    )]  # fmt: skip
    if not starts and games:
        first = min(g.at for g in games)
        tx.execute(
            "INSERT INTO seasons (guild_id, number, started_at, started_by, games) VALUES (?, 1, ?, NULL, 0)",
            [guild_id, first],
        )
        starts = [(1, first)]

    def season_by_time(at: float) -> int:
        earlier = [number for number, started_at in starts if started_at <= at]
        return earlier[-1] if earlier else starts[0][0]

    by_season: dict[int, tuple[list[tuple[int, _Game]], list[_Game]]] = {}
    for g in games:
        if g.id in recorded:
            season, position = recorded[g.id]
            by_season.setdefault(season, ([], []))[0].append((position, g))
        else:
            by_season.setdefault(season_by_time(g.at), ([], []))[1].append(g)
    ordered: list[tuple[int, _Game]] = []
    for season in sorted(by_season):
        rated, unrated = by_season[season]
        rated.sort(key=lambda pair: pair[0])
        unrated.sort(key=lambda g: (g.at, g.id))
        merged = heapq.merge((g for _, g in rated), unrated, key=lambda g: g.at)
        ordered += [(season, g) for g in merged]
    return ordered


def rerate(tx: Tx, guild_id: int) -> Rerated:
    """Every rating of the guild recomputed from its games, in order (see `_in_order`); what the games rated
    one by one wrote is replaced. Holds the guild's season rows, so no game of the guild is rated meanwhile."""
    tx.execute("UPDATE seasons SET games = 0 WHERE guild_id = ?", [guild_id])
    ordered = _in_order(tx, guild_id, _ended_games(tx, guild_id))
    state = _Recomputed()
    changes: list[tuple[_Game, int, int, str, list[Change]]] = []
    for season, game in ordered:
        position = state.counts[season] = state.counts.get(season, 0) + 1
        state.placed_games.append((game.id, season, position, game.at))
        for edition in (ALL_EDITIONS, game.edition):
            people = [p.user_id for p in game.placed if p.user_id is not None]
            skills = {
                user_id: state.ratings[(season, edition, user_id)].skill
                for user_id in people
                if (season, edition, user_id) in state.ratings
            }
            done = league.rate(game.placed, skills)
            for c in done:
                standing = state.ratings.setdefault(
                    (season, edition, c.user_id), _Standing(game.names[c.user_id], c.after)
                )
                standing.name, standing.skill = game.names[c.user_id], c.after
                standing.games += 1
                standing.wins += int(c.won)
                standing.last_game_id, standing.updated_at = game.id, game.at
            changes.append((game, season, position, edition, done))
    for table in ("rating_changes", "league_games", "ratings"):
        tx.execute(f"DELETE FROM {table} WHERE guild_id = ?", [guild_id])
    tx.executemany(
        "INSERT INTO league_games (game_id, guild_id, season, position, rated_at) VALUES (?, ?, ?, ?, ?)",
        [(gid, guild_id, season, position, at) for gid, season, position, at in state.placed_games],
    )
    for game, season, position, edition, done in changes:
        _insert_changes(tx, game, season, position, edition, done)
    tx.executemany(
        "INSERT INTO ratings (guild_id, season, edition, user_id, name, mu, sigma, games, wins, last_game_id,"
        " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (guild_id, season, edition, user_id, s.name, s.skill.mu, s.skill.sigma, s.games, s.wins,
             s.last_game_id, s.updated_at)
            for (season, edition, user_id), s in state.ratings.items()
        ],
    )  # fmt: skip
    tx.executemany(
        "UPDATE seasons SET games = ? WHERE guild_id = ? AND number = ?",
        [(count, guild_id, season) for season, count in state.counts.items()],
    )
    people = {user_id for (_, _, user_id) in state.ratings}
    return Rerated(guild_id, len(state.placed_games), len(people))

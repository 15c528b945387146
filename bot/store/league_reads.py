"""The league's reads: a guild's ranking, a person's profile, the last games with their rating changes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

import engine
from bot import league
from bot.league import Skill
from bot.store.backend import Tx
from bot.store.ratings import ALL_EDITIONS, current_season, marks
from bot.store.rows import (
    BestGame,
    GameSummary,
    Opponent,
    PlacedPlayer,
    Profile,
    Ranking,
    RankingRow,
    RatingChange,
    RatingPoint,
    TitleCount,
)
from engine import standings


def _season_or_current(tx: Tx, guild_id: int, season: int | None) -> int:
    return current_season(tx, guild_id) if season is None else season


def ranking(tx: Tx, guild_id: int, season: int | None, edition: str | None, limit: int | None) -> Ranking:
    season = _season_or_current(tx, guild_id, season)
    started = tx.execute(
        "SELECT started_at FROM seasons WHERE guild_id = ? AND number = ?", [guild_id, season]
    ).fetchone()
    rows = tx.execute(
        "SELECT r.user_id, r.name, r.mu, r.sigma, r.games, r.wins, r.last_game_id, r.updated_at, c.mu_before,"
        " c.sigma_before FROM ratings r LEFT JOIN rating_changes c ON c.game_id = r.last_game_id"
        " AND c.edition = r.edition AND c.user_id = r.user_id"
        " WHERE r.guild_id = ? AND r.season = ? AND r.edition = ?",
        [guild_id, season, edition or ALL_EDITIONS],
    ).fetchall()
    entries = []
    for user_id, name, mu, sigma, games, wins, last_game, at, mu_before, sigma_before in rows:
        shown = league.shown(Skill(mu, sigma))
        before = league.shown(Skill(mu_before, sigma_before)) if mu_before is not None else shown
        entries.append((shown, mu - 3 * sigma, user_id, name, mu, sigma, games, wins, shown - before, last_game, at))
    # By the conservative estimate itself (not its rounding), then more games first, then a fixed order.
    entries.sort(key=lambda e: (-e[1], -e[6], e[2]))
    ranked: list[RankingRow] = []
    waiting: list[RankingRow] = []
    for shown, _, user_id, name, mu, sigma, games, wins, trend, last_game, at in entries:
        if league.provisional(games):
            waiting.append(RankingRow(None, user_id, name, shown, mu, sigma, games, wins, trend, last_game, at))
        else:
            ranked.append(
                RankingRow(len(ranked) + 1, user_id, name, shown, mu, sigma, games, wins, trend, last_game, at)
            )
    if limit is not None:
        ranked, waiting = ranked[:limit], waiting[:limit]
    rated = tx.execute(
        "SELECT count(*) FROM league_games l JOIN games g ON g.id = l.game_id WHERE l.guild_id = ? AND l.season = ?"
        + (" AND g.edition = ?" if edition else ""),
        [guild_id, season, *([edition] if edition else [])],
    ).fetchone()[0]
    return Ranking(guild_id, season, edition, started[0] if started else None, ranked, waiting, int(rated))


# A person's finished games in a guild: their results by the index on the person, then each game by its id.
# CROSS JOIN keeps that order in SQLite, whose planner would otherwise walk every finished game of the guild
# (two equal columns of games_by_guild look more selective to it than one of results_by_user); PostgreSQL
# plans it as the inner join it is.
_MINE: Final = " FROM results r CROSS JOIN games g"
_MINE_WHERE: Final = " WHERE g.id = r.game_id AND r.user_id = ? AND g.guild_id = ? AND g.status = 'finished'"


def profile(tx: Tx, guild_id: int, user_id: int, season: int | None, top: int, points: int) -> Profile | None:
    """Each figure is one query that the database aggregates: a person may have thousands of games."""
    season = _season_or_current(tx, guild_id, season)
    mine = [user_id, guild_id]
    # Per edition: games, wins and the latest game (game ids grow with time; finished_at is stored after the
    # game's state and would read it too).
    editions = tx.execute(
        "SELECT g.edition, count(*), sum(CASE WHEN r.rank = 1 THEN 1 ELSE 0 END), max(r.game_id)" + _MINE + _MINE_WHERE
        + " GROUP BY g.edition",
        mine,
    ).fetchall()  # fmt: skip
    rating = tx.execute(
        "SELECT name, mu, sigma, games, wins FROM ratings WHERE guild_id = ? AND season = ? AND edition = ?"
        " AND user_id = ?",
        [guild_id, season, ALL_EDITIONS, user_id],
    ).fetchone()
    if not editions and rating is None:
        return None
    games = sum(int(count) for _, count, _, _ in editions)
    wins = sum(int(won) for _, _, won, _ in editions)
    favourite = max(editions, key=lambda e: (e[1], e[3]))[0] if editions else None
    name = rating[0] if rating is not None else ""
    best = None
    if editions:
        latest = max(e[3] for e in editions)
        name = tx.execute("SELECT name FROM results WHERE game_id = ? AND user_id = ?", [latest, user_id]).fetchone()[0]
        gid, edition, worth, rank = tx.execute(
            "SELECT r.game_id, g.edition, r.net_worth, r.rank" + _MINE + _MINE_WHERE
            + " ORDER BY r.net_worth DESC, r.game_id LIMIT 1",
            mine,
        ).fetchone()  # fmt: skip
        finished_at = tx.execute("SELECT finished_at FROM games WHERE id = ?", [gid]).fetchone()[0]
        best = BestGame(gid, edition, worth, rank, finished_at)
    titles = [
        TitleCount(edition, square, int(times))
        for edition, square, times in tx.execute(
            "SELECT g.edition, t.square, sum(t.times)" + _MINE
            + " JOIN titles_bought t ON t.game_id = r.game_id AND t.seat = r.seat" + _MINE_WHERE
            + " GROUP BY g.edition, t.square ORDER BY sum(t.times) DESC, g.edition, t.square LIMIT ?",
            [*mine, top],
        )
    ]  # fmt: skip
    # The people they meet most; each one's name is the one of the last game they played together.
    together = tx.execute(
        "SELECT o.user_id, count(*), sum(CASE WHEN r.rank < o.rank THEN 1 ELSE 0 END), max(g.id)" + _MINE
        + " JOIN results o ON o.game_id = r.game_id" + _MINE_WHERE
        + " AND o.user_id IS NOT NULL AND o.user_id <> r.user_id"
        " GROUP BY o.user_id ORDER BY count(*) DESC, o.user_id LIMIT ?",
        [*mine, top],
    ).fetchall()  # fmt: skip
    opponents = [
        Opponent(other, tx.execute(
            "SELECT name FROM results WHERE game_id = ? AND user_id = ?", [last, other]
        ).fetchone()[0], int(count), int(ahead))
        for other, count, ahead, last in together
    ]  # fmt: skip
    recent = tx.execute(
        "SELECT c.game_id, c.season, c.position, l.rated_at, g.edition, c.rank, c.mu_before, c.sigma_before,"
        " c.mu_after, c.sigma_after FROM rating_changes c JOIN league_games l ON l.game_id = c.game_id"
        " JOIN games g ON g.id = c.game_id"
        " WHERE c.user_id = ? AND c.guild_id = ? AND c.season = ? AND c.edition = ? ORDER BY c.position DESC LIMIT ?",
        [user_id, guild_id, season, ALL_EDITIONS, points],
    ).fetchall()
    history = [
        RatingPoint(gid, s, position, at, edition, placing, league.shown(Skill(mu0, sigma0)),
                    league.shown(Skill(mu1, sigma1)), mu1, sigma1)
        for gid, s, position, at, edition, placing, mu0, sigma0, mu1, sigma1 in reversed(recent)
    ]  # fmt: skip
    place = None
    if rating is not None and not league.provisional(rating[3]):
        table = ranking(tx, guild_id, season, None, None)
        place = next((row.place for row in table.ranked if row.user_id == user_id), None)
    return Profile(
        guild_id=guild_id,
        user_id=user_id,
        name=name,
        season=season,
        rating=league.shown(Skill(rating[1], rating[2])) if rating is not None else None,
        mu=rating[1] if rating is not None else None,
        sigma=rating[2] if rating is not None else None,
        place=place,
        provisional=rating is None or league.provisional(rating[3]),
        season_games=rating[3] if rating is not None else 0,
        season_wins=rating[4] if rating is not None else 0,
        games=games,
        wins=wins,
        history=history,
        favourite_edition=favourite,
        best_game=best,
        titles=titles,
        opponents=opponents,
    )


def last_games(tx: Tx, guild_id: int, limit: int, user_id: int | None) -> list[GameSummary]:
    mine = " AND id IN (SELECT game_id FROM seats WHERE user_id = ?)" if user_id is not None else ""
    games = tx.execute(
        "SELECT id, channel_id, edition, status, started_at, finished_at, snapshot FROM games"
        " WHERE guild_id = ? AND status IN ('finished', 'abandoned') AND started_at IS NOT NULL" + mine +
        " ORDER BY finished_at DESC, id DESC LIMIT ?",
        [guild_id, *([user_id] if user_id is not None else []), limit],
    ).fetchall()
    ids = [g[0] for g in games]
    if not ids:
        return []
    in_ids = marks(ids)
    seats: dict[int, dict[int, tuple[int | None, str, str]]] = {gid: {} for gid in ids}
    for gid, seat, uid, name, computer in tx.execute(
        f"SELECT game_id, seat, user_id, name, computer FROM seats WHERE game_id IN ({in_ids})", ids
    ):
        seats[gid][seat] = (uid, name, computer)
    results: dict[int, list[Sequence[Any]]] = {gid: [] for gid in ids}
    for gid, *res in tx.execute(
        f"SELECT game_id, rank, seat, user_id, name, computer, net_worth, out FROM results WHERE game_id IN ({in_ids})"
        " ORDER BY game_id, rank, seat",
        ids,
    ):
        results[gid].append(res)
    changes: dict[tuple[int, int], tuple[int, int]] = {}
    for gid, uid, mu0, sigma0, mu1, sigma1 in tx.execute(
        "SELECT game_id, user_id, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes"
        f" WHERE game_id IN ({in_ids}) AND edition = ?",
        [*ids, ALL_EDITIONS],
    ):
        changes[(gid, uid)] = (league.shown(Skill(mu0, sigma0)), league.shown(Skill(mu1, sigma1)))
    rated = dict(tx.execute(f"SELECT game_id, season FROM league_games WHERE game_id IN ({in_ids})", ids).fetchall())

    summaries = []
    for gid, channel_id, edition, status, started_at, finished_at, snapshot in games:
        state = engine.from_json(snapshot)
        if results[gid]:
            rows = [(rank, seat, uid, name, computer, worth, bool(out))
                    for rank, seat, uid, name, computer, worth, out in results[gid]]  # fmt: skip
        else:  # ended by the host: the standings as they stood, as its end message showed them
            rows = []
            for st in state.standings or standings(state):
                uid, name, computer = seats[gid].get(st.seat, (None, state.seats[st.seat].name, ""))
                rows.append((st.rank, st.seat, uid, name, computer, st.net_worth, st.out))
        players = []
        for rank, seat, uid, name, computer, worth, out in rows:
            before, after = changes.get((gid, uid), (None, None)) if uid is not None else (None, None)
            players.append(PlacedPlayer(rank, seat, uid, name, computer, worth, out, before, after))
        end = finished_at if finished_at is not None else started_at
        summaries.append(
            GameSummary(
                gid, channel_id, edition, status, started_at, finished_at, state.turn,
                (end - started_at) / 60, rated.get(gid), players,
            )
        )  # fmt: skip
    return summaries


def game_changes(tx: Tx, game_id: int) -> list[RatingChange]:
    """What one game did to its people's ratings over every edition (empty when it rated nobody), by seat."""
    rows = tx.execute(
        "SELECT user_id, seat, rank, season, mu_before, sigma_before, mu_after, sigma_after FROM rating_changes"
        " WHERE game_id = ? AND edition = ? ORDER BY seat",
        [game_id, ALL_EDITIONS],
    ).fetchall()
    return [
        RatingChange(game_id, user_id, seat, placing, season, league.shown(Skill(mu0, sigma0)),
                     league.shown(Skill(mu1, sigma1)), mu1, sigma1)
        for user_id, seat, placing, season, mu0, sigma0, mu1, sigma1 in rows
    ]  # fmt: skip

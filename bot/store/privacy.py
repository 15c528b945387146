"""A person's data: what the store keeps about them, and forgetting them in every past game."""

from __future__ import annotations

from collections.abc import Collection

import msgspec

import engine
from bot import league
from bot.store.backend import Tx
from bot.store.errors import StoreError
from bot.store.ratings import chunks, marks
from bot.store.rows import Forgotten, PersonalData, PersonalRating, PersonalSeat
from render.texts import letters_of  # a forgotten seat keeps the letter its token was drawn with

_SEAT_COLUMNS = (
    "SELECT g.id, g.guild_id, g.channel_id, g.edition, g.status, s.seat, s.name, s.computer, g.created_at,"
    " g.finished_at, r.rank, r.net_worth FROM seats s JOIN games g ON g.id = s.game_id"
    " LEFT JOIN results r ON r.game_id = s.game_id AND r.seat = s.seat"
)


def acted_in(tx: Tx, user_id: int) -> dict[int, int]:
    """Game -> how many of its log rows name `user_id` as the actor (a scan of the whole log: the bot reads it
    outside any write)."""
    rows = tx.execute("SELECT game_id, count(*) FROM actions WHERE actor = ? GROUP BY game_id", [user_id])
    return {gid: int(count) for gid, count in rows}


def _seat_handed_over(tx: Tx, game_id: int, user_id: int) -> int | None:
    """The seat `user_id` played in a game whose seat the host handed to a computer (`/turista kick`): the seat
    of their moves in the log, if no one holds it now. Its name is still theirs."""
    row = tx.execute(
        "SELECT action FROM actions WHERE game_id = ? AND actor = ? AND action IS NOT NULL ORDER BY seq LIMIT 1",
        [game_id, user_id],
    ).fetchone()
    if row is None:
        return None
    seat = msgspec.json.decode(row[0], type=engine.Action).seat
    held = tx.execute("SELECT user_id FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat]).fetchone()
    return seat if held is not None and held[0] is None else None


def personal_data(tx: Tx, user_id: int, acted: dict[int, int]) -> PersonalData:
    """What the store keeps about `user_id`; `acted` is `acted_in`'s answer."""
    seats = [PersonalSeat(*row) for row in tx.execute(_SEAT_COLUMNS + " WHERE s.user_id = ? ORDER BY g.id", [user_id])]
    sat = {s.game_id for s in seats}
    for gid in sorted(set(acted) - sat):
        seat = _seat_handed_over(tx, gid, user_id)
        if seat is not None:
            row = tx.execute(_SEAT_COLUMNS + " WHERE s.game_id = ? AND s.seat = ?", [gid, seat]).fetchone()
            seats.append(PersonalSeat(*row, handed_over=True))
    seats.sort(key=lambda s: s.game_id)
    ratings = [
        PersonalRating(*row)
        for row in tx.execute(
            "SELECT guild_id, season, edition, name, mu, sigma, games, wins FROM ratings WHERE user_id = ?"
            " ORDER BY guild_id, season, edition",
            [user_id],
        )
    ]
    changes = tx.execute("SELECT count(*) FROM rating_changes WHERE user_id = ?", [user_id]).fetchone()[0]
    hosted = [r[0] for r in tx.execute("SELECT id FROM games WHERE host_id = ? ORDER BY id", [user_id])]
    started = [
        (guild, number)
        for guild, number in tx.execute(
            "SELECT guild_id, number FROM seasons WHERE started_by = ? ORDER BY guild_id, number", [user_id]
        )
    ]
    return PersonalData(user_id, seats, ratings, int(changes), sum(acted.values()), hosted, started)


def _renamed(raw: str | None, seats: dict[int, str]) -> str | None:
    """A stored engine state with these seats renamed, encoded as the store writes states."""
    if raw is None:
        return None
    state = engine.from_json(raw)
    for seat, name in seats.items():
        state.seats[seat].name = name
    return engine.to_json(state).decode()


def open_tables(tx: Tx, user_id: int) -> list[int]:
    """The open games `user_id` sits at or hosts, by id."""
    return [
        r[0]
        for r in tx.execute(
            "SELECT id FROM games WHERE status IN ('lobby', 'active')"
            " AND (host_id = ? OR id IN (SELECT game_id FROM seats WHERE user_id = ?)) ORDER BY id",
            [user_id, user_id],
        )
    ]


def forget(tx: Tx, user_id: int, acted: Collection[int]) -> Forgotten:
    """`user_id` out of every past game: their seats and results renamed (bot.league.former_name: a mark and the
    letter of their token, in no language) and
    detached from their id (a seat the host handed to a computer too, found by their moves in the log), the
    engine states of those games renamed alike, their id taken off the log rows of
    `acted` and off the games they hosted, their ratings and rating history removed. Refused
    (`forget_open_game`) while they sit at or host an open table: that game still needs them."""
    open_games = open_tables(tx, user_id)
    if open_games:
        raise StoreError("forget_open_game", user_id=user_id, games=open_games[:10])
    theirs: dict[int, set[int]] = {}
    for gid, seat in tx.execute(
        "SELECT game_id, seat FROM seats WHERE user_id = ? UNION SELECT game_id, seat FROM results WHERE user_id = ?",
        [user_id, user_id],
    ):
        theirs.setdefault(gid, set()).add(seat)
    for gid in sorted(set(acted) - set(theirs)):
        seat = _seat_handed_over(tx, gid, user_id)
        if seat is not None:
            theirs[gid] = {seat}
    for gid, mine in sorted(theirs.items()):
        names = dict(tx.execute("SELECT seat, name FROM seats WHERE game_id = ?", [gid]).fetchall())
        # Each seat keeps its token's letter (no token of the game changes); the name itself is gone.
        letters = letters_of([names.get(seat, "") for seat in range(max(names, default=-1) + 1)])
        renamed = {seat: league.former_name(letters[seat]) for seat in sorted(mine)}
        for seat, name in renamed.items():
            # A seat they held to the end (a computer standing in or not) stays a person's, a former player's; a
            # seat the host handed to a computer stays the computer's.
            for table in ("seats", "results"):
                tx.execute(
                    f"UPDATE {table} SET name = ?, computer = CASE WHEN user_id IS NULL THEN computer ELSE '' END,"
                    " user_id = NULL WHERE game_id = ? AND seat = ?",
                    [name, gid, seat],
                )
        initial, snapshot = tx.execute("SELECT initial, snapshot FROM games WHERE id = ?", [gid]).fetchone()
        tx.execute(
            "UPDATE games SET initial = ?, snapshot = ? WHERE id = ?",
            [_renamed(initial, renamed), _renamed(snapshot, renamed), gid],
        )
        # What was last sent of the game's messages named them: whatever edits them next sends it again.
        tx.execute("UPDATE messages SET digest = NULL WHERE game_id = ?", [gid])
    actions = 0
    for part in chunks(list(acted)):
        actions += tx.execute(
            f"UPDATE actions SET actor = NULL WHERE game_id IN ({marks(part)}) AND actor = ?", [*part, user_id]
        ).rowcount
    tx.execute("UPDATE games SET host_id = 0 WHERE host_id = ?", [user_id])
    tx.execute("UPDATE seasons SET started_by = NULL WHERE started_by = ?", [user_id])
    ratings = tx.execute("DELETE FROM ratings WHERE user_id = ?", [user_id]).rowcount
    tx.execute("DELETE FROM rating_changes WHERE user_id = ?", [user_id])
    # The take-backs they asked for or agreed to: settled long ago (their games are over), kept only as a record.
    tx.execute("DELETE FROM requests WHERE user_id = ? OR agreed LIKE ?", [user_id, f"%{user_id}%"])
    tx.execute("DELETE FROM notify WHERE user_id = ?", [user_id])  # how they wanted their reminders
    return Forgotten(len(theirs), ratings, actions)

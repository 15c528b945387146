"""`Store`: every game in one SQLite file, written one whole action at a time.

One connection per process, serialised by a lock so worker threads (`asyncio.to_thread`) may call any
method. Writes run inside `db.atomic()` (sqlite-utils transactions): a crash, a kill or an error at any
point leaves either the whole change or none of it. Several processes may share the file (WAL); the
version check in `apply` is what keeps their writes from overlapping.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Final

import msgspec
from sqlite_utils import Database

import engine
from bot.store.errors import ChannelBusy, NoSuchGame, StaleVersion, StoreError, translate
from bot.store.rows import Activity, GameRow, HistoryRow, LeaderRow, LogRow, ResultRow, SeatRow
from bot.store.schema import MIGRATION_NAMES, OPEN_STATUSES, STATUSES, migrations

DEFAULT_PATH: Final = "turista.db"
MAX_SEATS: Final = 6
LOG_PAGE: Final = 500  # log rows fetched per round trip, so a long game never sits in memory twice


class _Keep:
    """Marks an optional column argument as "leave it as it is"."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = _Keep()

_encode = msgspec.json.Encoder().encode
_GAME_COLUMNS: Final = (
    "id, guild_id, channel_id, host_id, status, edition, settings, seed, version, table_message_id, deadline,"
    " created_at, updated_at, started_at, finished_at, snapshot"
)


def default_path() -> str:
    """`TURISTA_DB` if set, else `turista.db` in the working directory."""
    return os.environ.get("TURISTA_DB") or DEFAULT_PATH


def default_synchronous() -> str:
    """`TURISTA_DB_SYNC` if set, else NORMAL: with WAL, a commit survives any crash or kill of the
    process; FULL adds an fsync per action so it also survives a power cut, at a few ms each on most disks."""
    return (os.environ.get("TURISTA_DB_SYNC") or "NORMAL").upper()


def _json_text(value: object) -> str:
    return _encode(value).decode()


def _settings_json(settings: Mapping[str, Any] | engine.Settings) -> str:
    """The settings column: a JSON object, whether given a dict or the engine's Settings struct."""
    if isinstance(settings, engine.Settings):
        settings = msgspec.to_builtins(settings)
    if not isinstance(settings, Mapping):
        raise TypeError(f"settings must be a mapping, not {type(settings).__name__}")
    return _json_text(dict(settings))


class Store:
    """The games of one bot process. See docs/storage.md for the whole API and its guarantees."""

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        timeout: float = 5.0,
        synchronous: str | None = None,
        create: bool = True,
        clock: Callable[[], float] = time.time,
    ) -> None:
        """Open (creating and migrating if needed) the database at `path` (default: `default_path()`).

        `timeout`: seconds a write waits for another process's lock before `db_locked`.
        `synchronous`: NORMAL or FULL (default: `default_synchronous()`); see there.
        `create=False` refuses to make a new file (the maintenance commands use it).
        """
        self.path = Path(path if path is not None else default_path())
        self.clock = clock
        self._lock = threading.RLock()
        self.synchronous = (synchronous or default_synchronous()).upper()
        if self.synchronous not in ("OFF", "NORMAL", "FULL", "EXTRA"):
            raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {self.synchronous!r}")
        try:
            if create:
                conn = sqlite3.connect(self.path, timeout=timeout, check_same_thread=False)
            else:
                conn = sqlite3.connect(
                    self.path.resolve().as_uri() + "?mode=rw", uri=True, timeout=timeout, check_same_thread=False
                )
        except sqlite3.Error as exc:
            raise translate(exc) from exc
        self.db = Database(conn)
        with self._guard():
            try:
                conn.execute("PRAGMA foreign_keys = ON")
                self.db.enable_wal()
                conn.execute(f"PRAGMA synchronous = {self.synchronous}")
                self._migrate()
            except BaseException:
                conn.close()
                raise

    # -- plumbing ---------------------------------------------------------------------------------
    @contextmanager
    def _guard(self) -> Iterator[None]:
        """Serialise use of the connection and turn SQLite's errors into StoreError codes."""
        with self._lock:
            try:
                yield
            except sqlite3.Error as exc:
                raise translate(exc) from exc

    def _migrate(self) -> None:
        # An immediate transaction around the whole upgrade: two processes starting together cannot
        # both run the same migration, and a kill mid-way leaves the older schema intact.
        self.db.execute("BEGIN IMMEDIATE")
        try:
            unknown = [m.name for m in migrations.applied(self.db) if m.name not in MIGRATION_NAMES]
            if unknown:
                raise StoreError("db_too_new", migrations=unknown)
            migrations.apply(self.db)
        except BaseException:
            self.db.rollback()
            raise
        self.db.execute("COMMIT")

    def schema_version(self) -> list[str]:
        """The migrations this database has recorded, in order."""
        with self._guard():
            return [m.name for m in migrations.applied(self.db)]

    def close(self) -> None:
        with self._lock:
            self.db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _now(self, now: float | None) -> float:
        return self.clock() if now is None else now

    def _status_of(self, game_id: int) -> str:
        row = self.db.execute("SELECT status FROM games WHERE id = ?", [game_id]).fetchone()
        if row is None:
            raise NoSuchGame(game_id)
        return row[0]

    def _require_status(self, game_id: int, *allowed: str) -> str:
        status = self._status_of(game_id)
        if status not in allowed:
            raise StoreError(f"game_{status}", game_id=game_id)
        return status

    # -- the lobby --------------------------------------------------------------------------------
    def create_game(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        edition: str,
        settings: Mapping[str, Any] | engine.Settings,
        seed: int,
        *,
        now: float | None = None,
    ) -> int:
        """A new game in the lobby; ChannelBusy if the channel already has an open one."""
        if edition not in engine.available():
            raise StoreError("unknown_edition", edition=edition)
        settings_json = _settings_json(settings)
        ts = self._now(now)
        with self._guard():
            try:
                with self.db.atomic():
                    cur = self.db.execute(
                        "INSERT INTO games (guild_id, channel_id, host_id, status, edition, settings, seed,"
                        " version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, 0, ?, ?)",
                        [guild_id, channel_id, host_id, edition, settings_json, seed, ts, ts],
                    )
            except sqlite3.IntegrityError as exc:
                if "channel_id" not in str(exc):
                    raise
                row = self.db.execute(
                    "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", [channel_id]
                ).fetchone()
                raise ChannelBusy(channel_id, row[0] if row else None) from None
            assert cur.lastrowid is not None
            return cur.lastrowid

    def add_seat(self, game_id: int, user_id: int | None, name: str, computer: str = "") -> SeatRow:
        """Seat a person (or a computer player, user_id None) at the next free place of a lobby."""
        with self._guard(), self.db.atomic():
            self._require_status(game_id, "lobby")
            taken = self.db.execute("SELECT count(*) FROM seats WHERE game_id = ?", [game_id]).fetchone()[0]
            if taken >= MAX_SEATS:
                raise StoreError("table_full", game_id=game_id, seats=MAX_SEATS)
            try:
                self.db.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES (?, ?, ?, ?, ?)",
                    [game_id, taken, user_id, name, computer],
                )
            except sqlite3.IntegrityError:
                raise StoreError("already_seated", game_id=game_id, user_id=user_id) from None
            return SeatRow(taken, user_id, name, computer)

    def remove_seat(self, game_id: int, user_id: int) -> bool:
        """Take `user_id` off a lobby; the seats after theirs move up. False if they were not seated."""
        with self._guard(), self.db.atomic():
            self._require_status(game_id, "lobby")
            row = self.db.execute(
                "SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", [game_id, user_id]
            ).fetchone()
            if row is None:
                return False
            self._drop_seat(game_id, row[0])
            return True

    def remove_seat_at(self, game_id: int, seat: int) -> bool:
        """Take whoever sits at `seat` (a computer player, say) off a lobby."""
        with self._guard(), self.db.atomic():
            self._require_status(game_id, "lobby")
            if self.db.execute("SELECT 1 FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat]).fetchone():
                self._drop_seat(game_id, seat)
                return True
            return False

    def _drop_seat(self, game_id: int, seat: int) -> None:
        self.db.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat])
        # One row at a time, lowest first: the primary key must hold after every single row update.
        later = self.db.execute(
            "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", [game_id, seat]
        ).fetchall()
        for (s,) in later:
            self.db.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", [s - 1, game_id, s])

    def update_seat(
        self,
        game_id: int,
        seat: int,
        *,
        user_id: int | None | _Keep = KEEP,
        name: str | _Keep = KEEP,
        computer: str | _Keep = KEEP,
    ) -> SeatRow:
        """Change who plays a seat, in any status (a computer taking over from an absent player)."""
        changes = {k: v for k, v in (("user_id", user_id), ("name", name), ("computer", computer)) if v is not KEEP}
        with self._guard(), self.db.atomic():
            self._status_of(game_id)
            if changes:
                sets = ", ".join(f"{k} = ?" for k in changes)
                try:
                    self.db.execute(
                        f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?", [*changes.values(), game_id, seat]
                    )
                except sqlite3.IntegrityError:
                    raise StoreError("already_seated", game_id=game_id, user_id=user_id) from None
            row = self.db.execute(
                "SELECT seat, user_id, name, computer FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat]
            ).fetchone()
            if row is None:
                raise StoreError("no_such_seat", game_id=game_id, seat=seat)
            return SeatRow(*row)

    def seats(self, game_id: int) -> list[SeatRow]:
        with self._guard():
            rows = self.db.execute(
                "SELECT seat, user_id, name, computer FROM seats WHERE game_id = ? ORDER BY seat", [game_id]
            ).fetchall()
            return [SeatRow(*r) for r in rows]

    def update_settings(
        self, game_id: int, settings: Mapping[str, Any] | engine.Settings, *, now: float | None = None
    ) -> None:
        """Replace the settings dict (engine Settings fields and the bot's own keys) of an open game."""
        with self._guard(), self.db.atomic():
            self._require_status(game_id, *OPEN_STATUSES)
            self.db.execute(
                "UPDATE games SET settings = ?, updated_at = ? WHERE id = ?",
                [_settings_json(settings), self._now(now), game_id],
            )

    # -- playing ----------------------------------------------------------------------------------
    def start_game(
        self,
        game_id: int,
        state: engine.State,
        events: Sequence[Mapping[str, Any]] | None = None,
        *,
        deadline: float | None = None,
        now: float | None = None,
    ) -> None:
        """Lobby -> active with `state` (from `engine.new_game`) as both the replay origin and the snapshot;
        `events` (new_game's) become the log's start row."""
        snapshot = engine.to_json(state).decode()
        ts = self._now(now)
        with self._guard(), self.db.atomic():
            self._require_status(game_id, "lobby")
            seated = self.db.execute("SELECT count(*) FROM seats WHERE game_id = ?", [game_id]).fetchone()[0]
            if seated != len(state.seats):
                raise StoreError("seats_mismatch", game_id=game_id, seated=seated, state=len(state.seats))
            self.db.execute(
                "UPDATE games SET status = 'active', version = ?, snapshot = ?, initial = ?, deadline = ?,"
                " started_at = ?, updated_at = ? WHERE id = ?",
                [state.version, snapshot, snapshot, deadline, ts, ts, game_id],
            )
            self.db.execute(
                "INSERT INTO actions (game_id, seq, actor, action, events, time) VALUES (?, ?, NULL, NULL, ?, ?)",
                [game_id, state.version, _json_text(list(events or [])), ts],
            )

    def apply(
        self,
        game_id: int,
        expected_version: int,
        actor_user_id: int | None,
        action: engine.Action,
        events: Sequence[Mapping[str, Any]],
        new_state: engine.State,
        *,
        deadline: float | None | _Keep = KEEP,
        now: float | None = None,
    ) -> int:
        """Record one applied action: the log row (seq = new version) and the snapshot, in one transaction,
        only if the stored version is still `expected_version`; otherwise StaleVersion and nothing written.

        `deadline` optionally re-arms the decision timer in the same transaction. An action that ends
        the game also records its results (see `finish_game`). Returns the new version.
        """
        version = expected_version + 1
        if new_state.version != version:
            raise ValueError(f"new_state.version is {new_state.version}, expected {version}")
        action_json = _encode(action).decode()
        events_json = _json_text(list(events))
        snapshot = engine.to_json(new_state).decode()
        ts = self._now(now)
        if deadline is KEEP:
            sql = "UPDATE games SET version = ?, snapshot = ?, updated_at = ? WHERE id = ? AND version = ?"
            params: list[Any] = [version, snapshot, ts, game_id, expected_version]
        else:
            sql = (
                "UPDATE games SET version = ?, snapshot = ?, updated_at = ?, deadline = ? WHERE id = ? AND version = ?"
            )
            params = [version, snapshot, ts, deadline, game_id, expected_version]
        with self._guard(), self.db.atomic():
            if self.db.execute(sql + " AND status = 'active'", params).rowcount != 1:
                row = self.db.execute("SELECT status, version FROM games WHERE id = ?", [game_id]).fetchone()
                if row is None:
                    raise NoSuchGame(game_id)
                if row[1] != expected_version:
                    raise StaleVersion(game_id, expected_version, row[1])
                raise StoreError(f"game_{row[0]}", game_id=game_id)
            self.db.execute(
                "INSERT INTO actions (game_id, seq, actor, action, events, time) VALUES (?, ?, ?, ?, ?, ?)",
                [game_id, version, actor_user_id, action_json, events_json, ts],
            )
            if new_state.phase == "over":
                self._finish(game_id, None, new_state, ts)
        return version

    def set_table_message(self, game_id: int, message_id: int | None) -> None:
        self._set(game_id, "table_message_id", message_id)

    def set_deadline(self, game_id: int, deadline: float | None) -> None:
        """When the pending decision times out (unix time), None when no timer runs."""
        self._set(game_id, "deadline", deadline)

    def _set(self, game_id: int, column: str, value: object) -> None:
        with self._guard(), self.db.atomic():
            if self.db.execute(f"UPDATE games SET {column} = ? WHERE id = ?", [value, game_id]).rowcount != 1:
                raise NoSuchGame(game_id)

    def set_status(self, game_id: int, status: str, *, now: float | None = None) -> None:
        """Move a game to `status`; "abandoned" ends it without results and frees the channel."""
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        ts = self._now(now)
        with self._guard():
            try:
                with self.db.atomic():
                    self._status_of(game_id)
                    if status == "active" and self.initial_state_json(game_id) is None:
                        raise StoreError("game_not_started", game_id=game_id)  # start_game makes it active
                    self.db.execute(
                        "UPDATE games SET status = ?, updated_at = ?,"
                        " finished_at = CASE WHEN ? IN ('finished', 'abandoned') THEN coalesce(finished_at, ?) END,"
                        " deadline = CASE WHEN ? IN ('finished', 'abandoned') THEN NULL ELSE deadline END"
                        " WHERE id = ?",
                        [status, ts, status, ts, status, game_id],
                    )
            except sqlite3.IntegrityError:
                channel, busy = self.db.execute(
                    "SELECT g.channel_id, o.id FROM games g JOIN games o ON o.channel_id = g.channel_id"
                    " AND o.status IN ('lobby', 'active') WHERE g.id = ?",
                    [game_id],
                ).fetchone()
                raise ChannelBusy(channel, busy) from None

    def finish_game(
        self,
        game_id: int,
        results: Sequence[ResultRow | Mapping[str, Any]] | None = None,
        *,
        now: float | None = None,
    ) -> list[ResultRow]:
        """Status "finished" with one result per seat. Without `results` they come from the final
        standings and the rent in the log. Calling it again replaces the results."""
        with self._guard(), self.db.atomic():
            row = self.db.execute("SELECT status, snapshot FROM games WHERE id = ?", [game_id]).fetchone()
            if row is None:
                raise NoSuchGame(game_id)
            state = engine.from_json(row[1]) if row[1] is not None else None
            return self._finish(game_id, results, state, self._now(now))

    def _finish(
        self,
        game_id: int,
        given: Sequence[ResultRow | Mapping[str, Any]] | None,
        state: engine.State | None,
        ts: float,
    ) -> list[ResultRow]:
        seats = {
            s: (u, n, c)
            for s, u, n, c in self.db.execute(
                "SELECT seat, user_id, name, computer FROM seats WHERE game_id = ?", [game_id]
            )
        }
        if given is None:
            if state is None or not state.standings:
                raise StoreError("game_not_over", game_id=game_id)
            rent = self._rent_collected(game_id)
            given = [
                ResultRow(
                    seat=st.seat,
                    rank=st.rank,
                    net_worth=st.net_worth,
                    rent_collected=rent.get(st.seat, 0),
                    titles=state.owner.count(st.seat),
                    cash=st.cash,
                    titles_value=st.titles,
                    buildings_value=st.buildings,
                    out=st.out,
                )
                for st in state.standings
            ]
        rows = []
        for r in given:
            r = r if isinstance(r, ResultRow) else ResultRow(**r)
            user_id, name, computer = seats.get(r.seat, (r.user_id, r.name, r.computer))
            rows.append(
                ResultRow(
                    seat=r.seat,
                    rank=r.rank,
                    net_worth=r.net_worth,
                    rent_collected=r.rent_collected,
                    titles=r.titles,
                    user_id=r.user_id if r.user_id is not None else user_id,
                    name=r.name or name,
                    computer=r.computer or computer,
                    cash=r.cash,
                    titles_value=r.titles_value,
                    buildings_value=r.buildings_value,
                    out=r.out,
                )
            )
        rows.sort(key=lambda r: (r.rank, r.seat))
        self.db.execute("DELETE FROM results WHERE game_id = ?", [game_id])
        self.db.conn.executemany(
            "INSERT INTO results (game_id, seat, user_id, name, computer, rank, net_worth, cash, rent_collected,"
            " titles, titles_value, buildings_value, out) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, r.seat, r.user_id, r.name, r.computer, r.rank, r.net_worth, r.cash, r.rent_collected)
                + (r.titles, r.titles_value, r.buildings_value, int(r.out))
                for r in rows
            ],
        )
        self.db.execute(
            "UPDATE games SET status = 'finished', deadline = NULL, updated_at = ?,"
            " finished_at = coalesce(finished_at, ?) WHERE id = ?",
            [ts, ts, game_id],
        )
        return rows

    def _rent_collected(self, game_id: int) -> dict[int, int]:
        """Rent each seat received over the game, summed from the logged transfer events."""
        rows = self.db.execute(
            "SELECT json_extract(e.value, '$.to'), sum(json_extract(e.value, '$.amount'))"
            " FROM actions a, json_each(a.events) e WHERE a.game_id = ?"
            " AND json_extract(e.value, '$.code') = 'transfer' AND json_extract(e.value, '$.reason') = 'rent'"
            " GROUP BY 1",
            [game_id],
        )
        return {seat: total for seat, total in rows if seat is not None and seat >= 0}

    # -- reading ----------------------------------------------------------------------------------
    def _games(self, where: str, params: Sequence[Any]) -> list[GameRow]:
        rows = self.db.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY id", params).fetchall()
        games = [
            GameRow(
                id=r[0],
                guild_id=r[1],
                channel_id=r[2],
                host_id=r[3],
                status=r[4],
                edition=r[5],
                settings=msgspec.json.decode(r[6]),
                seed=r[7],
                version=r[8],
                table_message_id=r[9],
                deadline=r[10],
                created_at=r[11],
                updated_at=r[12],
                started_at=r[13],
                finished_at=r[14],
                snapshot=r[15],
            )
            for r in rows
        ]
        if games:
            by_id = {g.id: g for g in games}
            seat_sql = "SELECT game_id, seat, user_id, name, computer FROM seats"
            if len(games) == 1:
                seat_rows = self.db.execute(seat_sql + " WHERE game_id = ? ORDER BY seat", [games[0].id])
            else:
                seat_rows = self.db.execute(
                    seat_sql + f" WHERE game_id IN (SELECT id FROM games WHERE {where}) ORDER BY game_id, seat",
                    params,
                )
            for gid, *seat in seat_rows:
                if gid in by_id:
                    by_id[gid].seats.append(SeatRow(*seat))
        return games

    def game(self, game_id: int) -> GameRow:
        with self._guard():
            found = self._games("id = ?", [game_id])
        if not found:
            raise NoSuchGame(game_id)
        return found[0]

    def game_by_channel(self, channel_id: int) -> GameRow | None:
        """The channel's open (lobby or active) game, if any."""
        with self._guard():
            found = self._games("channel_id = ? AND status IN ('lobby', 'active')", [channel_id])
        return found[0] if found else None

    def open_games(self) -> list[GameRow]:
        """Every lobby and active game, with seats: what the bot re-arms at start-up."""
        with self._guard():
            return self._games("status IN ('lobby', 'active')", [])

    def activity(self) -> Activity:
        """How many lobbies and games are open, and when any game last changed (`turista status`)."""
        with self._guard():
            lobbies, playing, last = self.db.execute(
                "SELECT COUNT(CASE WHEN status = 'lobby' THEN 1 END), COUNT(CASE WHEN status = 'active' THEN 1 END),"
                " MAX(updated_at) FROM games"
            ).fetchone()
        return Activity(int(lobbies), int(playing), last)

    def game_ids(self) -> list[int]:
        with self._guard():
            return [r[0] for r in self.db.execute("SELECT id FROM games ORDER BY id")]

    def initial_state(self, game_id: int) -> engine.State | None:
        """The state the game started from (the replay origin), None before the start."""
        raw = self.initial_state_json(game_id)
        return None if raw is None else engine.from_json(raw)

    def initial_state_json(self, game_id: int) -> str | None:
        with self._guard():
            row = self.db.execute("SELECT initial FROM games WHERE id = ?", [game_id]).fetchone()
        if row is None:
            raise NoSuchGame(game_id)
        return row[0]

    def log(self, game_id: int, *, after: int = -1) -> Iterator[LogRow]:
        """The game's log rows in order (seq > `after`), fetched a page at a time."""
        last = after
        while True:
            with self._guard():
                page = self.db.execute(
                    "SELECT seq, actor, action, events, time FROM actions WHERE game_id = ? AND seq > ?"
                    " ORDER BY seq LIMIT ?",
                    [game_id, last, LOG_PAGE],
                ).fetchall()
            for r in page:
                yield LogRow(*r)
            if len(page) < LOG_PAGE:
                return
            last = page[-1][0]

    def history(self, guild_id: int, limit: int = 10) -> list[HistoryRow]:
        """The guild's finished and abandoned games, most recent first."""
        with self._guard():
            games = self.db.execute(
                "SELECT id, channel_id, edition, status, created_at, started_at, finished_at,"
                " snapshot FROM games"
                " WHERE guild_id = ? AND status IN ('finished', 'abandoned')"
                " ORDER BY finished_at DESC, id DESC LIMIT ?",
                [guild_id, limit],
            ).fetchall()
            ids = [g[0] for g in games]
            marks = ",".join("?" * len(ids))
            players: dict[int, list[SeatRow]] = {i: [] for i in ids}
            results: dict[int, list[ResultRow]] = {i: [] for i in ids}
            if ids:
                for gid, *seat in self.db.execute(
                    f"SELECT game_id, seat, user_id, name, computer FROM seats WHERE game_id IN ({marks})"
                    " ORDER BY game_id, seat",
                    ids,
                ):
                    players[gid].append(SeatRow(*seat))
                for gid, *res in self.db.execute(
                    "SELECT game_id, seat, rank, net_worth, rent_collected, titles, user_id, name, computer, cash,"
                    " titles_value, buildings_value, out FROM results"
                    f" WHERE game_id IN ({marks}) ORDER BY game_id, rank, seat",
                    ids,
                ):
                    results[gid].append(ResultRow(*res[:-1], out=bool(res[-1])))
        return [
            HistoryRow(
                *g[:-1],
                turns=None if g[-1] is None else engine.from_json(g[-1]).turn,
                players=players[g[0]],
                results=results[g[0]],
            )
            for g in games
        ]

    _LEADER_SQL: Final = (
        # `name` is a bare column beside max(g.finished_at): SQLite takes it from that latest game.
        "SELECT r.user_id, r.name, max(g.finished_at), count(*), sum(r.rank = 1), avg(r.rank),"
        " max(r.net_worth), sum(r.rent_collected)"
        " FROM results r JOIN games g ON g.id = r.game_id"
        " WHERE g.guild_id = ? AND g.status = 'finished' AND r.user_id IS NOT NULL {extra}"
        " GROUP BY r.user_id ORDER BY sum(r.rank = 1) DESC, count(*) DESC, avg(r.rank), r.user_id LIMIT ?"
    )

    def leaderboard(self, guild_id: int, limit: int = 10) -> list[LeaderRow]:
        """People ranked by wins, then games played, then average rank, over the guild's finished games."""
        with self._guard():
            rows = self.db.execute(self._LEADER_SQL.format(extra=""), [guild_id, limit]).fetchall()
        return [LeaderRow(r[0], r[1], r[3], r[4], r[5], r[6], r[7]) for r in rows]

    def player_stats(self, guild_id: int, user_id: int) -> LeaderRow | None:
        """One person's record in the guild, None if they never finished a game there."""
        with self._guard():
            row = self.db.execute(self._LEADER_SQL.format(extra="AND r.user_id = ?"), [guild_id, user_id, 1]).fetchone()
        return None if row is None else LeaderRow(row[0], row[1], row[3], row[4], row[5], row[6], row[7])

    def backup(self, dest: str | os.PathLike[str]) -> None:
        """A consistent copy of the whole database at `dest`, taken live (SQLite's online backup):
        copying the file by hand while the bot runs may miss what is still in the WAL."""
        with self._guard():
            target = sqlite3.connect(dest)
            try:
                self.db.conn.backup(target)
            finally:
                target.close()

    def restore(self, source: str | os.PathLike[str]) -> None:
        """Replace every game with those of the backup at `source` (a file `backup` wrote, maybe by an older
        release), then bring its schema up to date. The backup is only read, and checked first: a damaged
        file, a database that is not Turista's or one from a newer release changes nothing."""
        path = Path(source)
        if not path.is_file():
            raise StoreError("db_unavailable", path=str(path))
        try:
            backup = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise translate(exc) from exc
        try:
            try:
                sound = [r[0] for r in backup.execute("PRAGMA quick_check")]
                applied = [m.name for m in migrations.applied(Database(backup))] if sound == ["ok"] else []
            except sqlite3.Error as exc:
                raise translate(exc) from exc
            if sound != ["ok"]:
                raise StoreError("db_corrupt", detail="; ".join(sound[:5]))
            if not applied:
                raise StoreError("db_not_turista", path=str(path))
            unknown = [name for name in applied if name not in MIGRATION_NAMES]
            if unknown:
                raise StoreError("db_too_new", migrations=unknown)
            with self._guard():
                backup.backup(self.db.conn)
                self._migrate()
        finally:
            backup.close()

    def integrity(self) -> list[str]:
        """SQLite's own quick check of the file: ["ok"] when sound."""
        with self._guard():
            return [r[0] for r in self.db.execute("PRAGMA quick_check")]

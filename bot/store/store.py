"""`Store`: every game in one database (a SQLite file, or PostgreSQL), written one whole action at a time.

Every method may be called from worker threads (`asyncio.to_thread`). Each one is one transaction of its
backend: a crash, a kill or an error at any point leaves either the whole change or none of it. Several
processes may share the database; the version check in `apply` is what keeps their writes from overlapping.
"""

from __future__ import annotations

import dataclasses
import os
import sqlite3
import tempfile
import time
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import msgspec
from sqlite_utils import Database

import engine
from bot.store import league_reads, privacy, ratings
from bot.store.backend import ID_STRIDE, Backend, Tx, is_url, shown
from bot.store.copying import copy_into
from bot.store.errors import (
    BadBackup,
    BadDestination,
    ChannelBusy,
    Conflict,
    LeaseLost,
    NoSuchGame,
    StaleVersion,
    StoreError,
    translate,
)
from bot.store.rows import (
    MESSAGE_KINDS,
    NOTIFY_MODES,
    Activity,
    Fence,
    Forgotten,
    GameRow,
    GameSummary,
    HistoryRow,
    LeaderRow,
    LeaseRow,
    LogRow,
    MessageRow,
    NotifyRow,
    PersonalData,
    Profile,
    Ranking,
    RatingChange,
    RegistrationRow,
    Rerated,
    ResultRow,
    SeasonRow,
    SeatRow,
    TakeBackRow,
)
from bot.store.schema import BOUGHT_SQL, MIGRATION_NAMES, OPEN_STATUSES, STATUSES, migrations

DEFAULT_PATH: Final = "turista.db"
MAX_SEATS: Final = 6
LOG_PAGE: Final = 500  # log rows fetched per round trip, so a long game never sits in memory twice


class _Keep:
    """Marks an optional column argument as "leave it as it is"."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = _Keep()

_action_decoder = msgspec.json.Decoder(engine.Action)
_encode = msgspec.json.Encoder().encode
_GAME_COLUMNS: Final = (
    "id, guild_id, channel_id, host_id, status, edition, settings, seed, version, table_message_id, deadline,"
    " created_at, updated_at, started_at, finished_at, snapshot, thread_id, reminded, paused_at, paused_left"
)
_MESSAGE_COLUMNS: Final = "kind, channel_id, message_id, version, posting, digest, board, updated_at"


def default_path() -> str:
    """`TURISTA_DB` if set (a file path or a postgresql:// URL), else `turista.db` in the working directory."""
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


def open_backup(source: str | os.PathLike[str]) -> sqlite3.Connection:
    """The backup file at `source`, opened read-only once it is known to be whole, Turista's and of a release
    this one can read. Whatever is wrong is a `BadBackup`: it names the backup, not the live database."""
    path = Path(source)
    try:
        if not path.is_file():
            raise StoreError("db_unavailable", detail="no such file")
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
                raise StoreError("db_not_turista")
            unknown = [name for name in applied if name not in MIGRATION_NAMES]
            if unknown:
                raise StoreError("db_too_new", migrations=unknown)
        except BaseException:
            backup.close()
            raise
    except StoreError as error:
        raise BadBackup(error, str(path)) from error
    return backup


def open_backend(
    target: str | os.PathLike[str],
    *,
    timeout: float = 5.0,
    synchronous: str | None = None,
    create: bool = True,
    pool_size: int = 4,
) -> Backend:
    """The backend `target` names: a postgresql:// URL, or the path of a SQLite file."""
    if is_url(target):
        try:
            from bot.store.postgres import PostgresBackend  # psycopg is only needed by those who use it
        except ImportError as exc:
            missing = f"PostgreSQL needs psycopg: pip install 'turista[postgres]' ({exc})"
            raise StoreError("db_unavailable", detail=missing) from exc

        return PostgresBackend(str(target), timeout=timeout, pool_size=pool_size)
    from bot.store.sqlite import SqliteBackend

    return SqliteBackend(
        Path(target), timeout=timeout, synchronous=(synchronous or default_synchronous()).upper(), create=create
    )


class Store:
    """The games of one bot process. See docs/storage.md for the whole API and its guarantees."""

    # The methods that write. The bot's event loop hands these to its writer thread(s) and every other method
    # to its reader threads (`bot.table.storage`): a method that writes is named here when it is written.
    WRITES = frozenset({
        "reserve_ids", "reserve_block", "create_game", "add_seat", "remove_seat", "remove_seat_at", "update_seat",
        "update_settings", "start_game", "apply", "set_table_message", "intend_post", "posted", "shown", "edited",
        "drop_message", "set_thread", "set_deadline", "set_reminded", "pause_game", "resume_game", "set_status",
        "set_notify", "count_dm", "finish_game", "backup", "restore",
        "new_season", "rerate", "forget", "registered", "registration_refused", "ask_take_back",
        "agree_take_back", "settle_take_back", "set_host", "take_shards",
    })

    def __init__(
        self,
        path: str | os.PathLike[str] | None = None,
        *,
        timeout: float = 5.0,
        synchronous: str | None = None,
        create: bool = True,
        clock: Callable[[], float] = time.time,
        pool_size: int = 4,
    ) -> None:
        """Open (creating and migrating if needed) the database at `path` (default: `default_path()`):
        a SQLite file, or a `postgresql://user:password@host/database` URL.

        `timeout`: seconds a write waits for another process's lock before `db_locked` (and, for
        PostgreSQL, at most 2 s of it for a connection before `db_unavailable`).
        `synchronous`: SQLite only, NORMAL or FULL (default: `default_synchronous()`); see there.
        `create=False`: SQLite only, refuses to make a new file (the maintenance commands use it).
        `pool_size`: PostgreSQL only, the most connections this process opens.
        """
        target = path if path is not None else default_path()
        self.clock = clock
        self.backend = open_backend(
            target, timeout=timeout, synchronous=synchronous, create=create, pool_size=pool_size
        )
        self.kind = self.backend.kind
        # How many writes the database takes side by side: SQLite's one writing connection, a server's pool.
        self.write_concurrency = pool_size if self.kind == "postgresql" else 1
        self.location = self.backend.location
        # The file, for SQLite; None for a server.
        self.path: Path | None = None if is_url(target) else Path(target)
        # The shards' leases this store holds (`take_shards`); None: its writes are not fenced (the maintenance
        # commands, the tests, a store that never took a lease).
        self.fence: Fence | None = None
        self._guilds: dict[int, int] = {}  # game -> its guild (which never changes), for the fence's check

    @property
    def db(self) -> Any:
        """The sqlite-utils Database of a SQLite store (tests and maintenance poke it directly)."""
        return self.backend.db  # type: ignore[attr-defined]

    @property
    def synchronous(self) -> str:
        return self.backend.synchronous  # type: ignore[attr-defined]

    # -- plumbing ---------------------------------------------------------------------------------
    def schema_version(self) -> list[str]:
        """The migrations this database has recorded, in order."""
        return self.backend.schema_version()

    def close(self) -> None:
        self.backend.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _now(self, now: float | None) -> float:
        return self.clock() if now is None else now

    def _status_of(self, tx: Tx, game_id: int, *, lock: bool = True) -> str:
        """The game's status; inside a write, the game's row stays locked until the transaction ends."""
        sql = "SELECT status FROM games WHERE id = ?" + (self.backend.for_update if lock else "")
        row = tx.execute(sql, [game_id]).fetchone()
        if row is None:
            raise NoSuchGame(game_id)
        return row[0]

    def _require_status(self, tx: Tx, game_id: int, *allowed: str) -> str:
        status = self._status_of(tx, game_id)
        if status not in allowed:
            raise StoreError(f"game_{status}", game_id=game_id)
        return status

    # -- the shards' leases ------------------------------------------------------------------------------
    def take_shards(self, shard_count: int, shards: Sequence[int], owner: str, *,
                    now: float | None = None) -> list[LeaseRow]:
        """Take the leases of `shards` (of `shard_count`) for `owner`, with the next epoch, whoever held them: from
        now on only this store writes their games, and a process that held one before has its writes of them
        refused (`LeaseLost`). Leases at another shard count end too (the processes were resharded). Returns the
        leases as they were before (those taken over, and those of another count that ended)."""
        ts = self._now(now)
        with self.backend.write() as tx:
            if self.kind == "postgresql":
                # Two processes taking leases at once must not get the same epoch; the games' writes only read
                # the table and are not held up.
                tx.execute("LOCK TABLE leases IN SHARE ROW EXCLUSIVE MODE")
            before = [LeaseRow(*r) for r in tx.execute(
                "SELECT shard_count, shard, owner, epoch, taken_at FROM leases ORDER BY shard_count, shard")]
            epoch = max((lease.epoch for lease in before), default=0) + 1
            tx.execute("DELETE FROM leases WHERE shard_count <> ?", [shard_count])
            tx.executemany(
                "INSERT INTO leases (shard_count, shard, owner, epoch, taken_at) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (shard_count, shard) DO UPDATE SET owner = excluded.owner, epoch = excluded.epoch,"
                " taken_at = excluded.taken_at",
                [(shard_count, shard, owner, epoch, ts) for shard in shards],
            )
        self.fence = Fence(shard_count, tuple(sorted(shards)), owner, epoch)
        mine = set(shards)
        return [lease for lease in before if lease.shard_count != shard_count or lease.shard in mine]

    def leases(self) -> list[LeaseRow]:
        """Every lease held (`turista status`)."""
        with self.backend.read() as tx:
            return [LeaseRow(*r) for r in tx.execute(
                "SELECT shard_count, shard, owner, epoch, taken_at FROM leases ORDER BY shard_count, shard")]

    def _fenced(self, tx: Tx, game_id: int | None = None, *, guild_id: int | None = None) -> None:
        """Inside a write: LeaseLost unless this store still holds the lease of the game's shard (of
        `guild_id`'s, for a game not made yet). Nothing to check for a store that took no lease."""
        fence = self.fence
        if fence is None:
            return
        if guild_id is None:
            assert game_id is not None
            guild_id = self._guilds.get(game_id)
            if guild_id is None:
                row = tx.execute("SELECT guild_id FROM games WHERE id = ?", [game_id]).fetchone()
                if row is None:
                    raise NoSuchGame(game_id)
                guild_id = self._guilds[game_id] = row[0]
        shard = fence.shard_of(guild_id)
        held = tx.execute("SELECT owner, epoch FROM leases WHERE shard_count = ? AND shard = ?",
                          [fence.shard_count, shard]).fetchone()
        if held is None or held[1] != fence.epoch:
            raise LeaseLost(shard, fence.shard_count, fence.epoch, held[0] if held else None,
                            held[1] if held else None)

    def reserve_ids(self, above: int) -> None:
        """New games get ids above `above` from now on. A process that runs shards from `k` on keeps its
        games in block `k` (`k * ID_STRIDE` onwards), so separate files can later be merged."""
        self.backend.reserve_ids(above)

    def reserve_block(self, block: int) -> None:
        self.reserve_ids(block * ID_STRIDE)

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
        host_name: str | None = None,
        now: float | None = None,
    ) -> int:
        """A new game in the lobby; ChannelBusy if the channel already has an open one. With `host_name`,
        the host takes the first seat in the same transaction (never a lobby without its host)."""
        if edition not in engine.available():
            raise StoreError("unknown_edition", edition=edition)
        settings_json = _settings_json(settings)
        ts = self._now(now)
        try:
            with self.backend.write() as tx:
                self._fenced(tx, guild_id=guild_id)
                game_id = tx.execute(
                    "INSERT INTO games (guild_id, channel_id, host_id, status, edition, settings, seed,"
                    " version, created_at, updated_at) VALUES (?, ?, ?, 'lobby', ?, ?, ?, 0, ?, ?) RETURNING id",
                    [guild_id, channel_id, host_id, edition, settings_json, seed, ts, ts],
                ).fetchone()[0]
                if host_name is not None:
                    tx.execute("INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES (?, 0, ?, ?, '')",
                               [game_id, host_id, host_name])
                return game_id
        except Conflict as exc:
            if "channel_id" not in exc.detail and "games_open_per_channel" not in exc.detail:
                raise
        with self.backend.read() as tx:
            row = tx.execute(
                "SELECT id FROM games WHERE channel_id = ? AND status IN ('lobby', 'active')", [channel_id]
            ).fetchone()
        raise ChannelBusy(channel_id, row[0] if row else None)

    def add_seat(self, game_id: int, user_id: int | None, name: str, computer: str = "") -> SeatRow:
        """Seat a person (or a computer player, user_id None) at the next free place of a lobby."""
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            self._require_status(tx, game_id, "lobby")
            taken = tx.execute("SELECT count(*) FROM seats WHERE game_id = ?", [game_id]).fetchone()[0]
            if taken >= MAX_SEATS:
                raise StoreError("table_full", game_id=game_id, seats=MAX_SEATS)
            try:
                tx.execute(
                    "INSERT INTO seats (game_id, seat, user_id, name, computer) VALUES (?, ?, ?, ?, ?)",
                    [game_id, taken, user_id, name, computer],
                )
            except Conflict:
                raise StoreError("already_seated", game_id=game_id, user_id=user_id) from None
            return SeatRow(taken, user_id, name, computer)

    def remove_seat(self, game_id: int, user_id: int) -> bool:
        """Take `user_id` off a lobby; the seats after theirs move up. A host who leaves hands the host role
        to the first person still seated. False if they were not seated."""
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            self._require_status(tx, game_id, "lobby")
            row = tx.execute("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", [game_id, user_id]).fetchone()
            if row is None:
                return False
            self._drop_seat(tx, game_id, row[0])
            heir = tx.execute(
                "SELECT user_id FROM seats WHERE game_id = ? AND user_id IS NOT NULL ORDER BY seat LIMIT 1", [game_id]
            ).fetchone()
            if heir is not None:
                tx.execute("UPDATE games SET host_id = ? WHERE id = ? AND host_id = ?", [heir[0], game_id, user_id])
            return True

    def remove_seat_at(self, game_id: int, seat: int) -> bool:
        """Take whoever sits at `seat` (a computer player, say) off a lobby."""
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            self._require_status(tx, game_id, "lobby")
            if tx.execute("SELECT 1 FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat]).fetchone():
                self._drop_seat(tx, game_id, seat)
                return True
            return False

    @staticmethod
    def _drop_seat(tx: Tx, game_id: int, seat: int) -> None:
        tx.execute("DELETE FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat])
        # One row at a time, lowest first: the primary key must hold after every single row update.
        later = tx.execute(
            "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", [game_id, seat]
        ).fetchall()
        for (s,) in later:
            tx.execute("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", [s - 1, game_id, s])

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
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            self._status_of(tx, game_id)
            if changes:
                sets = ", ".join(f"{k} = ?" for k in changes)
                try:
                    tx.execute(
                        f"UPDATE seats SET {sets} WHERE game_id = ? AND seat = ?", [*changes.values(), game_id, seat]
                    )
                except Conflict:
                    raise StoreError("already_seated", game_id=game_id, user_id=user_id) from None
            row = tx.execute(
                "SELECT seat, user_id, name, computer FROM seats WHERE game_id = ? AND seat = ?", [game_id, seat]
            ).fetchone()
            if row is None:
                raise StoreError("no_such_seat", game_id=game_id, seat=seat)
            return SeatRow(*row)

    def seats(self, game_id: int) -> list[SeatRow]:
        with self.backend.read() as tx:
            rows = tx.execute(
                "SELECT seat, user_id, name, computer FROM seats WHERE game_id = ? ORDER BY seat", [game_id]
            ).fetchall()
            return [SeatRow(*r) for r in rows]

    def update_settings(
        self, game_id: int, settings: Mapping[str, Any] | engine.Settings, *, now: float | None = None
    ) -> None:
        """Replace the settings dict (engine Settings fields and the bot's own keys) of an open game."""
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            self._require_status(tx, game_id, *OPEN_STATUSES)
            tx.execute(
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
        `events` (new_game's) become the log's start row. The game's edition becomes the state's."""
        snapshot = engine.to_json(state).decode()
        ts = self._now(now)
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            self._require_status(tx, game_id, "lobby")
            seated = tx.execute("SELECT count(*) FROM seats WHERE game_id = ?", [game_id]).fetchone()[0]
            if seated != len(state.seats):
                raise StoreError("seats_mismatch", game_id=game_id, seated=seated, state=len(state.seats))
            # The edition is the one played, which the lobby's settings may have changed since it opened.
            tx.execute(
                "UPDATE games SET status = 'active', edition = ?, version = ?, snapshot = ?, initial = ?,"
                " deadline = ?, started_at = ?, updated_at = ? WHERE id = ?",
                [state.edition, state.version, snapshot, snapshot, deadline, ts, ts, game_id],
            )
            tx.execute(
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
        shown: Sequence[MessageRow] = (),
        posting: Sequence[tuple[str, int]] = (),
        now: float | None = None,
    ) -> int:
        """Record one applied action: the log row (seq = new version) and the snapshot, in one transaction,
        only if the stored version is still `expected_version`; otherwise StaleVersion and nothing written.

        `deadline` optionally re-arms the decision timer in the same transaction; `shown` records messages
        edited since the last write, as `posted` does; `posting` marks messages (kind, channel id) about to be
        posted for the new version, as `intend_post` does. An action that ends the game also records its results
        and rates it (see `finish_game`), in the same transaction. Returns the new version.
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
        sql += " AND status = 'active'"
        fence = self.fence
        if fence is not None:
            # The lease's check in the same statement: a move costs no round trip more; a refusal says why below.
            sql += " AND (SELECT epoch FROM leases WHERE shard_count = ? AND shard = (games.guild_id >> 22) % ?) = ?"
            params += [fence.shard_count, fence.shard_count, fence.epoch]
        with self.backend.write() as tx:
            # The version guard: a concurrent writer of this game (another process, a stale click) either
            # committed first, and this matches no row, or waits here until this transaction ends.
            if tx.execute(sql, params).rowcount != 1:
                self._fenced(tx, game_id)
                row = tx.execute("SELECT status, version FROM games WHERE id = ?", [game_id]).fetchone()
                if row is None:
                    raise NoSuchGame(game_id)
                if row[1] != expected_version:
                    raise StaleVersion(game_id, expected_version, row[1])
                raise StoreError(f"game_{row[0]}", game_id=game_id)
            tx.execute(
                "INSERT INTO actions (game_id, seq, actor, action, events, time) VALUES (?, ?, ?, ?, ?, ?)",
                [game_id, version, actor_user_id, action_json, events_json, ts],
            )
            self._record_shown(tx, game_id, shown, ts)
            for kind, channel_id in posting:
                self._record_intent(tx, game_id, kind, channel_id, version, ts)
            if new_state.phase == "over":
                self._finish(tx, game_id, None, new_state, ts)
        return version

    def set_table_message(self, game_id: int, message_id: int | None) -> None:
        self._set(game_id, "table_message_id", message_id)

    # -- the messages that carry a decision --------------------------------------------------------
    def messages(self, game_id: int) -> dict[str, MessageRow]:
        """The game's tracked messages by kind (`MESSAGE_KINDS`)."""
        with self.backend.read() as tx:
            rows = tx.execute(f"SELECT {_MESSAGE_COLUMNS} FROM messages WHERE game_id = ?", [game_id]).fetchall()
        return {r[0]: MessageRow(*r) for r in rows}

    def intend_post(self, game_id: int, kind: str, channel_id: int, version: int, *, now: float | None = None) -> None:
        """Before posting a message of `kind`: a crash before `posted` leaves this mark for the next start.
        The id of the message being replaced stays until the new one is known."""
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            self._status_of(tx, game_id)
            self._record_intent(tx, game_id, kind, channel_id, version, self._now(now))

    def _record_intent(self, tx: Tx, game_id: int, kind: str, channel_id: int, version: int, ts: float) -> None:
        self._check_kind(kind)
        tx.execute(
            "INSERT INTO messages (game_id, kind, channel_id, version, posting, updated_at)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET posting = excluded.posting,"
            " updated_at = excluded.updated_at",
            [game_id, kind, channel_id, version, version, ts],
        )

    def posted(
        self,
        game_id: int,
        kind: str,
        channel_id: int,
        message_id: int,
        version: int,
        *,
        digest: str | None = None,
        board: str | None = None,
        now: float | None = None,
    ) -> None:
        """The message of `kind` is `message_id`, showing `version`; the mark of `intend_post` is cleared."""
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            self._status_of(tx, game_id)
            self._record_message(tx, game_id, kind, channel_id, message_id, version, digest, board, self._now(now))

    def shown(self, game_id: int, messages: Sequence[MessageRow], *, now: float | None = None) -> None:
        """`posted` for several messages of a game, in one transaction."""
        ts = self._now(now)
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            self._status_of(tx, game_id)
            self._record_shown(tx, game_id, messages, ts)

    def _record_shown(self, tx: Tx, game_id: int, messages: Sequence[MessageRow], ts: float) -> None:
        for m in messages:
            self._record_message(tx, game_id, m.kind, m.channel_id, m.message_id, m.version, None, None, ts)

    def _record_message(self, tx: Tx, game_id: int, kind: str, channel_id: int, message_id: int | None,
                        version: int, digest: str | None, board: str | None, ts: float) -> None:
        self._check_kind(kind)
        tx.execute(
            "INSERT INTO messages (game_id, kind, channel_id, message_id, version, posting, digest, board,"
            " updated_at) VALUES (?, ?, ?, ?, ?, NULL, ?, ?, ?) ON CONFLICT (game_id, kind) DO UPDATE SET"
            " channel_id = excluded.channel_id, message_id = excluded.message_id, version = excluded.version,"
            " posting = NULL, digest = excluded.digest, board = excluded.board, updated_at = excluded.updated_at",
            [game_id, kind, channel_id, message_id, version, digest, board, ts],
        )

    def edited(
        self,
        game_id: int,
        kind: str,
        version: int,
        *,
        digest: str | None = None,
        board: str | None | _Keep = KEEP,
        now: float | None = None,
    ) -> None:
        """The message of `kind` now shows `version` (`board`: the picture it carries, if one was attached)."""
        sets, params = "version = ?, digest = ?, updated_at = ?", [version, digest, self._now(now)]
        if not isinstance(board, _Keep):
            sets += ", board = ?"
            params.append(board)
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            tx.execute(f"UPDATE messages SET {sets} WHERE game_id = ? AND kind = ?", [*params, game_id, kind])

    def drop_message(self, game_id: int, kind: str) -> None:
        """The message of `kind` carries no decision any more (an auction or offer that ended)."""
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            tx.execute("DELETE FROM messages WHERE game_id = ? AND kind = ?", [game_id, kind])

    @staticmethod
    def _check_kind(kind: str) -> None:
        if kind not in MESSAGE_KINDS:
            raise ValueError(f"unknown message kind {kind!r}")

    def set_thread(self, game_id: int, thread_id: int | None) -> None:
        """The game is played in thread `thread_id` from now on (None: back in its channel)."""
        self._set(game_id, "thread_id", thread_id)

    def set_host(self, game_id: int, user_id: int) -> None:
        """A game in play hosted by someone else: its host left."""
        self._set(game_id, "host_id", user_id)

    def set_deadline(self, game_id: int, deadline: float | None) -> None:
        """When the pending decision times out (unix time), None when no timer runs."""
        self._set(game_id, "deadline", deadline)

    def set_reminded(self, game_id: int, due: float) -> None:
        """A reminder due at `due` (unix time) was sent: none due until then is sent again, even after a restart."""
        self._set(game_id, "reminded", due)

    def notify_of(self, user_ids: Sequence[int]) -> dict[int, NotifyRow]:
        """How each of `user_ids` wants their reminders (a person who never said: in the channel, at any hour)."""
        if not user_ids:
            return {}
        marks = ",".join("?" * len(user_ids))
        with self.backend.read() as tx:
            rows = tx.execute(f"SELECT user_id, mode, quiet_from, quiet_to, time_zone FROM notify"
                              f" WHERE user_id IN ({marks})", list(user_ids)).fetchall()
        found = {r[0]: NotifyRow(r[0], r[1], r[2], r[3], r[4]) for r in rows}
        return {u: found.get(u, NotifyRow(u)) for u in user_ids}

    def set_notify(self, row: NotifyRow) -> None:
        """A person's choice of reminders (the count of direct messages of the day is kept)."""
        if row.mode not in NOTIFY_MODES:
            raise ValueError(f"unknown mode {row.mode!r}")
        with self.backend.write() as tx:
            tx.execute("INSERT INTO notify (user_id, mode, quiet_from, quiet_to, time_zone) VALUES (?, ?, ?, ?, ?)"
                       " ON CONFLICT (user_id) DO UPDATE SET mode = excluded.mode, quiet_from = excluded.quiet_from,"
                       " quiet_to = excluded.quiet_to, time_zone = excluded.time_zone",
                       [row.user_id, row.mode, row.quiet_from, row.quiet_to, row.time_zone])

    def count_dm(self, user_id: int, day: str, budget: int) -> bool:
        """Count a direct message to `user_id` on `day` (their date) if the day's `budget` allows it: whether it
        does."""
        with self.backend.write() as tx:
            found = tx.execute("SELECT dm_day, dm_count FROM notify WHERE user_id = ?", [user_id]).fetchone()
            sent = found[1] if found is not None and found[0] == day else 0
            if sent >= budget:
                return False
            tx.execute("INSERT INTO notify (user_id, dm_day, dm_count) VALUES (?, ?, ?) ON CONFLICT (user_id)"
                       " DO UPDATE SET dm_day = excluded.dm_day, dm_count = excluded.dm_count",
                       [user_id, day, sent + 1])
            return True

    def pause_game(self, game_id: int, at: float, left: float | None) -> None:
        """The game is paused since `at`; its pending decision's clock had `left` seconds (None: no clock ran)."""
        with self.backend.write() as tx:
            self._require_status(tx, game_id, "active")
            tx.execute("UPDATE games SET paused_at = ?, paused_left = ? WHERE id = ?", [at, left, game_id])

    def resume_game(self, game_id: int, deadline: float | None, reminded: float | None) -> None:
        """The game goes on: its decision's clock runs out at `deadline`, and its reminders' moment moved on by the
        pause (`set_reminded`), in one write."""
        with self.backend.write() as tx:
            self._require_status(tx, game_id, "active")
            tx.execute("UPDATE games SET paused_at = NULL, paused_left = NULL, deadline = ?, reminded = ?"
                       " WHERE id = ?", [deadline, reminded, game_id])

    def _set(self, game_id: int, column: str, value: object) -> None:
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            if tx.execute(f"UPDATE games SET {column} = ? WHERE id = ?", [value, game_id]).rowcount != 1:
                raise NoSuchGame(game_id)

    def set_status(self, game_id: int, status: str, *, now: float | None = None) -> None:
        """Move a game to `status`; "abandoned" ends it without results and frees the channel. A game in play
        that its host ends is rated in the same transaction by the standings as they stand, if its house rule
        says so (bot.league.RATED_WHEN_ENDED)."""
        if status not in STATUSES:
            raise ValueError(f"unknown status {status!r}")
        ts = self._now(now)
        ends = status in ("finished", "abandoned")
        try:
            with self.backend.write() as tx:
                self._fenced(tx, game_id)
                before = self._status_of(tx, game_id)
                if status == "active" and self._initial_json(tx, game_id) is None:
                    raise StoreError("game_not_started", game_id=game_id)  # start_game makes it active
                tx.execute(
                    "UPDATE games SET status = ?, updated_at = ?,"
                    " finished_at = CASE WHEN ? = 1 THEN coalesce(finished_at, ?) END,"
                    " deadline = CASE WHEN ? = 1 THEN NULL ELSE deadline END"
                    " WHERE id = ?",
                    [status, ts, int(ends), ts, int(ends), game_id],
                )
                if before == "active" and status == "abandoned":
                    ratings.rate_ended(tx, game_id)
                return
        except Conflict:
            pass
        with self.backend.read() as tx:
            channel, busy = tx.execute(
                "SELECT g.channel_id, o.id FROM games g JOIN games o ON o.channel_id = g.channel_id"
                " AND o.status IN ('lobby', 'active') WHERE g.id = ?",
                [game_id],
            ).fetchone()
        raise ChannelBusy(channel, busy)

    def finish_game(
        self,
        game_id: int,
        results: Sequence[ResultRow | Mapping[str, Any]] | None = None,
        *,
        now: float | None = None,
    ) -> list[ResultRow]:
        """Status "finished" with one result per seat. Without `results` they come from the final
        standings and the rent in the log. The game is rated by the results' ranks in the same transaction.
        Calling it again replaces the results (and the titles bought), not the ratings: a game is rated once."""
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            self._status_of(tx, game_id)
            snapshot = tx.execute("SELECT snapshot FROM games WHERE id = ?", [game_id]).fetchone()[0]
            state = engine.from_json(snapshot) if snapshot is not None else None
            return self._finish(tx, game_id, results, state, self._now(now))

    def _finish(
        self,
        tx: Tx,
        game_id: int,
        given: Sequence[ResultRow | Mapping[str, Any]] | None,
        state: engine.State | None,
        ts: float,
    ) -> list[ResultRow]:
        seats = {
            s: (u, n, c)
            for s, u, n, c in tx.execute("SELECT seat, user_id, name, computer FROM seats WHERE game_id = ?", [game_id])
        }
        if given is None:
            if state is None or not state.standings:
                raise StoreError("game_not_over", game_id=game_id)
            rent = self._rent_collected(tx, game_id)
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
        # A seat that changed hands counts for the person who played most of it, or for nobody (bot.league.hands).
        credited = ratings.credit(tx, game_id, [(r.seat, r.user_id, r.computer) for r in rows])
        rows = [dataclasses.replace(r, user_id=credited[r.seat][0], computer=credited[r.seat][1]) for r in rows]
        rows.sort(key=lambda r: (r.rank, r.seat))
        tx.execute("DELETE FROM results WHERE game_id = ?", [game_id])
        tx.executemany(
            "INSERT INTO results (game_id, seat, user_id, name, computer, rank, net_worth, cash, rent_collected,"
            " titles, titles_value, buildings_value, out) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (game_id, r.seat, r.user_id, r.name, r.computer, r.rank, r.net_worth, r.cash, r.rent_collected)
                + (r.titles, r.titles_value, r.buildings_value, int(r.out))
                for r in rows
            ],
        )
        tx.execute(
            "UPDATE games SET status = 'finished', deadline = NULL, updated_at = ?,"
            " finished_at = coalesce(finished_at, ?) WHERE id = ?",
            [ts, ts, game_id],
        )
        tx.execute("DELETE FROM titles_bought WHERE game_id = ?", [game_id])
        tx.execute(
            "INSERT INTO titles_bought (game_id, seat, square, times) " + BOUGHT_SQL[self.kind],
            [game_id],
        )
        self._uncount_taken_back(tx, game_id)
        ratings.rate_finished(tx, game_id, rows)
        return rows

    @staticmethod
    def _uncount_taken_back(tx: Tx, game_id: int) -> None:
        """A title bought by a move later taken back was not bought: off the titles each seat bought."""
        if tx.execute("SELECT 1 FROM actions WHERE game_id = ? AND action LIKE ? LIMIT 1",
                      [game_id, f'%"kind":"{engine.TAKE_BACK}"%']).fetchone() is None:
            return
        standing: list[str] = []  # the events of the moves that stand, in order
        gone: list[str] = []
        for action, events in tx.execute(
            "SELECT action, events FROM actions WHERE game_id = ? AND action IS NOT NULL ORDER BY seq", [game_id]
        ):
            move = _action_decoder.decode(action)
            if move.kind == engine.TAKE_BACK:
                gone += standing[len(standing) - move.count:]
                del standing[len(standing) - move.count:]
            else:
                standing.append(events)
        for events in gone:
            for event in msgspec.json.decode(events):
                if event.get("code") == "transfer" and event.get("reason") == "buy":
                    tx.execute(
                        "UPDATE titles_bought SET times = times - 1 WHERE game_id = ? AND seat = ? AND square = ?",
                        [game_id, event["from"], event["square"]],
                    )
        tx.execute("DELETE FROM titles_bought WHERE game_id = ? AND times <= 0", [game_id])

    def _rent_collected(self, tx: Tx, game_id: int) -> dict[int, int]:
        """Rent each seat received over the game, summed from the logged transfer events."""
        rows = tx.execute(self.backend.rent_sql, [game_id])
        return {seat: int(total) for seat, total in rows if seat is not None and seat >= 0}

    # -- reading ----------------------------------------------------------------------------------
    @staticmethod
    def _games(tx: Tx, where: str, params: Sequence[Any]) -> list[GameRow]:
        rows = tx.execute(f"SELECT {_GAME_COLUMNS} FROM games WHERE {where} ORDER BY id", params).fetchall()
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
                thread_id=r[16],
                reminded=r[17],
                paused_at=r[18],
                paused_left=r[19],
            )
            for r in rows
        ]
        if games:
            by_id = {g.id: g for g in games}
            seat_sql = "SELECT game_id, seat, user_id, name, computer FROM seats"
            if len(games) == 1:
                seat_rows = tx.execute(seat_sql + " WHERE game_id = ? ORDER BY seat", [games[0].id])
            else:
                seat_rows = tx.execute(
                    seat_sql + f" WHERE game_id IN (SELECT id FROM games WHERE {where}) ORDER BY game_id, seat",
                    params,
                )
            for gid, *seat in seat_rows:
                if gid in by_id:
                    by_id[gid].seats.append(SeatRow(*seat))
            message_sql = f"SELECT game_id, {_MESSAGE_COLUMNS} FROM messages"
            if len(games) == 1:
                message_rows = tx.execute(message_sql + " WHERE game_id = ?", [games[0].id])
            else:
                message_rows = tx.execute(
                    message_sql + f" WHERE game_id IN (SELECT id FROM games WHERE {where})", params
                )
            for gid, *message in message_rows:
                if gid in by_id:
                    by_id[gid].messages[message[0]] = MessageRow(*message)
        return games

    def _select_games(self, where: str, params: Sequence[Any]) -> list[GameRow]:
        with self.backend.read() as tx:
            return self._games(tx, where, params)

    def game(self, game_id: int) -> GameRow:
        found = self._select_games("id = ?", [game_id])
        if not found:
            raise NoSuchGame(game_id)
        return found[0]

    def games_of(self, guild_id: int, user_id: int) -> list[GameRow]:
        """The games in play of a guild where `user_id` holds a seat (`/turista my-games`)."""
        return self._select_games(
            "guild_id = ? AND status = 'active' AND id IN (SELECT game_id FROM seats WHERE user_id = ?)",
            [guild_id, user_id],
        )

    def game_by_channel(self, channel_id: int) -> GameRow | None:
        """The open (lobby or active) game of a channel, or of the thread it is played in, if any."""
        found = self._select_games(
            "(channel_id = ? OR thread_id = ?) AND status IN ('lobby', 'active')", [channel_id, channel_id]
        )
        return found[0] if found else None

    def open_games(self, shard_count: int | None = None, shards: Collection[int] = ()) -> list[GameRow]:
        """Every lobby and active game, with seats: what the bot re-arms at start-up. With `shard_count`,
        only the games of guilds in `shards` (Discord's rule: shard = (guild_id >> 22) % shard_count)."""
        if shard_count is None:
            return self._select_games("status IN ('lobby', 'active')", [])
        if not shards:
            return []
        marks = ",".join("?" * len(shards))
        return self._select_games(
            f"status IN ('lobby', 'active') AND ((guild_id >> 22) % ?) IN ({marks})", [shard_count, *shards]
        )

    def activity(self) -> Activity:
        """How many lobbies and games are open, and when any game last changed (`turista status`)."""
        with self.backend.read() as tx:
            lobbies, playing, last = tx.execute(
                "SELECT COUNT(CASE WHEN status = 'lobby' THEN 1 END), COUNT(CASE WHEN status = 'active' THEN 1 END),"
                " MAX(updated_at) FROM games"
            ).fetchone()
        return Activity(int(lobbies), int(playing), last)

    # -- the slash commands' registration ---------------------------------------------------------------
    _REGISTRATION_COLUMNS: Final = "application_id, guild_id, digest, synced_at, refused, refused_at, kept"

    def registration(self, application_id: int, guild_id: int = 0) -> RegistrationRow | None:
        """What the bot last registered for `application_id` (globally: guild 0), None if it never did here."""
        with self.backend.read() as tx:
            row = tx.execute(f"SELECT {self._REGISTRATION_COLUMNS} FROM registrations"
                             " WHERE application_id = ? AND guild_id = ?", [application_id, guild_id]).fetchone()
        return RegistrationRow(*row) if row else None

    def registrations(self) -> list[RegistrationRow]:
        """Every registration kept, newest attempt first (`turista status`)."""
        with self.backend.read() as tx:
            rows = [RegistrationRow(*row) for row in tx.execute(
                f"SELECT {self._REGISTRATION_COLUMNS} FROM registrations ORDER BY application_id, guild_id")]
        return sorted(rows, key=lambda r: max(r.synced_at or 0.0, r.refused_at or 0.0), reverse=True)

    def registered(self, application_id: int, guild_id: int, digest: str, *, now: float | None = None) -> None:
        """Discord accepted the payload of `digest`: the refusal before it, if any, is over."""
        with self.backend.write() as tx:
            tx.execute(
                "INSERT INTO registrations (application_id, guild_id, digest, synced_at) VALUES (?, ?, ?, ?)"
                " ON CONFLICT (application_id, guild_id) DO UPDATE SET digest = excluded.digest,"
                " synced_at = excluded.synced_at, refused = NULL, refused_at = NULL, kept = NULL",
                [application_id, guild_id, digest, self._now(now)])

    def registration_refused(self, application_id: int, guild_id: int, reason: str, kept: int, *,
                             now: float | None = None) -> None:
        """Discord refused the newest payload for `reason`, and still has `kept` commands (those of the digest
        kept, which stays)."""
        with self.backend.write() as tx:
            tx.execute(
                "INSERT INTO registrations (application_id, guild_id, refused, refused_at, kept) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (application_id, guild_id) DO UPDATE SET refused = excluded.refused,"
                " refused_at = excluded.refused_at, kept = excluded.kept",
                [application_id, guild_id, reason, self._now(now), kept])

    def game_ids(self) -> list[int]:
        with self.backend.read() as tx:
            return [r[0] for r in tx.execute("SELECT id FROM games ORDER BY id")]

    def initial_state(self, game_id: int) -> engine.State | None:
        """The state the game started from (the replay origin), None before the start."""
        raw = self.initial_state_json(game_id)
        return None if raw is None else engine.from_json(raw)

    def initial_state_json(self, game_id: int) -> str | None:
        with self.backend.read() as tx:
            return self._initial_json(tx, game_id)

    @staticmethod
    def _initial_json(tx: Tx, game_id: int) -> str | None:
        row = tx.execute("SELECT initial FROM games WHERE id = ?", [game_id]).fetchone()
        if row is None:
            raise NoSuchGame(game_id)
        return row[0]

    def log(self, game_id: int, *, after: int = -1) -> Iterator[LogRow]:
        """The game's log rows in order (seq > `after`), fetched a page at a time."""
        last = after
        while True:
            with self.backend.read() as tx:
                page = tx.execute(
                    "SELECT seq, actor, action, events, time FROM actions WHERE game_id = ? AND seq > ?"
                    " ORDER BY seq LIMIT ?",
                    [game_id, last, LOG_PAGE],
                ).fetchall()
            for r in page:
                yield LogRow(*r)
            if len(page) < LOG_PAGE:
                return
            last = page[-1][0]

    # -- take-backs asked for (the consent a take-back waits for) ----------------------------------------------
    def ask_take_back(self, game_id: int, version: int, seat: int, user_id: int | None, count: int, *,
                      now: float | None = None) -> TakeBackRow | None:
        """Record a take-back asked for at `version` (the game's version now); None when one was already asked
        at that version (still open, refused or done): a refused request is not asked again until the game
        moves on."""
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            if self._status_of(tx, game_id) != "active":
                raise StoreError("game_not_active", game_id=game_id)
            inserted = tx.execute(
                "INSERT INTO requests (game_id, version, seat, user_id, count, created_at) VALUES (?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (game_id, version) DO NOTHING",
                [game_id, version, seat, user_id, count, self._now(now)],
            ).rowcount
        return TakeBackRow(version, seat, user_id, count) if inserted == 1 else None

    def take_back_request(self, game_id: int, version: int) -> TakeBackRow | None:
        """The take-back asked for at `version`, if any."""
        with self.backend.read() as tx:
            row = tx.execute(
                "SELECT version, seat, user_id, count, agreed, status FROM requests WHERE game_id = ? AND version = ?",
                [game_id, version],
            ).fetchone()
        if row is None:
            return None
        return TakeBackRow(row[0], row[1], row[2], row[3], tuple(msgspec.json.decode(row[4])), row[5])

    def agree_take_back(self, game_id: int, version: int, user_id: int) -> TakeBackRow | None:
        """`user_id` says yes to the open take-back at `version`: the request now, None if none is open."""
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            row = tx.execute(
                "SELECT agreed FROM requests WHERE game_id = ? AND version = ? AND status = 'open'",
                [game_id, version],
            ).fetchone()
            if row is None:
                return None
            agreed = sorted({*msgspec.json.decode(row[0]), user_id})
            tx.execute("UPDATE requests SET agreed = ? WHERE game_id = ? AND version = ?",
                       [_json_text(agreed), game_id, version])
        return self.take_back_request(game_id, version)

    def settle_take_back(self, game_id: int, version: int, status: str) -> bool:
        """Close the open take-back at `version` as "refused" or "done"; False if none was open."""
        if status not in ("refused", "done"):
            raise ValueError(f"unknown status {status!r}")
        with self.backend.write() as tx:
            self._fenced(tx, game_id)
            return tx.execute(
                "UPDATE requests SET status = ? WHERE game_id = ? AND version = ? AND status = 'open'",
                [status, game_id, version],
            ).rowcount == 1

    def history(self, guild_id: int, limit: int = 10) -> list[HistoryRow]:
        """The guild's finished and abandoned games, most recent first."""
        with self.backend.read() as tx:
            games = tx.execute(
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
                for gid, *seat in tx.execute(
                    f"SELECT game_id, seat, user_id, name, computer FROM seats WHERE game_id IN ({marks})"
                    " ORDER BY game_id, seat",
                    ids,
                ):
                    players[gid].append(SeatRow(*seat))
                for gid, *res in tx.execute(
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
        # `latest` numbers each person's results newest first: their name is the one of the latest game.
        "WITH mine AS (SELECT r.user_id, r.name, r.rank, r.net_worth, r.rent_collected,"
        " row_number() OVER (PARTITION BY r.user_id ORDER BY g.finished_at DESC, g.id DESC) AS latest"
        " FROM results r JOIN games g ON g.id = r.game_id"
        " WHERE g.guild_id = ? AND g.status = 'finished' AND r.user_id IS NOT NULL {extra})"
        " SELECT user_id, max(CASE WHEN latest = 1 THEN name END), count(*),"
        " sum(CASE WHEN rank = 1 THEN 1 ELSE 0 END) AS wins, avg(rank), max(net_worth), sum(rent_collected)"
        " FROM mine GROUP BY user_id ORDER BY wins DESC, count(*) DESC, avg(rank), user_id LIMIT ?"
    )

    @staticmethod
    def _leader(row: Sequence[Any]) -> LeaderRow:
        # int()/float(): PostgreSQL's sum and avg come back as exact decimals.
        return LeaderRow(row[0], row[1], row[2], int(row[3]), float(row[4]), int(row[5]), int(row[6]))

    def leaderboard(self, guild_id: int, limit: int = 10) -> list[LeaderRow]:
        """People ranked by wins, then games played, then average rank, over the guild's finished games."""
        with self.backend.read() as tx:
            rows = tx.execute(self._LEADER_SQL.format(extra=""), [guild_id, limit]).fetchall()
        return [self._leader(r) for r in rows]

    def player_stats(self, guild_id: int, user_id: int) -> LeaderRow | None:
        """One person's record in the guild, None if they never finished a game there."""
        with self.backend.read() as tx:
            row = tx.execute(self._LEADER_SQL.format(extra="AND r.user_id = ?"), [guild_id, user_id, 1]).fetchone()
        return None if row is None else self._leader(row)

    # -- the league ---------------------------------------------------------------------------------
    # Ratings are written by `apply` (the move that ends a game), `finish_game` and `set_status` (a game its
    # host ends, under its house rule); see bot/store/ratings.py and docs/storage.md.
    def seasons(self, guild_id: int) -> list[SeasonRow]:
        """The guild's seasons, first first (empty until a first game is rated or a season started)."""
        with self.backend.read() as tx:
            return ratings.seasons(tx, guild_id)

    def current_season(self, guild_id: int) -> int:
        with self.backend.read() as tx:
            return ratings.current_season(tx, guild_id)

    def new_season(
        self, guild_id: int, by_user: int, *, after: int | None = None, now: float | None = None
    ) -> SeasonRow:
        """Start the guild's next season: ratings start again, the older seasons stay readable. With `after`
        (the season the confirmation showed), StoreError `season_changed` if another season began since."""
        ts = self._now(now)
        with self.backend.write() as tx:
            return ratings.new_season(tx, guild_id, by_user, after, ts, self.backend.for_update)

    def ranking(
        self, guild_id: int, *, season: int | None = None, edition: str | None = None, limit: int | None = None
    ) -> Ranking:
        """The guild's table for `season` (default: the current one), over every edition or over one
        edition's own ratings; people with fewer than bot.league.PROVISIONAL_GAMES games apart. `limit`
        keeps the first rows of each list."""
        with self.backend.read() as tx:
            return league_reads.ranking(tx, guild_id, season, edition, limit)

    def profile(
        self, guild_id: int, user_id: int, *, season: int | None = None, top: int = 3, points: int = 100
    ) -> Profile | None:
        """A person's rating in `season` (default: the current one) with its last `points` changes, and their
        record over the guild's finished games; `top`: how many titles and opponents. None if they never
        played there."""
        with self.backend.read() as tx:
            return league_reads.profile(tx, guild_id, user_id, season, top, points)

    def last_games(self, guild_id: int, limit: int = 10, *, user_id: int | None = None) -> list[GameSummary]:
        """The guild's last games that ended (played to the end or ended by the host, lobbies left out), most
        recent first, with placings and rating changes; with `user_id`, only the games they sat at."""
        with self.backend.read() as tx:
            return league_reads.last_games(tx, guild_id, limit, user_id)

    def game_ratings(self, game_id: int) -> list[RatingChange]:
        """What a game did to its people's ratings (over every edition), by seat; empty if it rated nobody."""
        with self.backend.read() as tx:
            return league_reads.game_changes(tx, game_id)

    def rerate(self, guild_id: int | None = None) -> list[Rerated]:
        """Recompute every rating of the guild (or of every guild) from its games, in the order they were rated;
        one transaction per guild. Gives exactly the numbers the games wrote one by one."""
        if guild_id is None:
            with self.backend.read() as tx:
                guilds = ratings.guilds_with_games(tx)
        else:
            guilds = [guild_id]
        done = []
        for guild in guilds:
            with self.backend.write() as tx:
                done.append(ratings.rerate(tx, guild))
        return done

    def personal_data(self, user_id: int) -> PersonalData:
        """Everything the store keeps about a person, in every guild."""
        with self.backend.read() as tx:
            return privacy.personal_data(tx, user_id, privacy.acted_in(tx, user_id))

    def open_tables(self, user_id: int) -> list[int]:
        """The open games (lobby or in play) a person sits at or hosts: while there is one, `forget` refuses."""
        with self.backend.read() as tx:
            return privacy.open_tables(tx, user_id)

    def forget(self, user_id: int) -> Forgotten:
        """Replace the person by a former player (bot.league.former_name) in every past game of every guild and
        remove their ratings; StoreError `forget_open_game` while they sit at or host an open table."""
        with self.backend.read() as tx:  # the log is scanned outside the write: other games go on meanwhile
            acted = privacy.acted_in(tx, user_id)
        with self.backend.write() as tx:
            return privacy.forget(tx, user_id, acted)

    # -- maintenance --------------------------------------------------------------------------------
    def backup(self, dest: str | os.PathLike[str]) -> None:
        """A consistent copy of the whole database, taken live: a SQLite file at `dest` (replacing an older
        backup there only once the new one is complete), or the empty database a postgresql:// `dest`
        names. From SQLite it is SQLite's online backup: copying the file by hand while the bot runs may
        miss what is still in the WAL. What keeps the copy from being written (no such folder, no right to
        write there, a full disk) is a `BadDestination`."""
        if is_url(dest):
            try:
                target = Store(dest)
            except StoreError as error:
                raise BadDestination(error, shown(str(dest))) from error
            with target:
                if target.game_ids():
                    raise StoreError("db_not_empty", location=target.location)
                copy_into(self.backend, target.backend)
            return
        final = Path(dest)
        partial = final.with_name(final.name + ".partial")
        try:
            partial.unlink(missing_ok=True)
            if self.kind == "sqlite":
                self.backend.backup(partial)  # type: ignore[attr-defined]
            else:
                with Store(partial, synchronous="FULL") as target:
                    copy_into(self.backend, target.backend)
            os.replace(partial, final)
        except StoreError as error:
            # Reading this database is what a damaged or locked file breaks; the rest is the copy's side.
            if error.code not in ("db_unavailable", "db_readonly", "db_full"):
                raise
            raise BadDestination(error, str(final)) from error
        except OSError as error:
            raise BadDestination(StoreError("db_unavailable", detail=error.strerror or str(error)),
                                 str(final)) from error

    def restore(self, source: str | os.PathLike[str]) -> None:
        """Replace every game with those of the backup at `source` (a file `backup` wrote, maybe by an older
        release), then bring its schema up to date. The backup is only read, and checked first: a damaged
        file, a database that is not Turista's or one from a newer release changes nothing (`BadBackup`)."""
        backup = open_backup(source)
        try:
            if self.kind == "sqlite":
                self.backend.replace_with(backup)  # type: ignore[attr-defined]
                self.backend.migrate()
                return
            # PostgreSQL: an older backup is brought up to date in a scratch copy (the backup itself is only
            # read), then its games replace every game here in one transaction.
            with tempfile.TemporaryDirectory(prefix="turista-restore-") as scratch:
                copy = sqlite3.connect(Path(scratch) / "backup.db")
                try:
                    backup.backup(copy)
                finally:
                    copy.close()
                with Store(Path(scratch) / "backup.db", create=False) as older:
                    copy_into(older.backend, self.backend, replace=True)
        finally:
            backup.close()

    def integrity(self) -> list[str]:
        """The database's own check of its storage: ["ok"] when sound."""
        return self.backend.integrity()

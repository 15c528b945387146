"""The PostgreSQL backend: psycopg 3 with its connection pool, for several bot processes on several machines.

Each Store call borrows a pooled connection for one transaction, so worker threads (`asyncio.to_thread`)
run in parallel instead of queueing on one lock. Connections are checked when they leave the pool: after
the server restarted or a network blip, the next call gets a fresh connection instead of an error.

Writes run at READ COMMITTED: `UPDATE … WHERE version = ?` then waits for a concurrent writer of the same
row and re-reads its version, which is exactly the version guard. A write that reads first locks the game
row (`SELECT … FOR UPDATE`), the equivalent of SQLite's `BEGIN IMMEDIATE` for that one game. Reads run in
REPEATABLE READ READ ONLY transactions, so a game and its seats are read from one consistent snapshot.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool

from bot.store.backend import shown
from bot.store.errors import StoreError, translate_pg
from bot.store.schema import MIGRATION_NAMES, POSTGRES

log = logging.getLogger("turista.store")

# Every process takes this advisory lock around its migrations, so two starting together migrate once.
_MIGRATION_LOCK = 0x7475726973746100  # "turista\0"
# A process that dies or hangs inside a transaction must not hold a game's row lock for long.
_IDLE_IN_TRANSACTION_S = 60
# Seconds a call waits for a pooled connection: a command that reads is still answered within Discord's 3 s when
# the server has just gone away. Once it is known to be away, a call waits only `_AWAY_WAIT`: it is refused at
# once, and the pool's own tries (a second apart at most) bring the connections back when the server answers again.
_CONNECTION_WAIT = 2.0
_AWAY_WAIT = 0.3
_RECONNECT_ROUND = 1.0


def _placeholders(sql: str, cache: dict[str, str] = {}) -> str:  # noqa: B006 - the cache is meant to persist
    """The store writes SQL with SQLite's `?`; psycopg wants `%s` (and `%%` for the modulo operator).
    No statement has a literal `?`."""
    converted = cache.get(sql)
    if converted is None:
        converted = cache[sql] = sql.replace("%", "%%").replace("?", "%s")
    return converted


class _Tx:
    __slots__ = ("cur",)

    def __init__(self, cur: psycopg.Cursor[Any]) -> None:
        self.cur = cur

    def execute(self, sql: str, params: Sequence[Any] = ()) -> psycopg.Cursor[Any]:
        try:
            return self.cur.execute(_placeholders(sql), params or None)
        except psycopg.Error as exc:
            raise translate_pg(exc) from exc

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            self.cur.executemany(_placeholders(sql), rows)
        except psycopg.Error as exc:
            raise translate_pg(exc) from exc


class PostgresBackend:
    kind = "postgresql"
    for_update = " FOR UPDATE"
    rent_sql = (
        "SELECT (e->>'to')::integer, sum((e->>'amount')::bigint)"
        " FROM actions a CROSS JOIN LATERAL jsonb_array_elements(a.events::jsonb) e WHERE a.game_id = ?"
        " AND e->>'code' = 'transfer' AND e->>'reason' = 'rent' GROUP BY 1"
    )

    def __init__(self, url: str, *, timeout: float, pool_size: int = 4) -> None:
        """`timeout`: seconds to wait for a connection, and for a row lock another process holds."""
        self.location = shown(url)
        self._down_since: float | None = None  # when the server stopped answering, while it does not
        self._health = threading.Lock()
        self._attempts_failed = 0  # the pool's failed connection attempts when the server was last found away
        self._connection_wait = min(timeout, _CONNECTION_WAIT)
        lock_ms = max(1, int(timeout * 1000))

        def configure(conn: psycopg.Connection[Any]) -> None:
            conn.execute(f"SET lock_timeout = {lock_ms}")
            conn.execute(f"SET idle_in_transaction_session_timeout = {_IDLE_IN_TRANSACTION_S * 1000}")

        self.pool = ConnectionPool(
            url,
            min_size=1,
            max_size=pool_size,
            kwargs={"autocommit": True, "connect_timeout": max(1, round(timeout))},
            configure=configure,
            check=ConnectionPool.check_connection,
            timeout=timeout,
            # A server that went away (a restart, a failover) is tried again once a second later, then the pool
            # gives up that round, and a call that waits for a connection starts a new round at once: the pool's
            # own back-off would otherwise grow to minutes, and a server back after 30 s would wait that long
            # to be used again.
            reconnect_timeout=_RECONNECT_ROUND,
            name="turista",
            open=False,
        )
        try:
            self.pool.open(wait=True, timeout=timeout)
        except psycopg.Error as exc:
            self.pool.close()
            raise StoreError("db_unavailable", detail=f"cannot connect to {self.location}: {exc}") from exc
        try:
            self.migrate()
        except BaseException:
            self.pool.close()
            raise

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[_Tx]:
        try:
            wait = _AWAY_WAIT if self._down_since is not None else self._connection_wait
            with self.pool.connection(timeout=wait) as conn, conn.cursor() as cur:
                cur.execute(begin)
                try:
                    yield _Tx(cur)
                except BaseException as exc:
                    if not conn.broken:
                        with suppress(psycopg.Error):  # the error that got us here is the one to report
                            cur.execute("ROLLBACK")
                    if isinstance(exc, StoreError):
                        self._failed(exc)
                    raise
                cur.execute("COMMIT")
        except psycopg.Error as exc:
            error = translate_pg(exc)
            self._failed(error)
            raise error from exc
        if self._down_since is not None:
            self._answered()

    def _failed(self, error: StoreError) -> None:
        """Say once in the log that the server does not answer (a restart, a network cut): until it does, every
        call fails at once with `db_unavailable` after the connection timeout, and players are told so."""
        if error.code != "db_unavailable":
            return
        # A pool whose every connection is busy also makes a call wait in vain; only a failed attempt to connect
        # says the server is away (and makes later calls give up sooner).
        attempts_failed = self.pool.get_stats().get("connections_errors", 0)
        with self._health:
            if self._down_since is not None or attempts_failed == self._attempts_failed:
                return
            self._attempts_failed = attempts_failed
            self._down_since = time.monotonic()
        log.warning("PostgreSQL at %s does not answer (%s); what needs the database is refused until it answers "
                    "again, and the connections are made again by themselves", self.location,
                    error.params.get("detail", ""))

    def _answered(self) -> None:
        with self._health:
            since, self._down_since = self._down_since, None
        if since is not None:
            log.info("PostgreSQL at %s answers again after %.1f s; going on", self.location, time.monotonic() - since)

    def write(self) -> Any:
        return self._transaction("BEGIN")

    def read(self) -> Any:
        return self._transaction("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    def migrate(self, stop_before: str | None = None) -> None:
        with self.write() as tx:
            tx.execute("SELECT pg_advisory_xact_lock(?)", [_MIGRATION_LOCK])
            tx.execute(
                "CREATE TABLE IF NOT EXISTS turista_migrations"
                " (name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)"
            )
            applied = {r[0] for r in tx.execute("SELECT name FROM turista_migrations")}
            unknown = sorted(applied - set(MIGRATION_NAMES))
            if unknown:
                raise StoreError("db_too_new", migrations=unknown)
            for name, statements in POSTGRES.items():
                if name == stop_before:
                    break
                if name in applied:
                    continue
                for sql in statements:
                    tx.execute(sql)
                tx.execute("INSERT INTO turista_migrations (name, applied_at) VALUES (?, ?)", [name, time.time()])

    def schema_version(self) -> list[str]:
        with self.read() as tx:
            return [r[0] for r in tx.execute("SELECT name FROM turista_migrations ORDER BY name")]

    def integrity(self) -> list[str]:
        """PostgreSQL checks its own pages as it reads them: what it has counted as damaged so far (data
        checksums on) and whether the indexes the store relies on are valid. ["ok"] when sound."""
        problems = []
        with self.read() as tx:
            failures = tx.execute(
                "SELECT checksum_failures FROM pg_stat_database WHERE datname = current_database()"
            ).fetchone()
            if failures and failures[0]:
                problems.append(f"{failures[0]} data checksum failures")
            invalid = tx.execute(
                "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid"
                " JOIN pg_class t ON t.oid = i.indrelid"
                " WHERE t.relname IN ('games', 'seats', 'actions', 'results', 'messages', 'seasons', 'league_games',"
                " 'ratings', 'rating_changes', 'titles_bought')"
                " AND t.relnamespace = to_regnamespace(current_schema())::oid AND NOT i.indisvalid"
            ).fetchall()
            problems += [f"index {r[0]} is invalid" for r in invalid]
        return problems or ["ok"]

    def reserve_ids(self, above: int) -> None:
        if above < 1:
            return
        with self.write() as tx:
            tx.execute(
                "SELECT setval(s, greatest(?, coalesce(pg_sequence_last_value(s), 0)))"
                " FROM (SELECT pg_get_serial_sequence('games', 'id')::regclass AS s) AS games_sequence",
                [above],
            )

    def close(self) -> None:
        self.pool.close()

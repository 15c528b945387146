"""The SQLite backend: one file through sqlite-utils; one writing connection per Store, serialised by a
lock, and a reading connection per thread.

WAL journal, so readers never wait for the writer and several processes may share the file. Every write
transaction is `BEGIN IMMEDIATE`: it takes the file's write lock up front (waiting up to the busy timeout),
so a transaction that reads before it writes cannot fail half-way because another process wrote in between.
Reads have their own connections so that a write waiting for another process's lock (up to the busy
timeout) never holds up a read made meanwhile for another channel.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from bot.store.errors import StoreError, translate
from bot.store.schema import MIGRATION_NAMES, migrations

SYNCHRONOUS = ("OFF", "NORMAL", "FULL", "EXTRA")


class _Tx:
    __slots__ = ("conn",)

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn

    def execute(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Cursor:
        try:
            return self.conn.execute(sql, params)
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        try:
            self.conn.executemany(sql, rows)
        except sqlite3.Error as exc:
            raise translate(exc) from exc


class SqliteBackend:
    kind = "sqlite"
    for_update = ""  # BEGIN IMMEDIATE already holds the whole file
    rent_sql = (
        "SELECT json_extract(e.value, '$.to'), sum(json_extract(e.value, '$.amount'))"
        " FROM actions a, json_each(a.events) e WHERE a.game_id = ?"
        " AND json_extract(e.value, '$.code') = 'transfer' AND json_extract(e.value, '$.reason') = 'rent'"
        " GROUP BY 1"
    )

    def __init__(self, path: Path, *, timeout: float, synchronous: str, create: bool) -> None:
        if synchronous not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be OFF, NORMAL, FULL or EXTRA, not {synchronous!r}")
        self.path = path
        self.location = str(path)
        self.synchronous = synchronous
        self._lock = threading.RLock()
        self._timeout = timeout
        self._create = create
        self._local = threading.local()  # this thread's reading connection, and whether it is writing
        self._readers: list[sqlite3.Connection] = []
        self._readers_lock = threading.Lock()
        conn = self._connect()
        self.conn = conn
        self.db = Database(conn)
        self._tx = _Tx(conn)
        try:
            with self._guard():
                conn.execute("PRAGMA foreign_keys = ON")
                self.db.enable_wal()
                conn.execute(f"PRAGMA synchronous = {synchronous}")
            self.migrate()
            if create:
                self.probe_write()
        except BaseException:
            conn.close()
            raise

    def _connect(self) -> sqlite3.Connection:
        try:
            if self._create:
                return sqlite3.connect(self.path, timeout=self._timeout, check_same_thread=False,
                                       isolation_level=None)
            uri = self.path.resolve().as_uri() + "?mode=rw"
            return sqlite3.connect(uri, uri=True, timeout=self._timeout, check_same_thread=False,
                                   isolation_level=None)
        except sqlite3.Error as exc:
            raise translate(exc) from exc

    def _reader(self) -> _Tx:
        """This thread's reading connection (made on first use)."""
        tx: _Tx | None = getattr(self._local, "reader", None)
        if tx is None:
            conn = self._connect()
            conn.execute("PRAGMA query_only = ON")
            with self._readers_lock:
                self._readers.append(conn)
            tx = self._local.reader = _Tx(conn)
        return tx

    @contextmanager
    def _guard(self, wait: float = -1) -> Iterator[None]:
        """The writing connection for this thread; with `wait` (seconds), `db_locked` when this process's
        other writes keep it longer than that."""
        if not self._lock.acquire(timeout=wait):
            raise StoreError("db_locked", detail=f"this process's other writes held the database for {wait:g} s")
        try:
            yield
        except sqlite3.Error as exc:
            raise translate(exc) from exc
        finally:
            self._lock.release()

    @contextmanager
    def _transaction(self, begin: str) -> Iterator[_Tx]:
        # Writes queue for the one connection; while another process holds the file, each of them waits
        # its busy timeout in turn. Waiting here no longer than that too, the tenth write in line gives
        # up after one timeout, not ten, and its thread is free again.
        with self._guard(self._timeout):
            nested = self.conn.in_transaction
            if not nested:
                self.conn.execute(begin)
            try:
                yield self._tx
            except BaseException:
                if not nested and self.conn.in_transaction:
                    self.conn.execute("ROLLBACK")
                raise
            if not nested:
                try:
                    self.conn.execute("COMMIT")
                except BaseException:
                    if self.conn.in_transaction:
                        self.conn.execute("ROLLBACK")
                    raise

    @contextmanager
    def write(self) -> Iterator[_Tx]:
        outer = getattr(self._local, "writing", False)
        self._local.writing = True
        try:
            with self._transaction("BEGIN IMMEDIATE") as tx:
                yield tx
        finally:
            self._local.writing = outer

    @contextmanager
    def read(self) -> Iterator[_Tx]:
        if getattr(self._local, "writing", False):  # inside a write: see its own changes
            with self._transaction("BEGIN") as tx:
                yield tx
            return
        tx = self._reader()
        try:
            tx.execute("BEGIN")
            yield tx
        finally:
            if tx.conn.in_transaction:
                tx.conn.execute("COMMIT")

    def migrate(self, stop_before: str | None = None) -> None:
        # One immediate transaction around the whole upgrade: two processes starting together cannot
        # both run the same migration, and a kill mid-way leaves the older schema intact.
        with self.write():
            unknown = [m.name for m in migrations.applied(self.db) if m.name not in MIGRATION_NAMES]
            if unknown:
                raise StoreError("db_too_new", migrations=unknown)
            migrations.apply(self.db, stop_before=stop_before)

    def probe_write(self) -> None:
        """A write that changes nothing, made at every start: a read-only file or folder is refused now,
        with its reason, rather than at the first move of a game."""
        with self.write() as tx:
            version = tx.execute("PRAGMA user_version").fetchone()[0]
            tx.execute(f"PRAGMA user_version = {int(version)}")

    def schema_version(self) -> list[str]:
        with self.read():
            return [m.name for m in migrations.applied(self.db)]

    def integrity(self) -> list[str]:
        """SQLite's own quick check of the file: ["ok"] when sound."""
        with self._guard():
            return [r[0] for r in self.conn.execute("PRAGMA quick_check")]

    def reserve_ids(self, above: int) -> None:
        with self.write() as tx:
            current = tx.execute("SELECT seq FROM sqlite_sequence WHERE name = 'games'").fetchone()
            if current is None:
                tx.execute("INSERT INTO sqlite_sequence (name, seq) VALUES ('games', ?)", [above])
            elif current[0] < above:
                tx.execute("UPDATE sqlite_sequence SET seq = ? WHERE name = 'games'", [above])

    def backup(self, dest: str | Path) -> None:
        """SQLite's online backup: a consistent copy of the live file, WAL included."""
        with self._guard():
            target = sqlite3.connect(dest)
            try:
                self.conn.backup(target)
            finally:
                target.close()

    def replace_with(self, source: sqlite3.Connection) -> None:
        """Every page of `source` over this database (SQLite's backup API, the other way round)."""
        with self._guard():
            source.backup(self.conn)

    def close(self) -> None:
        with self._readers_lock:
            for reader in self._readers:
                reader.close()
            self._readers.clear()
        with self._lock:
            self.conn.close()

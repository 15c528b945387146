"""Errors the store raises: each carries a catalogue code (`error.<code>`) and parameters, never a sentence.

Both databases speak the same codes: SQLite's result codes and PostgreSQL's SQLSTATEs are translated here,
so the bot (and whoever heals faults) never needs to know which one is behind the store.
"""

from __future__ import annotations

import sqlite3


class StoreError(Exception):
    """A storage failure the bot can show as `error.<code>`; the stored game is left as it was."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


class StaleVersion(StoreError):
    """The stored game moved on since the action was computed: nothing was written."""

    def __init__(self, game_id: int, expected: int, actual: int | None) -> None:
        super().__init__("stale_version", game_id=game_id, expected=expected, actual=actual)
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class ChannelBusy(StoreError):
    """The channel already has an open (lobby or active) game."""

    def __init__(self, channel_id: int, game_id: int | None) -> None:
        super().__init__("channel_busy", channel_id=channel_id, game_id=game_id)
        self.channel_id = channel_id
        self.game_id = game_id


class LeaseLost(StoreError):
    """Another process took over the game's shard (its lease in the database has a newer epoch, or none is held
    at this shard count): this process may not write the shard's games any more, and nothing was written."""

    def __init__(self, shard: int, shard_count: int, epoch: int, holder: str | None, holder_epoch: int | None) -> None:
        super().__init__("lease_lost", shard=shard, shard_count=shard_count, epoch=epoch, holder=holder,
                         holder_epoch=holder_epoch)
        self.shard = shard
        self.shard_count = shard_count
        self.epoch = epoch
        self.holder = holder
        self.holder_epoch = holder_epoch


class NoSuchGame(StoreError):
    def __init__(self, game_id: int) -> None:
        super().__init__("no_such_game", game_id=game_id)
        self.game_id = game_id


class BadBackup(StoreError):
    """The file given as a backup cannot be restored from (the live database was not touched): the error the
    backup gave, with the backup's path as `backup`, so that the message names that file."""

    def __init__(self, error: StoreError, backup: str) -> None:
        super().__init__(error.code, **{**error.params, "backup": backup})


class BadDestination(StoreError):
    """A backup could not be written where it was asked for: the error, with that place as `dest`."""

    def __init__(self, error: StoreError, dest: str) -> None:
        super().__init__(error.code, **{**error.params, "dest": dest})


class Conflict(StoreError):
    """The database refused a row that breaks one of its own rules (a unique index, a check, the
    append-only log). The store turns the expected ones into a precise error (ChannelBusy,
    `already_seated`); one that escapes is a plain `db_error`."""

    def __init__(self, detail: str) -> None:
        super().__init__("db_error", detail=detail)
        self.detail = detail


# SQLite primary result codes (the low byte of an extended code) and what the player is told.
_SQLITE_CODES = {
    5: "db_locked",  # SQLITE_BUSY: another writer held the lock beyond the busy timeout
    6: "db_locked",  # SQLITE_LOCKED
    8: "db_readonly",  # SQLITE_READONLY
    10: "db_io",  # SQLITE_IOERR
    11: "db_corrupt",  # SQLITE_CORRUPT
    13: "db_full",  # SQLITE_FULL
    14: "db_unavailable",  # SQLITE_CANTOPEN
    26: "db_corrupt",  # SQLITE_NOTADB
}


def translate(exc: sqlite3.Error) -> StoreError:
    """The StoreError for a sqlite3 error, keeping SQLite's own name for the logs."""
    if isinstance(exc, sqlite3.IntegrityError):
        err: StoreError = Conflict(str(exc))
    else:
        errorcode = getattr(exc, "sqlite_errorcode", None)
        code = _SQLITE_CODES.get(errorcode & 0xFF, "db_error") if isinstance(errorcode, int) else "db_error"
        err = StoreError(code, detail=str(exc), sqlite=getattr(exc, "sqlite_errorname", None))
    err.__cause__ = exc
    return err


# PostgreSQL SQLSTATEs (exact codes first, then their two-character class) and the same codes as SQLite's.
_PG_STATES = {
    "55P03": "db_locked",  # lock_not_available: a row or table lock held beyond lock_timeout
    "40P01": "db_locked",  # deadlock_detected
    "40001": "db_locked",  # serialization_failure
    "57014": "db_locked",  # query_canceled: statement_timeout
    "53100": "db_full",  # disk_full
    "53200": "db_full",  # out_of_memory
    "54000": "db_full",  # program_limit_exceeded
    "53300": "db_unavailable",  # too_many_connections
    "25006": "db_readonly",  # read_only_sql_transaction: a standby, or default_transaction_read_only
    "42501": "db_readonly",  # insufficient_privilege
    "58030": "db_io",  # io_error
    "XX001": "db_corrupt",  # data_corrupted
    "XX002": "db_corrupt",  # index_corrupted
    "3D000": "db_unavailable",  # invalid_catalog_name: no such database
    "08": "db_unavailable",  # connection_exception
    "28": "db_unavailable",  # invalid_authorization_specification (a wrong password)
    "57": "db_unavailable",  # operator_intervention: admin shutdown, crash shutdown, starting up
    "53": "db_full",  # insufficient_resources
}


def translate_pg(exc: Exception) -> StoreError:
    """The StoreError for a psycopg (or psycopg_pool) error. A broken connection has no SQLSTATE: the
    server went away or cannot be reached, which the player hears as `db_unavailable`."""
    import psycopg

    state = getattr(exc, "sqlstate", None) or ""
    if isinstance(exc, psycopg.IntegrityError) or state.startswith("23"):
        err: StoreError = Conflict(str(exc).strip())
    else:
        code = _PG_STATES.get(state) or _PG_STATES.get(state[:2])
        if code is None:
            broken = isinstance(exc, psycopg.OperationalError | psycopg.InterfaceError) or not state
            code = "db_unavailable" if broken and not isinstance(exc, psycopg.ProgrammingError) else "db_error"
        err = StoreError(code, detail=str(exc).strip(), sqlstate=state or None)
    err.__cause__ = exc
    return err

"""Errors the store raises: each carries a catalogue code (`error.<code>`) and parameters, never a sentence."""

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


class NoSuchGame(StoreError):
    def __init__(self, game_id: int) -> None:
        super().__init__("no_such_game", game_id=game_id)
        self.game_id = game_id


# SQLite primary result codes (the low byte of an extended code) and what the player is told.
_CODES = {
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
    errorcode = getattr(exc, "sqlite_errorcode", None)
    code = _CODES.get(errorcode & 0xFF, "db_error") if isinstance(errorcode, int) else "db_error"
    err = StoreError(code, detail=str(exc), sqlite=getattr(exc, "sqlite_errorname", None))
    err.__cause__ = exc
    return err

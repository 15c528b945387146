"""What the store needs from a database, and which one a `TURISTA_DB` value names.

A value that starts with `postgresql://` (or `postgres://`) is a PostgreSQL server; anything else is the path
of a SQLite file. Both backends run the same SQL (written with `?` placeholders) inside the same two kinds of
transaction, and turn their driver's errors into StoreError codes at the point they happen.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Sequence
from contextlib import AbstractContextManager
from typing import Any, Protocol

URL_PREFIXES = ("postgresql://", "postgres://")

# Game ids come in blocks of this size, one block per database file of a sharded deployment (see
# `Store.reserve_ids`), so the files can later be split and merged without two games sharing an id.
ID_STRIDE = 2**40


class Cursor(Protocol):
    rowcount: int

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Tx(Protocol):
    """One open transaction. Errors come out as StoreError (a broken database rule as `Conflict`)."""

    def execute(self, sql: str, params: Sequence[Any] = ()) -> Cursor: ...

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


class Backend(Protocol):
    kind: str  # "sqlite" or "postgresql"
    location: str  # what to show an admin: the file, or the URL without its password
    for_update: str  # appended to a SELECT that will be followed by a write of the same game row
    rent_sql: str  # (game_id) -> rows of (seat, rent collected), summed from the logged transfer events

    def write(self) -> AbstractContextManager[Tx]:
        """A transaction that may write: committed when the block ends, rolled back if it raises."""
        ...

    def read(self) -> AbstractContextManager[Tx]:
        """A read-only transaction: every statement in it sees the same committed state."""
        ...

    def migrate(self, stop_before: str | None = None) -> None: ...

    def schema_version(self) -> list[str]: ...

    def integrity(self) -> list[str]: ...

    def reserve_ids(self, above: int) -> None:
        """From now on, new games get ids above `above` (never lowers the next id)."""
        ...

    def close(self) -> None: ...


def is_url(target: str | os.PathLike[str]) -> bool:
    return isinstance(target, str) and target.startswith(URL_PREFIXES)


def shown(target: str | os.PathLike[str]) -> str:
    """A database as an admin may see it in a log line: a URL loses its password."""
    return re.sub(r"(://[^:/@]*):[^@]*@", r"\1:***@", str(target)) if is_url(target) else str(target)

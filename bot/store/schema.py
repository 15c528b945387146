"""The database schema as numbered migrations (sqlite-utils `Migrations`, recorded in `_sqlite_migrations`).

Append new migrations at the end with the next number; never edit or reorder an applied one: a database
from an older release upgrades in place by running the ones it has not seen yet, each in its own
transaction. Statements go through `db.execute` one at a time because `executescript` would commit
half-way and break that transaction.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

OPEN_STATUSES = ("lobby", "active")
STATUSES = ("lobby", "active", "finished", "abandoned")
MigrationFn = Callable[[Database], None]

migrations = Migrations("turista")
MIGRATION_NAMES: list[str] = []  # in order; a database that recorded any other name is from a newer release


def _migration(name: str) -> Callable[[MigrationFn], MigrationFn]:
    MIGRATION_NAMES.append(name)
    return migrations(name=name)


def _run(db: Database, *statements: str) -> None:
    for sql in statements:
        db.execute(sql)


@_migration("0001_games_seats_log")
def _games_seats_log(db: Database) -> None:
    _run(
        db,
        # AUTOINCREMENT: a game id is never reused, so an old button (`turista:<game>:…`) can never
        # reach a newer game that happens to get the same id.
        """
        CREATE TABLE games (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            guild_id INTEGER NOT NULL,
            channel_id INTEGER NOT NULL,
            host_id INTEGER NOT NULL,
            status TEXT NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            edition TEXT NOT NULL,
            settings TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
            seed INTEGER NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            snapshot TEXT,
            initial TEXT,
            table_message_id INTEGER,
            deadline REAL,
            created_at REAL NOT NULL,
            updated_at REAL NOT NULL,
            started_at REAL,
            finished_at REAL
        )
        """,
        # The rule "at most one open game per channel" lives here, not in Python, so that two bot
        # processes (or a retried command) cannot both open one.
        """
        CREATE UNIQUE INDEX games_open_per_channel ON games (channel_id)
            WHERE status IN ('lobby', 'active')
        """,
        "CREATE INDEX games_by_guild ON games (guild_id, status, id)",
        """
        CREATE TABLE seats (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
            user_id INTEGER,
            name TEXT NOT NULL,
            computer TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (game_id, seat),
            UNIQUE (game_id, user_id)
        ) WITHOUT ROWID
        """,
        # seq is the game version the action produced (seq 0: the game's start, no action).
        """
        CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            actor INTEGER,
            action TEXT,
            events TEXT NOT NULL DEFAULT '[]',
            time REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        ) WITHOUT ROWID
        """,
        """
        CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
        BEGIN
            SELECT RAISE(ABORT, 'the action log is append-only');
        END
        """,
    )


@_migration("0002_results")
def _results(db: Database) -> None:
    _run(
        db,
        # Who held each seat at the end (a seat may have passed to a computer player), for stats.
        """
        CREATE TABLE results (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_id INTEGER,
            name TEXT NOT NULL,
            computer TEXT NOT NULL DEFAULT '',
            rank INTEGER NOT NULL,
            net_worth INTEGER NOT NULL,
            cash INTEGER NOT NULL DEFAULT 0,
            rent_collected INTEGER NOT NULL DEFAULT 0,
            titles INTEGER NOT NULL DEFAULT 0,
            titles_value INTEGER NOT NULL DEFAULT 0,
            buildings_value INTEGER NOT NULL DEFAULT 0,
            out INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, seat)
        ) WITHOUT ROWID
        """,
        "CREATE INDEX results_by_user ON results (user_id)",
        """
        CREATE INDEX games_history ON games (guild_id, finished_at)
            WHERE status IN ('finished', 'abandoned')
        """,
    )

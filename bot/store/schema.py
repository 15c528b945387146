"""The database schema as numbered migrations, written once per database: SQLite (applied by sqlite-utils'
`Migrations`, recorded in `_sqlite_migrations`) and PostgreSQL (recorded in `turista_migrations`).

Append new migrations at the end with the next number, in both dialects (a test checks they match);
never edit or reorder an applied one: a database from an older release upgrades in place by running the
ones it has not seen yet. Statements run one at a time because SQLite's `executescript` would commit
half-way and break the migration's transaction.
"""

from __future__ import annotations

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations

OPEN_STATUSES = ("lobby", "active")
STATUSES = ("lobby", "active", "finished", "abandoned")

# The one message id a game kept before 0003 becomes its lobby or table message.
_MOVE_MESSAGE_IDS = """
    INSERT INTO messages (game_id, kind, channel_id, message_id, version, updated_at)
        SELECT id, CASE WHEN status = 'lobby' THEN 'lobby' ELSE 'table' END, channel_id, table_message_id,
               version, updated_at
        FROM games WHERE table_message_id IS NOT NULL AND status IN ('lobby', 'active')
"""

# The titles each seat bought in a game (from the bank or at an auction), counted from the logged events,
# for the games finished before 0004 (a game finished since records its own when it ends).
_SQLITE_BOUGHT = """
    SELECT a.game_id,
           CASE json_extract(e.value, '$.code') WHEN 'transfer' THEN json_extract(e.value, '$.from')
                ELSE json_extract(e.value, '$.seat') END,
           json_extract(e.value, '$.square'), count(*)
    FROM actions a, json_each(a.events) e
    WHERE {where} AND ((json_extract(e.value, '$.code') = 'transfer' AND json_extract(e.value, '$.reason') = 'buy')
        OR (json_extract(e.value, '$.code') = 'auction_won' AND json_extract(e.value, '$.item') = 'title'))
    GROUP BY 1, 2, 3
"""
_POSTGRES_BOUGHT = """
    SELECT a.game_id,
           (CASE e->>'code' WHEN 'transfer' THEN e->>'from' ELSE e->>'seat' END)::integer,
           (e->>'square')::integer, count(*)
    FROM actions a CROSS JOIN LATERAL jsonb_array_elements(a.events::jsonb) e
    WHERE {where} AND ((e->>'code' = 'transfer' AND e->>'reason' = 'buy')
        OR (e->>'code' = 'auction_won' AND e->>'item' = 'title'))
    GROUP BY 1, 2, 3
"""
BOUGHT_SQL = {"sqlite": _SQLITE_BOUGHT.format(where="a.game_id = ?"),
              "postgresql": _POSTGRES_BOUGHT.format(where="a.game_id = ?")}
_FINISHED = "a.game_id IN (SELECT id FROM games WHERE status = 'finished')"

# -- SQLite -----------------------------------------------------------------------------------------
SQLITE: dict[str, tuple[str, ...]] = {
    "0001_games_seats_log": (
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
    ),
    "0002_results": (
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
    ),
    "0003_messages_threads": (
        # The game's own thread (a house rule, on by default); NULL: the game is played in the channel.
        "ALTER TABLE games ADD COLUMN thread_id INTEGER",
        "CREATE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL",
        # Every message that carries a decision (the lobby, the table, an auction, an offer), so that a
        # restart finds them and brings each up to date. `posting` is written before a POST and cleared
        # with the id it returned: a crash between the two shows as a `posting` left behind.
        """
        CREATE TABLE messages (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('lobby', 'table', 'auction', 'offer')),
            channel_id INTEGER NOT NULL,
            message_id INTEGER,
            version INTEGER NOT NULL DEFAULT 0,
            posting INTEGER,
            digest TEXT,
            board TEXT,
            updated_at REAL NOT NULL,
            PRIMARY KEY (game_id, kind)
        ) WITHOUT ROWID
        """,
        _MOVE_MESSAGE_IDS,
    ),
    "0004_league": (
        # Per guild: its seasons, numbered from 1. `games` counts the games rated in it so far: a rated game's
        # `position`, which is the order `turista store rerate` replays them in. The first rated game of a
        # guild opens season 1 (started_by NULL).
        """
        CREATE TABLE seasons (
            guild_id INTEGER NOT NULL,
            number INTEGER NOT NULL CHECK (number >= 1),
            started_at REAL NOT NULL,
            started_by INTEGER,
            games INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (guild_id, number)
        ) WITHOUT ROWID
        """,
        # One row per game that changed ratings: a game is rated once, whatever is retried or replayed.
        """
        CREATE TABLE league_games (
            game_id INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            guild_id INTEGER NOT NULL,
            season INTEGER NOT NULL,
            position INTEGER NOT NULL,
            rated_at REAL NOT NULL,
            UNIQUE (guild_id, season, position)
        )
        """,
        # A person's rating in a guild's season: over all its games (edition '') and over each edition's.
        """
        CREATE TABLE ratings (
            guild_id INTEGER NOT NULL,
            season INTEGER NOT NULL,
            edition TEXT NOT NULL,
            user_id INTEGER NOT NULL,
            name TEXT NOT NULL,
            mu REAL NOT NULL,
            sigma REAL NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            last_game_id INTEGER NOT NULL,
            updated_at REAL NOT NULL,
            PRIMARY KEY (guild_id, season, edition, user_id)
        ) WITHOUT ROWID
        """,
        # What each rated game did to each of its people's ratings (rank: their placing in it).
        """
        CREATE TABLE rating_changes (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            edition TEXT NOT NULL,
            user_id INTEGER NOT NULL,
            guild_id INTEGER NOT NULL,
            season INTEGER NOT NULL,
            position INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            mu_before REAL NOT NULL,
            sigma_before REAL NOT NULL,
            mu_after REAL NOT NULL,
            sigma_after REAL NOT NULL,
            PRIMARY KEY (game_id, edition, user_id)
        ) WITHOUT ROWID
        """,
        # A person's history in a guild's season, in the order rated; and everything of theirs (privacy).
        "CREATE INDEX rating_changes_by_user ON rating_changes (user_id, guild_id, season, edition, position)",
        """
        CREATE TABLE titles_bought (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            square INTEGER NOT NULL,
            times INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat, square)
        ) WITHOUT ROWID
        """,
        "INSERT INTO titles_bought (game_id, seat, square, times) " + _SQLITE_BOUGHT.format(where=_FINISHED),
        # A game's edition is the one played: before 0004 a lobby that changed it kept the one it opened with.
        """
        UPDATE games SET edition = json_extract(initial, '$.edition')
            WHERE initial IS NOT NULL AND json_extract(initial, '$.edition') <> edition
        """,
        # A person who asks to be forgotten takes their id off the rows they acted in: the log stays
        # append-only for everything else.
        "DROP TRIGGER actions_append_only",
        """
        CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
        WHEN NOT (NEW.actor IS NULL AND NEW.game_id = OLD.game_id AND NEW.seq = OLD.seq
                  AND NEW.action IS OLD.action AND NEW.events = OLD.events AND NEW.time = OLD.time)
        BEGIN
            SELECT RAISE(ABORT, 'the action log is append-only');
        END
        """,
    ),
    "0005_registrations": (
        # The slash commands Discord last accepted from this bot (a digest of the payload), per application and
        # scope (guild 0: global), so that a start registers only what changed; and the last refusal, if the
        # newest attempt was refused, with how many commands Discord still had (`turista status` tells it).
        """
        CREATE TABLE registrations (
            application_id INTEGER NOT NULL,
            guild_id INTEGER NOT NULL,
            digest TEXT,
            synced_at REAL,
            refused TEXT,
            refused_at REAL,
            kept INTEGER,
            PRIMARY KEY (application_id, guild_id)
        ) WITHOUT ROWID
        """,
    ),
    "0006_requests": (
        # A take-back asked for and not yet settled: one per game version (a move since outdates it, and a
        # refused one is not asked again at that version). `agreed`: the ids of the people who said yes, as a
        # JSON list. Rows outlive a restart, so the request's buttons still work after one.
        """
        CREATE TABLE requests (
            game_id INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            user_id INTEGER,
            count INTEGER NOT NULL CHECK (count >= 1),
            agreed TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(agreed)),
            status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'refused', 'done')),
            created_at REAL NOT NULL,
            PRIMARY KEY (game_id, version)
        ) WITHOUT ROWID
        """,
    ),
    "0007_leases": (
        # Which process may write the games of each gateway shard (at the shard count the processes run): the
        # newest to start takes the lease with the next epoch, and every write of a game checks, in its own
        # transaction, that the epoch it holds is still the shard's.
        """
        CREATE TABLE leases (
            shard_count INTEGER NOT NULL,
            shard INTEGER NOT NULL,
            owner TEXT NOT NULL,
            epoch INTEGER NOT NULL,
            taken_at REAL NOT NULL,
            PRIMARY KEY (shard_count, shard)
        ) WITHOUT ROWID
        """,
    ),
    "0008_correspondence": (
        # When the latest reminder a game sent was due (unix time): a reminder due at or before it was sent, so a
        # restart sends none twice. Reminders of later decisions are due later, so one moment covers them all.
        "ALTER TABLE games ADD COLUMN reminded REAL",
        # A paused game: since when, and the seconds its pending decision's clock had left (NULL: none ran).
        "ALTER TABLE games ADD COLUMN paused_at REAL",
        "ALTER TABLE games ADD COLUMN paused_left REAL",
        # Each person's reminders (`/turista notify`): where they go, the quiet hours in their time zone, and the
        # direct messages sent them on `dm_day` (their own date), against a daily budget.
        """
        CREATE TABLE notify (
            user_id INTEGER PRIMARY KEY,
            mode TEXT NOT NULL DEFAULT 'channel' CHECK (mode IN ('channel', 'dm', 'none')),
            quiet_from INTEGER CHECK (quiet_from BETWEEN 0 AND 23),
            quiet_to INTEGER CHECK (quiet_to BETWEEN 0 AND 23),
            time_zone TEXT NOT NULL DEFAULT 'UTC',
            dm_day TEXT,
            dm_count INTEGER NOT NULL DEFAULT 0
        )
        """,
    ),
}

# -- PostgreSQL -------------------------------------------------------------------------------------
# The same tables, columns and rules. Discord ids need BIGINT; times stay unix seconds (DOUBLE PRECISION)
# and JSON stays TEXT, so both databases hand back byte-identical rows.
POSTGRES: dict[str, tuple[str, ...]] = {
    "0001_games_seats_log": (
        # BY DEFAULT (not ALWAYS): `turista store merge` inserts games with the ids they already have.
        # fillfactor: every action rewrites the row; room on the page keeps those updates HOT.
        """
        CREATE TABLE games (
            id BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
            guild_id BIGINT NOT NULL,
            channel_id BIGINT NOT NULL,
            host_id BIGINT NOT NULL,
            status TEXT NOT NULL DEFAULT 'lobby'
                CHECK (status IN ('lobby', 'active', 'finished', 'abandoned')),
            edition TEXT NOT NULL,
            settings TEXT NOT NULL DEFAULT '{}' CHECK (settings::jsonb IS NOT NULL),
            seed BIGINT NOT NULL,
            version INTEGER NOT NULL DEFAULT 0,
            snapshot TEXT,
            initial TEXT,
            table_message_id BIGINT,
            deadline DOUBLE PRECISION,
            created_at DOUBLE PRECISION NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL,
            started_at DOUBLE PRECISION,
            finished_at DOUBLE PRECISION
        ) WITH (fillfactor = 70)
        """,
        """
        CREATE UNIQUE INDEX games_open_per_channel ON games (channel_id)
            WHERE status IN ('lobby', 'active')
        """,
        "CREATE INDEX games_by_guild ON games (guild_id, status, id)",
        """
        CREATE TABLE seats (
            game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL CHECK (seat BETWEEN 0 AND 5),
            user_id BIGINT,
            name TEXT NOT NULL,
            computer TEXT NOT NULL DEFAULT '',
            PRIMARY KEY (game_id, seat),
            UNIQUE (game_id, user_id)
        )
        """,
        """
        CREATE TABLE actions (
            game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seq INTEGER NOT NULL,
            actor BIGINT,
            action TEXT,
            events TEXT NOT NULL DEFAULT '[]',
            time DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, seq)
        )
        """,
        # The class-23 SQLSTATE makes the refusal an integrity error, as SQLite's RAISE(ABORT) is.
        """
        CREATE FUNCTION turista_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            RAISE EXCEPTION 'the action log is append-only' USING ERRCODE = 'integrity_constraint_violation';
        END
        $$
        """,
        """
        CREATE TRIGGER actions_append_only BEFORE UPDATE ON actions
            FOR EACH ROW EXECUTE FUNCTION turista_actions_append_only()
        """,
    ),
    "0002_results": (
        """
        CREATE TABLE results (
            game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            user_id BIGINT,
            name TEXT NOT NULL,
            computer TEXT NOT NULL DEFAULT '',
            rank INTEGER NOT NULL,
            net_worth BIGINT NOT NULL,
            cash BIGINT NOT NULL DEFAULT 0,
            rent_collected BIGINT NOT NULL DEFAULT 0,
            titles INTEGER NOT NULL DEFAULT 0,
            titles_value BIGINT NOT NULL DEFAULT 0,
            buildings_value BIGINT NOT NULL DEFAULT 0,
            out INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (game_id, seat)
        )
        """,
        "CREATE INDEX results_by_user ON results (user_id)",
        """
        CREATE INDEX games_history ON games (guild_id, finished_at)
            WHERE status IN ('finished', 'abandoned')
        """,
    ),
    "0003_messages_threads": (
        "ALTER TABLE games ADD COLUMN thread_id BIGINT",
        "CREATE INDEX games_by_thread ON games (thread_id) WHERE thread_id IS NOT NULL",
        """
        CREATE TABLE messages (
            game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('lobby', 'table', 'auction', 'offer')),
            channel_id BIGINT NOT NULL,
            message_id BIGINT,
            version INTEGER NOT NULL DEFAULT 0,
            posting INTEGER,
            digest TEXT,
            board TEXT,
            updated_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, kind)
        )
        """,
        _MOVE_MESSAGE_IDS,
    ),
    "0004_league": (
        """
        CREATE TABLE seasons (
            guild_id BIGINT NOT NULL,
            number INTEGER NOT NULL CHECK (number >= 1),
            started_at DOUBLE PRECISION NOT NULL,
            started_by BIGINT,
            games INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (guild_id, number)
        )
        """,
        """
        CREATE TABLE league_games (
            game_id BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
            guild_id BIGINT NOT NULL,
            season INTEGER NOT NULL,
            position INTEGER NOT NULL,
            rated_at DOUBLE PRECISION NOT NULL,
            UNIQUE (guild_id, season, position)
        )
        """,
        """
        CREATE TABLE ratings (
            guild_id BIGINT NOT NULL,
            season INTEGER NOT NULL,
            edition TEXT NOT NULL,
            user_id BIGINT NOT NULL,
            name TEXT NOT NULL,
            mu DOUBLE PRECISION NOT NULL,
            sigma DOUBLE PRECISION NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            last_game_id BIGINT NOT NULL,
            updated_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (guild_id, season, edition, user_id)
        )
        """,
        """
        CREATE TABLE rating_changes (
            game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            edition TEXT NOT NULL,
            user_id BIGINT NOT NULL,
            guild_id BIGINT NOT NULL,
            season INTEGER NOT NULL,
            position INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            rank INTEGER NOT NULL,
            mu_before DOUBLE PRECISION NOT NULL,
            sigma_before DOUBLE PRECISION NOT NULL,
            mu_after DOUBLE PRECISION NOT NULL,
            sigma_after DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, edition, user_id)
        )
        """,
        # A person's history in a guild's season, in the order rated; and everything of theirs (privacy).
        "CREATE INDEX rating_changes_by_user ON rating_changes (user_id, guild_id, season, edition, position)",
        """
        CREATE TABLE titles_bought (
            game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            square INTEGER NOT NULL,
            times INTEGER NOT NULL,
            PRIMARY KEY (game_id, seat, square)
        )
        """,
        "INSERT INTO titles_bought (game_id, seat, square, times) " + _POSTGRES_BOUGHT.format(where=_FINISHED),
        """
        UPDATE games SET edition = initial::jsonb->>'edition'
            WHERE initial IS NOT NULL AND initial::jsonb->>'edition' <> edition
        """,
        """
        CREATE OR REPLACE FUNCTION turista_actions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
            IF NEW.actor IS NULL AND (NEW.game_id, NEW.seq, NEW.action, NEW.events, NEW.time)
                    IS NOT DISTINCT FROM (OLD.game_id, OLD.seq, OLD.action, OLD.events, OLD.time) THEN
                RETURN NEW;
            END IF;
            RAISE EXCEPTION 'the action log is append-only' USING ERRCODE = 'integrity_constraint_violation';
        END
        $$
        """,
    ),
    "0005_registrations": (
        """
        CREATE TABLE registrations (
            application_id BIGINT NOT NULL,
            guild_id BIGINT NOT NULL,
            digest TEXT,
            synced_at DOUBLE PRECISION,
            refused TEXT,
            refused_at DOUBLE PRECISION,
            kept INTEGER,
            PRIMARY KEY (application_id, guild_id)
        )
        """,
    ),
    "0006_requests": (
        """
        CREATE TABLE requests (
            game_id BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
            version INTEGER NOT NULL,
            seat INTEGER NOT NULL,
            user_id BIGINT,
            count INTEGER NOT NULL CHECK (count >= 1),
            agreed TEXT NOT NULL DEFAULT '[]' CHECK (agreed::jsonb IS NOT NULL),
            status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'refused', 'done')),
            created_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (game_id, version)
        )
        """,
    ),
    "0007_leases": (
        """
        CREATE TABLE leases (
            shard_count INTEGER NOT NULL,
            shard INTEGER NOT NULL,
            owner TEXT NOT NULL,
            epoch BIGINT NOT NULL,
            taken_at DOUBLE PRECISION NOT NULL,
            PRIMARY KEY (shard_count, shard)
        )
        """,
    ),
    "0008_correspondence": (
        "ALTER TABLE games ADD COLUMN reminded DOUBLE PRECISION",
        "ALTER TABLE games ADD COLUMN paused_at DOUBLE PRECISION",
        "ALTER TABLE games ADD COLUMN paused_left DOUBLE PRECISION",
        """
        CREATE TABLE notify (
            user_id BIGINT PRIMARY KEY,
            mode TEXT NOT NULL DEFAULT 'channel' CHECK (mode IN ('channel', 'dm', 'none')),
            quiet_from INTEGER CHECK (quiet_from BETWEEN 0 AND 23),
            quiet_to INTEGER CHECK (quiet_to BETWEEN 0 AND 23),
            time_zone TEXT NOT NULL DEFAULT 'UTC',
            dm_day TEXT,
            dm_count INTEGER NOT NULL DEFAULT 0
        )
        """,
    ),
}

MIGRATION_NAMES: list[str] = list(SQLITE)  # in order; a database that recorded any other is from a newer release

migrations = Migrations("turista")


def _register(name: str, statements: tuple[str, ...]) -> None:
    @migrations(name=name)
    def _apply(db: Database) -> None:
        for sql in statements:
            db.execute(sql)


for _name, _statements in SQLITE.items():
    _register(_name, _statements)

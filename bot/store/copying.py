"""Copying games between databases, ids unchanged: backups, splitting a file by shard, merging files, and
moving from SQLite to PostgreSQL (or back).

The source is read in one read transaction (a consistent snapshot even while a bot writes) and the target
written in one write transaction: a copy that fails leaves the target as it was.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bot.store.backend import ID_STRIDE, Backend, Tx
from bot.store.errors import StoreError

COLUMNS: dict[str, tuple[str, ...]] = {
    "games": (
        "id", "guild_id", "channel_id", "host_id", "status", "edition", "settings", "seed", "version", "snapshot",
        "initial", "table_message_id", "deadline", "created_at", "updated_at", "started_at", "finished_at",
        "thread_id", "reminded", "paused_at", "paused_left",
    ),
    "seats": ("game_id", "seat", "user_id", "name", "computer"),
    "actions": ("game_id", "seq", "actor", "action", "events", "time"),
    "messages": ("game_id", "kind", "channel_id", "message_id", "version", "posting", "digest", "board", "updated_at"),
    "results": (
        "game_id", "seat", "user_id", "name", "computer", "rank", "net_worth", "cash", "rent_collected", "titles",
        "titles_value", "buildings_value", "out",
    ),
    "titles_bought": ("game_id", "seat", "square", "times"),
    "requests": ("game_id", "version", "seat", "user_id", "count", "agreed", "status", "created_at"),
    "league_games": ("game_id", "guild_id", "season", "position", "rated_at"),
    "rating_changes": (
        "game_id", "edition", "user_id", "guild_id", "season", "position", "seat", "rank", "mu_before",
        "sigma_before", "mu_after", "sigma_after",
    ),
    # The league's tables of a whole guild, copied with its games.
    "seasons": ("guild_id", "number", "started_at", "started_by", "games"),
    "ratings": (
        "guild_id", "season", "edition", "user_id", "name", "mu", "sigma", "games", "wins", "last_game_id",
        "updated_at",
    ),
}  # fmt: skip
GAME_TABLES = (
    "games", "seats", "actions", "results", "messages", "titles_bought", "league_games", "rating_changes", "requests",
)
GUILD_TABLES = ("seasons", "ratings")


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's rule: which gateway shard receives a guild's events."""
    return (guild_id >> 22) % shard_count


@dataclass
class Copied:
    games: int = 0
    actions: int = 0
    top_id: int = 0  # the largest game id copied


def _insert(tx: Tx, table: str, rows: Sequence[Sequence[object]]) -> None:
    if rows:
        columns = COLUMNS[table]
        tx.executemany(
            f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})", rows
        )


def copy_into(
    source: Backend, target: Backend, guilds: Callable[[int], bool] = lambda guild_id: True, *, replace: bool = False
) -> Copied:
    """Copy every game of `source` whose guild `guilds` accepts into `target`, with its seats, log, results and
    ratings, and those guilds' seasons and ratings. Refuses (`game_ids_taken` or `league_taken`, nothing
    written) if `target` already has a game with one of the ids or a league of one of the guilds; with
    `replace`, every game and league `target` had is deleted first, in the same transaction."""
    copied = Copied()
    with source.read() as src, target.write() as dst:
        if replace:
            dst.execute("DELETE FROM games")  # seats, log, results… go with them (ON DELETE CASCADE)
            for table in GUILD_TABLES:
                dst.execute(f"DELETE FROM {table}")
        wanted = [gid for gid, guild in src.execute("SELECT id, guild_id FROM games ORDER BY id").fetchall()
                  if guilds(guild)]
        taken = {r[0] for r in dst.execute("SELECT id FROM games")} & set(wanted)
        if taken:
            raise StoreError("game_ids_taken", ids=sorted(taken)[:10], location=target.location)
        leagues = [guild for (guild,) in src.execute("SELECT DISTINCT guild_id FROM seasons ORDER BY guild_id")
                   if guilds(guild)]
        held = {r[0] for r in dst.execute("SELECT DISTINCT guild_id FROM seasons")} & set(leagues)
        if held:
            raise StoreError("league_taken", guilds=sorted(held)[:10], location=target.location)
        for guild in leagues:
            for table in GUILD_TABLES:
                rows = src.execute(f"SELECT {', '.join(COLUMNS[table])} FROM {table} WHERE guild_id = ?",
                                   [guild]).fetchall()
                _insert(dst, table, rows)
        # One game at a time: a big database never sits in memory, and a game's log is a few thousand rows.
        for gid in wanted:
            for table in GAME_TABLES:
                key = "id" if table == "games" else "game_id"
                rows = src.execute(f"SELECT {', '.join(COLUMNS[table])} FROM {table} WHERE {key} = ?", [gid]).fetchall()
                _insert(dst, table, rows)
                if table == "actions":
                    copied.actions += len(rows)
            copied.games += 1
            copied.top_id = max(copied.top_id, gid)
    if copied.top_id:
        target.reserve_ids(copied.top_id)
    return copied


def top_id(backends: Sequence[Backend]) -> int:
    top = 0
    for backend in backends:
        with backend.read() as tx:
            top = max(top, tx.execute("SELECT coalesce(max(id), 0) FROM games").fetchone()[0])
    return top


def split(sources: Sequence[Backend], targets: Sequence[Backend]) -> list[Copied]:
    """Every game of every source into the target of its guild's shard (shard count = len(targets)).
    Each target then makes new games in a block of ids of its own, above every id the sources used, so
    the targets can be split or merged again later."""
    first_free_block = top_id(sources) // ID_STRIDE + 1
    totals = []
    for shard, target in enumerate(targets):
        total = Copied()
        for source in sources:
            part = copy_into(source, target, lambda guild_id, shard=shard: shard_of(guild_id, len(targets)) == shard)
            total.games += part.games
            total.actions += part.actions
            total.top_id = max(total.top_id, part.top_id)
        target.reserve_ids((first_free_block + shard) * ID_STRIDE)
        totals.append(total)
    return totals

"""Every game in one database, a SQLite file (sqlite-utils) or PostgreSQL: lobby, seats, the append-only
action log, the latest snapshot and the results. No discord here, so engine-side tools can use it too. See
docs/storage.md."""

from bot.store.errors import ChannelBusy, NoSuchGame, StaleVersion, StoreError
from bot.store.rows import (
    MESSAGE_KINDS,
    Activity,
    GameRow,
    HistoryRow,
    LeaderRow,
    LogRow,
    MessageRow,
    ResultRow,
    SeatRow,
    engine_settings,
)
from bot.store.store import KEEP, Store, default_path, default_synchronous

__all__ = [
    "KEEP",
    "Activity",
    "ChannelBusy",
    "GameRow",
    "HistoryRow",
    "LeaderRow",
    "LogRow",
    "MESSAGE_KINDS",
    "MessageRow",
    "NoSuchGame",
    "ResultRow",
    "SeatRow",
    "StaleVersion",
    "Store",
    "StoreError",
    "default_path",
    "default_synchronous",
    "engine_settings",
]

"""Pictures for the tables (boards, deeds, end-of-game summaries) and the league (replays, profile cards), drawn by
`render` in worker processes and handed back as bytes (`bot.pictures.pool`); the face attaches them to its
messages."""

from bot.pictures.pool import (
    Pictures,
    board,
    board_if_changed,
    busy,
    deed,
    profile,
    ready,
    replay,
    shutdown,
    start,
    summary,
    warm_up,
)

__all__ = ["Pictures", "board", "board_if_changed", "busy", "deed", "profile", "ready", "replay", "shutdown", "start",
           "summary", "warm_up"]

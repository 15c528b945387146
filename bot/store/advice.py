"""What an administrator reads when the database cannot be used: what is wrong and what to do, in one line."""

from __future__ import annotations

import os

from bot.store.errors import StoreError

_ADVICE = {
    "db_readonly": "the database is read-only. Give the bot's user write access to the file and to its folder "
                   "(SQLite writes journal files beside it), then start the bot again.",
    "db_corrupt": "the database file is damaged. Restore the latest backup (python -m bot.store backup makes "
                  "them), or move the file away to start with an empty database; python -m bot.store verify "
                  "tells what is damaged.",
    "db_too_new": "the database was written by a newer release of Turista (it knows migrations {migrations}). "
                  "Upgrade the bot, or set TURISTA_DB to another file.",
    "db_unavailable": "the database cannot be opened. Check that its folder exists and that the bot's user may "
                      "write in it, or set TURISTA_DB to a path that does.",
    "db_locked": "another process holds the database's write lock (is a second bot running on the same file?). "
                 "Stop it or wait for it, then start the bot again.",
    "db_full": "the disk that holds the database is full. Free some space, then start the bot again.",
    "db_io": "the disk reported an input/output error. Check the disk (and restore a backup if the file is "
             "damaged), then start the bot again.",
}

_SERVER_ADVICE = {
    "db_unavailable": "the database server cannot be reached. Check the URL in TURISTA_DB, that the server runs "
                      "and accepts this user's password, then start the bot again.",
    "db_readonly": "the database server refuses writes. Give the bot's user write access to the database (or "
                   "point TURISTA_DB at the primary server), then start the bot again.",
}


def advice(error: StoreError, path: str | os.PathLike[str]) -> str:
    """One line for the console: the file, what is wrong, what to do, and SQLite's own words."""
    params = dict(error.params)
    migrations = ", ".join(str(m) for m in params.get("migrations", []) or [])
    server = "://" in os.fspath(path)
    text = _SERVER_ADVICE.get(error.code) if server else None
    text = text or _ADVICE.get(error.code)
    if text is None:
        text = f"the database could not be used ({error.code})."
    line = f"{os.fspath(path)}: {text.format(migrations=migrations)}"
    detail = params.get("detail")
    return f"{line} [{detail}]" if detail else line

"""What an administrator reads when the database cannot be used: which file is at fault, what is wrong and what to
do, in one line."""

from __future__ import annotations

import os

from bot.store.errors import StoreError

_ADVICE = {
    "db_readonly": "the database is read-only. Give the bot's user write access to the file and to its folder "
                   "(SQLite writes journal files beside it), then start the bot again.",
    "db_corrupt": "the database file is damaged. Restore the latest backup (turista store restore; turista store "
                  "backup makes them), or move the file away to start with an empty database; turista store "
                  "verify tells what is damaged.",
    "db_too_new": "the database was written by a newer release of Turista (it knows migrations {migrations}). "
                  "Upgrade the bot, or set TURISTA_DB to another file.",
    "db_unavailable": "the database cannot be opened. Check that its folder exists and that the bot's user may "
                      "write in it, or set TURISTA_DB to a path that does.",
    "db_locked": "another process holds the database's write lock (is a second bot running on the same file?). "
                 "Stop it or wait for it, then start the bot again.",
    "db_full": "the disk that holds the database is full. Free some space, then start the bot again.",
    "db_io": "the disk reported an input/output error. Check the disk (and restore a backup if the file is "
             "damaged), then start the bot again.",
    "db_not_empty": "this database already holds games, and a copy goes only into an empty one. Give a new file "
                    "or an empty database.",
    "game_ids_taken": "this database already has games with the same ids ({ids}): nothing was copied. Copy into "
                      "a new file, or merge the files of one bot's shards only.",
}

_SERVER_ADVICE = {
    "db_unavailable": "the database server cannot be reached. Check the URL in TURISTA_DB, that the server runs "
                      "and accepts this user's password, then start the bot again.",
    "db_readonly": "the database server refuses writes. Give the bot's user write access to the database (or "
                   "point TURISTA_DB at the primary server), then start the bot again.",
}

# The file given to `restore`: the live database is as it was, the backup is what to change.
_BACKUP_ADVICE = {
    "db_corrupt": "this backup is damaged, or not a database at all. Nothing was restored ({live} is as it was): "
                  "restore another backup (turista store backup makes them).",
    "db_not_turista": "this file is a database, but not one of Turista's. Nothing was restored ({live} is as it "
                      "was): give a file that turista store backup made.",
    "db_too_new": "this backup was written by a newer release of Turista (it knows migrations {migrations}). "
                  "Nothing was restored ({live} is as it was): upgrade Turista first.",
    "db_unavailable": "there is no backup there, or it cannot be read. Nothing was restored ({live} is as it "
                      "was): check the path and that you may read the file.",
    "db_io": "the disk reported an input/output error while reading this backup. Nothing was restored ({live} "
             "is as it was): copy the backup from elsewhere, or restore another one.",
}

# Where `backup` was asked to write.
_DEST_ADVICE = {
    "db_unavailable": "the backup cannot be written there. Check that the folder exists (mkdir -p it) and that "
                      "you may write in it, or give another path; nothing was copied.",
    "db_readonly": "the backup cannot be written there: the place is read-only. Give another path; nothing was "
                   "copied.",
    "db_full": "the disk the backup goes to is full. Free some space or give another path; nothing was copied.",
}

_SERVER_DEST_ADVICE = {
    "db_unavailable": "the database server to copy into cannot be reached. Check the URL, that the server runs "
                      "and accepts this user's password; nothing was copied.",
}


def advice(error: StoreError, path: str | os.PathLike[str]) -> str:
    """One line for the console: the file at fault, what is wrong, what to do, and SQLite's own words.

    `path` is the live database; a backup that cannot be restored (`BadBackup`) or a place a backup cannot
    be written to (`BadDestination`) names itself instead."""
    params = dict(error.params)
    live = os.fspath(path)
    at_fault = str(params.get("backup") or params.get("dest") or params.get("location") or live)
    server = "://" in at_fault
    if "backup" in params:
        tables = [_BACKUP_ADVICE]
    elif "dest" in params:
        tables = [_SERVER_DEST_ADVICE, _DEST_ADVICE] if server else [_DEST_ADVICE]
    else:
        tables = [_SERVER_ADVICE, _ADVICE] if server else [_ADVICE]
    text = next((table[error.code] for table in tables if error.code in table), None)
    if text is None:
        text = f"the database could not be used ({error.code})."
    migrations = ", ".join(str(m) for m in params.get("migrations", []) or [])
    ids = ", ".join(str(i) for i in params.get("ids", []) or [])
    line = f"{at_fault}: {text.format(migrations=migrations, ids=ids, live=live)}"
    detail = params.get("detail")
    return f"{line} [{detail}]" if detail else line

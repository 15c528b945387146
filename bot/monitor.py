"""`turista status`: how many games are open and how long ago the last one changed, for monitoring; how many
of the bot's requests Discord refused (4xx) and throttled (429), as the running bot counts them
(`bot.requests`); and the slash commands' registration when Discord refused the last one (the bot then runs
with the commands Discord had, or, with none, has stopped).

The running bot logs the games' line every `TURISTA_STATUS_MINUTES` minutes (`turista.status` logger).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bot import requests
from bot.config import default_cache, load_env_file
from bot.registration import REFUSED_EXIT
from bot.store import Activity, RegistrationRow, Store, StoreError, default_path
from bot.store.backend import is_url, shown
from bot.store.rows import LeaseRow


def age(seconds: float) -> str:
    """A duration as a person reads it at a glance: 42 s, 7 min, 5 h, 3 days."""
    seconds = max(0.0, seconds)
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 2 * 3600:
        return f"{seconds / 60:.0f} min"
    if seconds < 2 * 86400:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86400:.0f} days"


def status_line(activity: Activity, now: float) -> str:
    games = activity.lobbies + activity.playing
    opened = (f"{games} open game{'s' if games != 1 else ''} ({activity.playing} playing, "
              f"{activity.lobbies} in the lobby)")
    if activity.last_action is None:
        return f"{opened}; no action yet"
    return f"{opened}; last action {age(now - activity.last_action)} ago"


def registration_line(row: RegistrationRow, now: float) -> str:
    """The slash commands as last registered: when Discord accepted them, or what it refused and what runs."""
    where = f"in guild {row.guild_id}" if row.guild_id else "global"
    if row.refused is None:
        synced = f"accepted {age(now - row.synced_at)} ago" if row.synced_at is not None else "never accepted"
        return f"commands ({where}): {synced}"
    when = age(now - row.refused_at) if row.refused_at is not None else "?"
    if row.kept:
        outcome = f"the bot runs with the {row.kept} commands Discord already had"
    else:
        outcome = f"Discord has no command of the bot, so it stopped (exit status {REFUSED_EXIT})"
    return f"commands ({where}): REFUSED {when} ago, {outcome}. {row.refused}"


def lease_line(lease: LeaseRow, now: float) -> str:
    """Which process holds a shard's lease (the one whose writes of its games the database takes)."""
    return (f"shard {lease.shard} of {lease.shard_count}: held by {lease.owner}, epoch {lease.epoch}, "
            f"taken {age(now - lease.taken_at)} ago")


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="How many games are open, and the last action's age.")
    parser.add_argument("--db", default=None,
                        help="a SQLite file or a postgresql:// URL (default: $TURISTA_DB or turista.db)")
    parser.add_argument("--cache", default=None,
                        help="the bot's cache folder, where it writes Discord's answer counts "
                             "(default: $TURISTA_CACHE, else the bot's default)")
    parser.add_argument("--json", action="store_true", help="one JSON object, for monitoring scripts")
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "python -m bot.monitor") -> int:
    args = _parser(prog).parse_args(argv)
    load_env_file()
    path = args.db or default_path()
    shown_as = shown(path)  # a URL without its password
    if not is_url(path) and not Path(path).is_file():
        print(f"no database at {path}", file=sys.stderr)
        return 2
    try:
        with Store(path, create=False) as store:
            activity = store.activity()
            registrations = store.registrations()
            leases = store.leases()
    except StoreError as exc:
        print(f"{shown_as}: {exc.code} {exc.params}", file=sys.stderr)
        return 2
    now = time.time()
    cache = args.cache or os.environ.get("TURISTA_CACHE", "").strip() or default_cache()
    counts = requests.read(cache)
    if args.json:
        last = activity.last_action
        commands = [{"application_id": str(r.application_id), "guild_id": str(r.guild_id) if r.guild_id else None,
                     "synced_at": r.synced_at, "refused": r.refused, "refused_at": r.refused_at, "kept": r.kept}
                    for r in registrations]
        print(json.dumps({"database": shown_as, "lobbies": activity.lobbies, "playing": activity.playing,
                          "last_action": last, "last_action_age": None if last is None else round(now - last, 1),
                          "commands": commands, "discord": counts,
                          "leases": [{"shard_count": lease.shard_count, "shard": lease.shard, "owner": lease.owner,
                                      "epoch": lease.epoch, "taken_at": lease.taken_at} for lease in leases]}))
    else:
        print(f"{shown_as}: {status_line(activity, now)}")
        for row in registrations:
            print(registration_line(row, now))
        for lease in leases:
            print(lease_line(lease, now))
        for count in counts:
            print(f"  {requests.line(count)} (counted {age(now - count['written'])} ago)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

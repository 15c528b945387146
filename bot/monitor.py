"""`turista status`: how many games are open and how long ago the last one changed, for monitoring; and how many
of the bot's requests Discord refused (4xx) and throttled (429), as the running bot counts them (`bot.requests`).

The running bot logs the same line every `TURISTA_STATUS_MINUTES` minutes (`turista.status` logger).
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
from bot.store import Activity, Store, StoreError, default_path
from bot.store.backend import is_url, shown


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
    except StoreError as exc:
        print(f"{shown_as}: {exc.code} {exc.params}", file=sys.stderr)
        return 2
    now = time.time()
    cache = args.cache or os.environ.get("TURISTA_CACHE", "").strip() or default_cache()
    counts = requests.read(cache)
    if args.json:
        last = activity.last_action
        print(json.dumps({"database": shown_as, "lobbies": activity.lobbies, "playing": activity.playing,
                          "last_action": last, "last_action_age": None if last is None else round(now - last, 1),
                          "discord": counts}))
    else:
        print(f"{shown_as}: {status_line(activity, now)}")
        for count in counts:
            print(f"  {requests.line(count)} (counted {age(now - count['written'])} ago)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

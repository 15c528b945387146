"""Maintenance commands: `turista store verify|export|backup|restore|migrate [--db PATH]` (or
`python -m bot.store …`)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from bot.store.errors import StoreError
from bot.store.replay import export, verify
from bot.store.store import Store, default_path


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Turista's game database.")
    parser.add_argument("--db", default=None, help="database file (default: $TURISTA_DB or turista.db)")
    commands = parser.add_subparsers(dest="command", required=True)
    check = commands.add_parser("verify", help="replay every game's log and compare it with the stored snapshot")
    check.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    check.add_argument("game_ids", nargs="*", type=int, metavar="GAME_ID", help="only these games")
    dump = commands.add_parser("export", help="print a game's log as JSON lines")
    dump.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    dump.add_argument("game_id", type=int, metavar="GAME_ID")
    copy = commands.add_parser("backup", help="copy the live database, consistently, to DEST")
    copy.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    copy.add_argument("dest", metavar="DEST")
    back = commands.add_parser(
        "restore", help="replace every game with those of BACKUP (stop the bot first); the database as it was "
        "is kept beside it, as DB.before-restore")
    back.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    back.add_argument("backup", metavar="BACKUP")
    upgrade = commands.add_parser("migrate", help="create the database or bring its schema up to date")
    upgrade.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
    return parser


def _verify(store: Store, game_ids: list[int]) -> int:
    integrity = store.integrity()
    sound = integrity == ["ok"]
    print(f"file {store.path}: {'sound' if sound else 'DAMAGED: ' + '; '.join(integrity[:5])}")
    total = bad = 0
    for verdict in verify(store, game_ids or None):
        total += 1
        bad += not verdict.ok
        print(verdict.line(), flush=True)
    print(f"{total} games verified: {total - bad} ok, {bad} mismatched")
    return 0 if sound and not bad else 1


def _restore(path: str, backup: str) -> int:
    if not Path(backup).is_file():
        print(f"no backup at {backup}", file=sys.stderr)
        return 2
    with Store(path) as store:
        keep = Path(f"{store.path}.before-restore")
        if store.game_ids():
            store.backup(keep)
        store.restore(backup)
        games = len(store.game_ids())
        print(f"{store.path} restored from {backup}: {games} games, schema {', '.join(store.schema_version())}")
        if keep.exists():
            print(f"the database as it was before is in {keep}")
    return 0


def main(argv: Sequence[str] | None = None, prog: str = "python -m bot.store") -> int:
    args = _parser(prog).parse_args(argv)
    path = args.db or default_path()
    try:
        if args.command == "restore":
            return _restore(path, args.backup)
        if args.command == "migrate":
            with Store(path) as store:
                print(f"{store.path}: schema {', '.join(store.schema_version())}")
            return 0
        if not Path(path).is_file():
            print(f"no database at {path}", file=sys.stderr)
            return 2
        with Store(path, create=False) as store:
            if args.command == "verify":
                return _verify(store, args.game_ids)
            if args.command == "backup":
                store.backup(args.dest)
                print(f"{store.path} -> {args.dest}")
                return 0
            export(store, args.game_id, sys.stdout)
            return 0
    except StoreError as exc:
        print(f"{path}: {exc.code} {exc.params}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

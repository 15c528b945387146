"""Maintenance commands: `turista store verify|export|backup|restore|migrate|split|merge|rerate [--db DB]` (or
`python -m bot.store …`). DB is a SQLite file or a postgresql:// URL."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path

from bot.config import load_env_file
from bot.store.advice import advice
from bot.store.backend import is_url, shown
from bot.store.copying import copy_into, split
from bot.store.errors import NoSuchGame, StoreError
from bot.store.replay import export, verify
from bot.store.store import Store, default_path, open_backup

DB_HELP = "database: a SQLite file or a postgresql:// URL (default: $TURISTA_DB or turista.db)"
# Where `restore` keeps what a PostgreSQL database held before (a SQLite file keeps it beside itself).
BEFORE_RESTORE = "turista-before-restore.db"


def _parser(prog: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog=prog, description="Turista's game database.")
    parser.add_argument("--db", default=None, help=DB_HELP)
    commands = parser.add_subparsers(dest="command", required=True)

    def command(name: str, text: str) -> argparse.ArgumentParser:
        sub = commands.add_parser(name, help=text, description=text)
        sub.add_argument("--db", default=argparse.SUPPRESS, help=argparse.SUPPRESS)
        return sub

    check = command("verify", "replay every game's log and compare it with the stored snapshot")
    check.add_argument("game_ids", nargs="*", type=int, metavar="GAME_ID", help="only these games")
    dump = command("export", "print a game's log as JSON lines")
    dump.add_argument("game_id", type=int, metavar="GAME_ID")
    copy = command("backup", "copy the live database, consistently, to DEST (a SQLite file, or an empty "
                             "postgresql:// database); a folder (ending in /) gets a new "
                             "turista-YYYYMMDD-HHMMSS.db each time")
    copy.add_argument("dest", metavar="DEST")
    copy.add_argument("--keep", type=int, default=0, metavar="N",
                      help="with a folder: keep only the newest N backups in it")
    back = command("restore", "replace every game with those of BACKUP (stop the bot first); the database as it "
                              f"was is kept beside it, as DB.before-restore (PostgreSQL: {BEFORE_RESTORE})")
    back.add_argument("backup", metavar="BACKUP")
    command("migrate", "create the database or bring its schema up to date")
    cut = command("split", "share the games of SOURCE databases out among new ones, one per shard, by guild: "
                           "the files of a new shard count (stop the bots first)")
    cut.add_argument("sources", nargs="+", metavar="SOURCE", help="SQLite files or postgresql:// URLs")
    cut.add_argument("--shards", type=int, required=True, help="the new shard count")
    cut.add_argument("--out", default="turista-{shard}.db",
                     help="where shard N's games go: a pattern with {shard} (default: turista-{shard}.db)")
    join = command("merge", "copy every game of SOURCE databases into DEST (a SQLite file or a postgresql:// URL): "
                            "files of several shards into one, or SQLite into PostgreSQL (stop the bots first)")
    join.add_argument("sources", nargs="+", metavar="SOURCE")
    join.add_argument("--into", required=True, metavar="DEST")
    again = command("rerate", "recompute every rating of a server (or of all) from its games, in the order they "
                              "were rated; games finished before there were ratings are rated too")
    again.add_argument("--guild", type=int, default=None, metavar="G", help="only this server (its id)")
    return parser


def counted(n: int, one: str, many: str | None = None) -> str:
    """"1 game", "2 games": a count with its noun, as the command line prints it (English only)."""
    return f"{n} {one if n == 1 else many or one + 's'}"


def _verify(store: Store, game_ids: list[int]) -> int:
    integrity = store.integrity()
    sound = integrity == ["ok"]
    print(f"database {store.location}: {'sound' if sound else 'DAMAGED: ' + '; '.join(integrity[:5])}")
    total = bad = 0
    for verdict in verify(store, game_ids or None):
        total += 1
        bad += not verdict.ok
        print(verdict.line(), flush=True)
    print(f"{counted(total, 'game')} verified: {total - bad} ok, {bad} mismatched")
    return 0 if sound and not bad else 1


def _existing(target: str) -> Store:
    """An existing database; a SQLite file that is not there is an error, never a new empty file."""
    if not is_url(target) and not Path(target).is_file():
        raise FileNotFoundError(target)
    return Store(target, create=False)


@contextmanager
def _empty(target: str) -> Iterator[Store]:
    """A database to copy into: created if new, refused if it already holds games."""
    with Store(target) as store:
        if store.game_ids():
            raise StoreError("db_not_empty", location=store.location)
        yield store


BACKUP_GLOB = "turista-*.db"


def _backup(store: Store, dest: str, keep: int) -> int:
    """A copy to DEST, or a new dated file in the folder DEST, keeping the newest `keep` there."""
    folder = None
    if not is_url(dest) and (dest.endswith(("/", os.sep)) or Path(dest).is_dir()):
        folder = Path(dest)
    if keep and folder is None:
        print("--keep needs a folder as DEST (end it with /)", file=sys.stderr)
        return 2
    if folder is None and not is_url(dest) and not Path(dest).parent.is_dir():
        print(f"{dest}: there is no folder {Path(dest).parent} to put the backup in. Create it (mkdir -p), or "
              "give a folder ending in / to have it made; nothing was copied.", file=sys.stderr)
        return 2
    if folder is not None:
        folder.mkdir(parents=True, exist_ok=True)
        dest = str(folder / time.strftime("turista-%Y%m%d-%H%M%S.db", time.gmtime()))
    store.backup(dest)
    print(f"{store.location} -> {shown(dest)}")
    if folder is not None and keep > 0:
        for old in sorted(folder.glob(BACKUP_GLOB))[:-keep]:
            old.unlink()
            print(f"removed the older backup {old}")
    return 0


def _restore(target: str, backup: str) -> int:
    open_backup(backup).close()  # a bad backup is refused before the live database is even opened
    with Store(target) as store:
        keep = Path(BEFORE_RESTORE if store.path is None else f"{store.path}.before-restore")
        if store.game_ids():
            store.backup(keep)
        store.restore(backup)
        games = len(store.game_ids())
        print(f"{store.location} restored from {backup}: {counted(games, 'game')},"
              f" schema {', '.join(store.schema_version())}")
        if keep.exists():
            print(f"the database as it was before is in {keep}")
    return 0


def _split(sources: list[str], shards: int, pattern: str) -> int:
    if shards < 1 or "{shard}" not in pattern:
        print("--shards must be 1 or more and --out must contain {shard}", file=sys.stderr)
        return 2
    with ExitStack() as stack:
        inputs = [stack.enter_context(_existing(s)) for s in sources]
        outputs = [stack.enter_context(_empty(pattern.format(shard=k))) for k in range(shards)]
        copies = split([i.backend for i in inputs], [o.backend for o in outputs])
        for shard, (out, copied) in enumerate(zip(outputs, copies, strict=True)):
            print(f"shard {shard}: {counted(copied.games, 'game')}, {counted(copied.actions, 'log row')}"
                  f" -> {out.location}")
    return 0


def _merge(sources: list[str], dest: str) -> int:
    with Store(dest) as target:
        for source in sources:
            with _existing(source) as store:
                copied = copy_into(store.backend, target.backend)
            print(f"{store.location}: {counted(copied.games, 'game')}, {counted(copied.actions, 'log row')}"
                  f" -> {target.location}")
    return 0


def _rerate(store: Store, guild: int | None) -> int:
    done = store.rerate(guild)
    for guild_done in done:
        print(f"guild {guild_done.guild_id}: {counted(guild_done.games, 'game')} rated, "
              f"{counted(guild_done.people, 'person', 'people')}")
    if not done:
        print("no game has ended yet: nothing to rate")
    return 0


def main(argv: Sequence[str] | None = None, prog: str = "python -m bot.store") -> int:
    args = _parser(prog).parse_args(argv)
    load_env_file()
    target = args.db or default_path()
    try:
        if args.command == "restore":
            return _restore(target, args.backup)
        if args.command == "migrate":
            with Store(target) as store:
                print(f"{store.location}: schema {', '.join(store.schema_version())}")
            return 0
        if args.command == "split":
            return _split(args.sources, args.shards, args.out)
        if args.command == "merge":
            return _merge(args.sources, args.into)
        with _existing(target) as store:
            try:
                if args.command == "verify":
                    return _verify(store, args.game_ids)
                if args.command == "backup":
                    return _backup(store, args.dest, args.keep)
                if args.command == "rerate":
                    return _rerate(store, args.guild)
                export(store, args.game_id, sys.stdout)
                sys.stdout.flush()
                return 0
            except NoSuchGame as missing:
                print(_no_such_game(store, missing.game_id), file=sys.stderr)
                return 2
    except FileNotFoundError as missing:
        print(f"no database at {missing}: give the bot's with --db, or set TURISTA_DB (in .env too)", file=sys.stderr)
        return 2
    except StoreError as exc:
        print(advice(exc, shown(target)), file=sys.stderr)
        return 2
    except BrokenPipeError:
        # The reader went away (`turista store export 1 | head`): one line says the output is cut short.
        _quiet_stdout()
        print(f"{prog} {args.command}: the output was closed before the end (the reader stopped reading)",
              file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"{exc.filename or shown(target)}: {exc.strerror or exc}", file=sys.stderr)
        return 2


def _no_such_game(store: Store, game_id: int) -> str:
    ids = store.game_ids()
    if not ids:
        return (f"{store.location}: no game {game_id}: this database has no games at all (is it the bot's? "
                "give it with --db, or set TURISTA_DB)")
    listed = ", ".join(map(str, ids[:10])) + (f" … {ids[-1]} ({len(ids)} games)" if len(ids) > 10 else "")
    return f"{store.location}: no game {game_id}; its games are {listed}"


def _quiet_stdout() -> None:
    """Point stdout at /dev/null, so that Python's own flush at exit does not fail on the closed pipe again
    (the way the Python documentation's note on SIGPIPE does it)."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


if __name__ == "__main__":
    sys.exit(main())

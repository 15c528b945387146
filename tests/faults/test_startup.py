"""`python -m bot` on a database it cannot use: one line saying what is wrong and what to do, exit 1, no
traceback, and the file left as it was."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from bot.store import Store

ROOT = Path(__file__).resolve().parents[2]


def run_bot(db: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TURISTA_", "DISCORD_"))}
    env.update({"PYTHONPATH": str(ROOT), "DISCORD_TOKEN": "fake-token", "TURISTA_DB": str(db)})
    return subprocess.run([sys.executable, "-m", "bot"], capture_output=True, text=True, env=env, cwd=ROOT,
                          timeout=60, stdin=subprocess.DEVNULL)


def a_database(path: Path, games: int = 40) -> Path:
    with Store(path) as store:
        for channel in range(games):
            gid = store.create_game(1, channel, 7, "turismundo", {}, 1)
            store.add_seat(gid, 7, "Ana")
    checkpoint(path)
    return path


def checkpoint(path: Path) -> None:
    """Fold the WAL into the file, so that the file alone holds (and damaging it damages) everything."""
    with sqlite3.connect(path) as conn:
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


def not_a_database(path: Path) -> None:
    path.write_bytes(b"these are not the bytes of a database " * 200)


def damaged_pages(path: Path) -> None:
    a_database(path)
    data = bytearray(path.read_bytes())
    data[4096:12288] = bytes(range(256)) * 32  # the pages after the first: schema and tables
    path.write_bytes(bytes(data))


def newer_schema(path: Path) -> None:
    a_database(path)
    with sqlite3.connect(path) as conn:
        conn.execute("INSERT INTO _sqlite_migrations (migration_set, name, applied_at)"
                     " VALUES ('turista', '0999_from_the_future', '2030-01-01')")
    checkpoint(path)


CASES: dict[str, tuple[Callable[[Path], object], str]] = {
    "not a database": (not_a_database, "damaged"),
    "damaged pages": (damaged_pages, "damaged"),
    "newer schema": (newer_schema, "newer release"),
}


def assert_refused(result: subprocess.CompletedProcess[str], db: Path, words: str) -> None:
    assert result.returncode == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout, result.stderr
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert str(db) in lines[0] and words in lines[0], lines[0]


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_database_stops_the_bot_with_one_line(tmp_path: Path, case: str) -> None:
    make, words = CASES[case]
    db = tmp_path / "turista.db"
    make(db)
    before = db.read_bytes()
    assert_refused(run_bot(db), db, words)
    assert db.read_bytes() == before, "the bot changed a file it refused"


@contextmanager
def immutable(path: Path) -> Iterator[None]:
    """The file may not be written, even by root (who ignores permission bits)."""
    chattr = shutil.which("chattr")
    if chattr is None or subprocess.run([chattr, "+i", str(path)], capture_output=True).returncode != 0:
        pytest.skip("chattr +i is not available here")
    try:
        yield
    finally:
        subprocess.run([chattr, "-i", str(path)], check=True)


def test_a_read_only_database_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    db = a_database(tmp_path / "turista.db")
    with immutable(db):
        assert_refused(run_bot(db), db, "read-only")


def test_a_database_that_cannot_be_created_stops_the_bot_with_one_line(tmp_path: Path) -> None:
    db = tmp_path / "no such folder" / "turista.db"
    assert_refused(run_bot(db), db, "cannot be opened")

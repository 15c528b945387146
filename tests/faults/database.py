"""Database faults for tests: SQLite's write lock held by another process, and a disk that fills up.

    with write_lock(db_path):          # another process holds BEGIN IMMEDIATE until the block ends
        ...
    with small_disk(tmp_path) as disk:   # a tiny tmpfs: put the database in disk.path
        disk.fill()                      # writes that need new space fail with SQLITE_FULL
        disk.free()
"""

from __future__ import annotations

import contextlib
import errno
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

_HOLDER = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], timeout=60, isolation_level=None)
conn.execute("BEGIN IMMEDIATE")
print("locked", flush=True)
sys.stdin.read()  # until the test closes our stdin (or dies)
conn.execute("ROLLBACK")
"""


@contextlib.contextmanager
def write_lock(db_path: Path) -> Iterator[None]:
    """Another process takes SQLite's write lock on `db_path` (waiting for a writer in progress) and holds
    it until the block ends: every write of the bot waits its busy timeout and fails with db_locked;
    reads go on (WAL)."""
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(db_path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None and holder.stdin is not None
    try:
        line = holder.stdout.readline()
        assert line == "locked\n", f"the lock holder did not get the lock: {line!r}"
        yield
    finally:
        holder.stdin.close()
        if holder.wait(timeout=10) != 0:
            raise AssertionError("the lock holder failed")


class SmallDisk:
    """A mounted tmpfs of a few MiB that a test fills up and frees again."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.filler = path / "filler"

    def fill(self) -> None:
        """Take every free byte: from now on, whatever needs new space on this disk fails (ENOSPC)."""
        chunk = b"\0" * 65536
        fd = os.open(self.filler, os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            for size in (65536, 4096, 512, 1):
                while True:
                    try:
                        os.write(fd, chunk[:size])
                    except OSError as error:
                        if error.errno != errno.ENOSPC:
                            raise
                        break
        finally:
            os.close(fd)

    def free(self) -> None:
        """Give the space back."""
        self.filler.unlink(missing_ok=True)


@contextlib.contextmanager
def small_disk(base: Path, size: str = "8m") -> Iterator[SmallDisk]:
    """A tmpfs of `size` mounted under `base` for the block (skipped where mounting is not allowed)."""
    mount = base / "small-disk"
    mount.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(mount)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a small tmpfs here: {done.stderr.strip()}")
    try:
        yield SmallDisk(mount)
    finally:
        # Lazy: a bot process still holding files open must not keep the mount alive after the test.
        subprocess.run(["umount", "-l", str(mount)], check=False)
        with contextlib.suppress(OSError):
            os.rmdir(mount)

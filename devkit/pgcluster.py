"""A throwaway PostgreSQL server in a temporary folder, on a free loopback port: for the tests, the
benchmarks and for trying the bot on PostgreSQL without installing a service.

    with ThrowawayCluster() as cluster:
        url = cluster.new_schema()    # postgresql://…?options=-csearch_path%3Dt1: an empty schema of its own

It runs the server binaries of the machine (`initdb`, `pg_ctl`: Debian's `postgresql` package, or any on
PATH or under /usr/lib/postgresql). PostgreSQL refuses to run as root, so as root it runs them as the
`postgres` system user the package creates. Durability is off (fsync, synchronous_commit): it is thrown
away at the end anyway (unless asked for: the benchmarks measure a durable server).
"""

from __future__ import annotations

import itertools
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from glob import glob
from pathlib import Path
from types import TracebackType

SERVER_USER = "postgres"  # the system account Debian's package creates
DB_USER = "turista"
DB_NAME = "turista"


class ClusterUnavailable(RuntimeError):
    """No PostgreSQL server binaries here, or they cannot be run."""


def server_bindir() -> Path:
    """The folder with initdb and pg_ctl: from PATH, else the newest /usr/lib/postgresql/N/bin."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    versions = sorted(glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[-3]))
    if not versions:
        raise ClusterUnavailable(
            "no PostgreSQL server found (initdb, pg_ctl): install Debian's `postgresql` package"
        )
    return Path(versions[-1]).parent


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class ThrowawayCluster:
    def __init__(self, *, durable: bool = False) -> None:
        """`durable`: fsync and synchronous commits on, as a real server runs (the benchmarks)."""
        self.durable = durable
        self.bindir = server_bindir()
        self.folder = Path(tempfile.mkdtemp(prefix="turista-pg-"))
        self.data = self.folder / "data"
        self.port = 0
        self._schemas = itertools.count(1)
        self._user: str | None = None
        self._options = ""
        if os.geteuid() == 0:
            try:
                pwd.getpwnam(SERVER_USER)
            except KeyError:
                refusal = f"PostgreSQL will not run as root and there is no {SERVER_USER!r} user"
                raise ClusterUnavailable(refusal) from None
            self._user = SERVER_USER
            shutil.chown(self.folder, SERVER_USER)
        self.running = False

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [str(self.bindir / args[0]), *args[1:]], user=self._user, capture_output=True, text=True, check=False
        )
        if done.returncode != 0:
            raise ClusterUnavailable(f"{args[0]} failed ({done.returncode}): {done.stderr.strip() or done.stdout}")

    def start(self) -> ThrowawayCluster:
        self._run("initdb", "-D", str(self.data), "-A", "trust", "-U", DB_USER, "-E", "UTF8", "--no-sync",
                  "--locale=C", "--no-instructions")
        self.port = _free_port()
        options = [f"-p {self.port}", "-c listen_addresses=127.0.0.1", f"-k {self.folder}", "-c max_connections=200"]
        if not self.durable:
            options += ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"]
        self._options = " ".join(options)
        self._start_server()
        self._psql(f"CREATE DATABASE {DB_NAME}")
        return self

    def _start_server(self) -> None:
        log = str(self.folder / "server.log")
        self._run("pg_ctl", "-D", str(self.data), "-o", self._options, "-l", log, "-w", "start")
        self.running = True

    def halt(self) -> None:
        """Stop the server as an admin's restart does (`pg_ctl stop -m fast`: every connection is ended, nothing
        committed is lost), keeping its data for `resume`."""
        self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.running = False

    def resume(self) -> None:
        """Start the halted server again, on the same port with the same data."""
        self._start_server()

    def _psql(self, sql: str, database: str = "postgres") -> None:
        import psycopg

        with psycopg.connect(self.url(database), autocommit=True) as conn:
            conn.execute(sql)  # type: ignore[arg-type]

    def url(self, database: str = DB_NAME) -> str:
        return f"postgresql://{DB_USER}@127.0.0.1:{self.port}/{database}"

    def new_schema(self) -> str:
        """The URL of a new, empty schema: a database of its own for one test, without CREATE DATABASE's cost."""
        name = f"t{next(self._schemas)}"
        self._psql(f"CREATE SCHEMA {name}", DB_NAME)
        return f"{self.url()}?options=-csearch_path%3D{name}"

    def stop(self) -> None:
        if self.running:
            self.running = False
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.folder, ignore_errors=True)

    def __enter__(self) -> ThrowawayCluster:
        try:
            return self.start()
        except BaseException:
            self.stop()
            raise

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None:
        self.stop()

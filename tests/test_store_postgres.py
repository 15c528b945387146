"""What only PostgreSQL has: a URL in TURISTA_DB, a server that is away or restarts, row locks, SQLSTATEs."""

from __future__ import annotations

import inspect
import random
import socket
import time

import psycopg
import pytest

import engine
from bot.store import Store, StoreError
from bot.store.backend import shown
from bot.store.errors import Conflict, translate_pg
from bot.store.replay import verify_game
from devkit.synthetic import chosen_move

DEFAULT_TIMEOUT = inspect.signature(Store).parameters["timeout"].default


def _started(store: Store, channel: int = 10) -> tuple[int, engine.State]:
    gid = store.create_game(1, channel, 100, "turismundo", {}, 5)
    for i in range(2):
        store.add_seat(gid, 100 + i, f"P{i}")
    state, events = engine.new_game("turismundo", ["P0", "P1"], 5)
    store.start_game(gid, state, events)
    return gid, state



def test_a_url_in_turista_db_selects_postgresql(pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURISTA_DB", pg_url)
    with Store() as store:
        assert store.kind == "postgresql" and store.path is None
        gid, state = _started(store)
        assert store.game(gid).state == state
    assert shown("postgresql://ana:s3cret@db.example:5432/turista") == "postgresql://ana:***@db.example:5432/turista"


def test_a_server_that_is_not_there_is_db_unavailable() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nothing listens here once the socket closes
    started = time.perf_counter()
    with pytest.raises(StoreError) as err:
        Store(f"postgresql://turista@127.0.0.1:{port}/turista", timeout=0.5)
    assert err.value.code == "db_unavailable" and "127.0.0.1" in str(err.value.params["detail"])
    assert time.perf_counter() - started < DEFAULT_TIMEOUT  # the 0.5 s given, not the default


def test_a_row_lock_held_beyond_the_timeout_is_db_locked(pg_url: str) -> None:
    with Store(pg_url, timeout=0.2) as store:
        gid, state = _started(store)
        other, _ = _started(store, 11)
        action, events, new = chosen_move(state, random.Random(1))
        with psycopg.connect(pg_url) as blocker:  # another process in the middle of a write to this game
            blocker.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", [gid])
            started = time.perf_counter()
            with pytest.raises(StoreError) as locked:
                store.apply(gid, 0, 100, action, events, new)
            assert locked.value.code == "db_locked"
            # Sooner than the store's default timeout: the lock was waited for the 0.2 s given, not the default.
            assert time.perf_counter() - started < DEFAULT_TIMEOUT
            assert store.game_by_channel(11).id == other  # other games are read and written meanwhile
            store.set_deadline(other, 123.0)
            blocker.rollback()
        assert store.game(gid).version == 0
        store.apply(gid, 0, 100, action, events, new)
        assert verify_game(store, gid).ok


def test_the_store_heals_when_the_server_drops_its_connections(pg_url: str) -> None:
    """A server restart or a network blip breaks every pooled connection: the next call gets a new one."""
    rng = random.Random(2)
    with Store(pg_url) as store:
        gid, state = _started(store)
        with psycopg.connect(pg_url, autocommit=True) as admin:
            dropped = admin.execute(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            ).fetchone()
        assert dropped is not None and dropped[0] >= 1
        for _ in range(5):
            action, events, new = chosen_move(state, rng)
            store.apply(gid, state.version, 100, action, events, new)
            state = new
        assert store.game(gid).state == state and verify_game(store, gid).ok


def test_postgres_errors_become_the_same_codes() -> None:
    def code(sqlstate: str) -> str:
        return translate_pg(psycopg.errors.lookup(sqlstate)("x")).code

    assert code("55P03") == "db_locked"  # lock_not_available
    assert code("40P01") == "db_locked"  # deadlock_detected
    assert code("53100") == "db_full"  # disk_full
    assert code("25006") == "db_readonly"  # a standby refuses writes
    assert code("XX001") == "db_corrupt"
    assert code("57P01") == "db_unavailable"  # admin_shutdown
    assert code("28P01") == "db_unavailable"  # a wrong password
    assert code("42P01") == "db_error"  # undefined_table: a bug, not a fault
    assert isinstance(translate_pg(psycopg.errors.lookup("23505")("dup")), Conflict)
    assert translate_pg(psycopg.OperationalError("server closed the connection unexpectedly")).code == "db_unavailable"


def test_a_pool_busy_to_the_last_connection_is_not_a_server_away(pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """Every connection in use: a call waits its 2 s in vain (`db_unavailable`), but the server is there, so
    the next calls still wait as long, and the log does not say it is away."""
    with Store(pg_url, pool_size=1) as store:
        busy = store.backend.pool.getconn()  # type: ignore[attr-defined]
        try:
            started = time.perf_counter()
            with pytest.raises(StoreError) as err:
                store.game_ids()
            assert err.value.code == "db_unavailable" and time.perf_counter() - started >= 1.9
        finally:
            store.backend.pool.putconn(busy)  # type: ignore[attr-defined]
        assert store.backend._down_since is None  # type: ignore[attr-defined]
        assert "does not answer" not in caplog.text
        assert store.game_ids() == []

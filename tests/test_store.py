"""The game store: lobby, actions, stale writes, results and stats, migrations, errors, verify and export.

Most tests run twice, on SQLite and on PostgreSQL (the `db_target` fixture); those about the SQLite file
itself (WAL, durability, damaged pages) run on SQLite only, and test_store_postgres.py has PostgreSQL's own."""

from __future__ import annotations

import inspect
import json
import random
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path

import msgspec
import pytest
from sqlite_utils import Database

import engine
from bot.store import ChannelBusy, MessageRow, NoSuchGame, RegistrationRow, ResultRow, StaleVersion, Store, StoreError
from bot.store.__main__ import main as cli
from bot.store.errors import Conflict
from bot.store.replay import verify_game
from bot.store.schema import MIGRATION_NAMES, POSTGRES, SQLITE, migrations
from devkit.synthetic import choose

DEFAULT_TIMEOUT = inspect.signature(Store).parameters["timeout"].default

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def store(db_target: str) -> Iterator[Store]:
    with Store(db_target) as s:
        yield s


@pytest.fixture
def sqlite_store(tmp_path: Path) -> Iterator[Store]:
    with Store(tmp_path / "t.db") as s:
        yield s


def raw(store: Store, sql: str, params: list[object] | None = None) -> None:
    """A statement behind the store's back (tests that tamper with the database)."""
    with store.backend.write() as tx:
        tx.execute(sql, params or [])


def old_database(target: str) -> Callable[[str, list[object]], None]:
    """A database at the first migration only, as an older release left it; returns a raw executor."""
    if target.startswith("postgresql://"):
        import psycopg

        conn = psycopg.connect(target, autocommit=True)
        for sql in POSTGRES[MIGRATION_NAMES[0]]:
            conn.execute(sql)
        conn.execute("CREATE TABLE turista_migrations (name TEXT PRIMARY KEY, applied_at DOUBLE PRECISION NOT NULL)")
        conn.execute("INSERT INTO turista_migrations VALUES (%s, 0)", [MIGRATION_NAMES[0]])
        return lambda sql, params: conn.execute(sql.replace("?", "%s"), params) and None
    old = Database(target)
    migrations.apply(old, stop_before=MIGRATION_NAMES[1])
    return lambda sql, params: old.execute(sql, params) and None


def seated_game(store: Store, channel: int = 10, guild: int = 1, players: int = 3, **settings: object) -> int:
    gid = store.create_game(guild, channel, 100, "turismundo", {"lang": "es", **settings}, 7)
    for i in range(players):
        store.add_seat(gid, 100 + i, f"P{i}")
    return gid


def started_game(store: Store, channel: int = 10, **kw: object) -> tuple[int, engine.State]:
    gid = seated_game(store, channel, **kw)
    game = store.game(gid)
    state, events = engine.new_game(game.edition, [s.name for s in game.seats], game.seed, game.engine_settings())
    store.start_game(gid, state, events)
    return gid, state


def play(store: Store, gid: int, state: engine.State, count: int, rng: random.Random) -> engine.State:
    for _ in range(count):
        action = choose(state, rng)
        if action is None:
            break
        new, events = engine.apply(state, action)
        store.apply(gid, state.version, 100 + max(action.seat, 0), action, events, new)
        state = new
    return state


# -- schema ---------------------------------------------------------------------------------------
def test_a_new_database_is_created_and_migrated_once(db_target: str) -> None:
    with Store(db_target) as store:
        assert store.schema_version() == MIGRATION_NAMES
        if store.kind == "sqlite":
            assert store.db.journal_mode == "wal"
            assert {"games", "seats", "actions", "results"} <= set(store.db.table_names())
    with Store(db_target) as again:  # reopening migrates nothing twice
        assert again.schema_version() == MIGRATION_NAMES


def test_both_dialects_have_the_same_migrations() -> None:
    assert list(POSTGRES) == list(SQLITE) == MIGRATION_NAMES


def test_default_path_comes_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TURISTA_DB", str(tmp_path / "env.db"))
    with Store() as store:
        assert store.path == tmp_path / "env.db"
    monkeypatch.delenv("TURISTA_DB")
    monkeypatch.chdir(tmp_path)
    with Store() as store:
        assert store.path == Path("turista.db")
    assert (tmp_path / "turista.db").is_file()


def test_durability_level_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Store(tmp_path / "a.db") as store:
        assert store.db.execute("PRAGMA synchronous").fetchone()[0] == 1  # NORMAL
    monkeypatch.setenv("TURISTA_DB_SYNC", "full")
    with Store(tmp_path / "b.db") as store:
        assert store.synchronous == "FULL" and store.db.execute("PRAGMA synchronous").fetchone()[0] == 2
    with pytest.raises(ValueError):
        Store(tmp_path / "c.db", synchronous="sometimes")


def test_an_older_database_upgrades_in_place(db_target: str) -> None:
    old = old_database(db_target)
    state, _ = engine.new_game("turismundo", ["Ana", "Beto"], seed=3, settings=engine.Settings(max_turns=2))
    snapshot = engine.to_json(state).decode()
    old(
        "INSERT INTO games (guild_id, channel_id, host_id, status, edition, settings, seed, version, snapshot,"
        " initial, created_at, updated_at) VALUES (1, 5, 9, 'active', 'turismundo', '{\"max_turns\": 2}', 3, 0, ?, ?,"
        " 0, 0)",
        [snapshot, snapshot],
    )
    old("INSERT INTO seats VALUES (1, 0, 9, 'Ana', ''), (1, 1, NULL, 'Beto', 'normal')", [])
    old("INSERT INTO actions VALUES (1, 0, NULL, NULL, '[]', 0)", [])

    with Store(db_target) as store:
        assert store.schema_version() == MIGRATION_NAMES
        game = store.game_by_channel(5)
        assert game is not None and game.state == state and [s.name for s in game.seats] == ["Ana", "Beto"]
        final = play(store, game.id, state, 500, random.Random(1))
        assert final.phase == "over"
        assert store.game(game.id).status == "finished"
        assert [r.seat for r in store.history(1)[0].results] == [s.seat for s in final.standings]
        assert verify_game(store, game.id).ok


def test_messages_are_written_ahead_of_their_post_and_found_by_kind(store: Store) -> None:
    gid, state = started_game(store, channel=10)
    assert store.messages(gid) == {}
    store.intend_post(gid, "table", 10, 0)
    pending = store.messages(gid)["table"]
    assert (pending.message_id, pending.posting, pending.version) == (None, 0, 0)
    store.posted(gid, "table", 10, 555, 0, digest="d0", board="b0")
    store.intend_post(gid, "table", 10, 4)  # a fresh table: the old id stays until the new one is known
    row = store.messages(gid)["table"]
    assert (row.message_id, row.posting, row.version, row.board) == (555, 4, 0, "b0")
    store.posted(gid, "table", 10, 556, 4, digest="d4", board="b4")
    store.edited(gid, "table", 5, digest="d5")
    row = store.game(gid).messages["table"]
    assert (row.message_id, row.posting, row.version, row.digest, row.board) == (556, None, 5, "d5", "b4")
    store.posted(gid, "auction", 10, 600, 5)
    store.drop_message(gid, "auction")
    assert set(store.game(gid).messages) == {"table"}
    with pytest.raises(ValueError):
        store.posted(gid, "chat", 10, 1, 1)


def test_a_game_is_found_by_its_thread(store: Store) -> None:
    gid, _ = started_game(store, channel=10)
    store.set_thread(gid, 77)
    found = store.game_by_channel(77)
    assert found is not None and found.id == gid and (found.thread_id, found.where) == (77, 77)
    assert store.game_by_channel(10).id == gid  # type: ignore[union-attr]
    store.set_thread(gid, None)
    assert store.game_by_channel(77) is None and store.game(gid).where == 10


def test_the_message_id_of_an_older_database_moves_to_the_messages(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = Database(path)
    migrations.apply(old, stop_before="0003_messages_threads")
    state, _ = engine.new_game("turismundo", ["Ana", "Beto"], seed=3)
    snapshot = engine.to_json(state).decode()
    for gid, status, channel in ((1, "lobby", 5), (2, "active", 6), (3, "finished", 7)):
        old.execute(
            "INSERT INTO games (id, guild_id, channel_id, host_id, status, edition, seed, version, snapshot, initial,"
            " table_message_id, created_at, updated_at) VALUES (?, 1, ?, 9, ?, 'turismundo', 3, 0, ?, ?, ?, 0, 0)",
            [gid, channel, status, snapshot, snapshot, 1000 + gid],
        )
    old.close()
    with Store(path) as store:
        assert store.game(1).messages["lobby"].message_id == 1001
        assert store.game(2).messages["table"].message_id == 1002
        assert store.game(3).messages == {}


def test_a_database_from_a_newer_release_is_refused(db_target: str) -> None:
    with Store(db_target) as store:
        if store.kind == "sqlite":
            future = {"migration_set": "turista", "name": "9999_future", "applied_at": "x"}
            store.db["_sqlite_migrations"].insert(future)
        else:
            raw(store, "INSERT INTO turista_migrations VALUES ('9999_future', 0)")
    with pytest.raises(StoreError) as err:
        Store(db_target)
    assert err.value.code == "db_too_new"


def test_the_log_is_append_only(store: Store) -> None:
    gid, _ = started_game(store)
    with pytest.raises(Conflict, match="append-only"):
        raw(store, "UPDATE actions SET events = '[]' WHERE game_id = ?", [gid])


# -- the lobby ------------------------------------------------------------------------------------
def test_one_open_game_per_channel(store: Store) -> None:
    gid = store.create_game(1, 10, 100, "turismundo", {}, 1)
    with pytest.raises(ChannelBusy) as busy:
        store.create_game(1, 10, 200, "mundial", {}, 2)
    assert busy.value.game_id == gid and busy.value.code == "channel_busy"
    other = store.create_game(1, 11, 200, "mundial", engine.Settings(max_turns=9), 2)  # another channel is free
    assert store.game(other).settings == {"max_turns": 9}
    with pytest.raises(StoreError) as unknown:
        store.create_game(1, 12, 200, "nowhere", {}, 2)
    assert unknown.value.code == "unknown_edition"
    store.set_status(gid, "abandoned")
    again = store.create_game(1, 10, 100, "turismundo", {}, 3)
    assert again > other > gid
    with pytest.raises(ChannelBusy):  # reviving the old game would open a second one
        store.set_status(gid, "lobby")


def test_the_database_itself_refuses_a_second_open_game(store: Store) -> None:
    store.create_game(1, 10, 100, "turismundo", {}, 1)
    with pytest.raises(Conflict):
        raw(
            store,
            "INSERT INTO games (guild_id, channel_id, host_id, status, edition, seed, created_at, updated_at)"
            " VALUES (1, 10, 5, 'active', 'mundial', 1, 0, 0)"
        )


def test_seats_join_leave_and_close_up(store: Store) -> None:
    gid = store.create_game(1, 10, 100, "turismundo", {}, 1)
    store.add_seat(gid, 100, "Ana")
    store.add_seat(gid, None, "Cpu", "normal")
    store.add_seat(gid, 300, "Cata")
    with pytest.raises(StoreError) as dup:
        store.add_seat(gid, 100, "Ana again")
    assert dup.value.code == "already_seated"
    assert store.remove_seat(gid, 100) is True
    assert store.remove_seat(gid, 100) is False
    assert [(s.seat, s.user_id, s.computer) for s in store.seats(gid)] == [(0, None, "normal"), (1, 300, "")]
    assert store.remove_seat_at(gid, 0) is True
    assert [(s.seat, s.name) for s in store.seats(gid)] == [(0, "Cata")]
    for i in range(5):
        store.add_seat(gid, 400 + i, f"X{i}")
    with pytest.raises(StoreError) as full:
        store.add_seat(gid, 999, "Late")
    assert full.value.code == "table_full"


def test_a_host_who_leaves_the_lobby_hands_it_to_the_next_person_seated(store: Store) -> None:
    gid = store.create_game(1, 10, 100, "turismundo", {}, 1)
    for user, name in ((100, "Ana"), (None, "Cpu"), (300, "Cata"), (400, "Dani")):
        store.add_seat(gid, user, name, "normal" if user is None else "")
    store.remove_seat(gid, 400)
    assert store.game(gid).host_id == 100  # a guest leaving changes nothing
    store.remove_seat(gid, 100)
    assert store.game(gid).host_id == 300  # the computer seated before Cata cannot host
    store.remove_seat(gid, 300)
    assert store.game(gid).host_id == 300  # nobody left to hand it to (the table then closes)


def test_settings_are_a_free_dict(store: Store) -> None:
    gid = seated_game(store)
    store.update_settings(gid, {"max_turns": 40, "auction_only": True, "turn_timeout": 90, "lang": "en"})
    game = store.game(gid)
    assert game.settings["turn_timeout"] == 90
    assert game.engine_settings() == engine.Settings(max_turns=40, auction_only=True)


def test_only_start_game_makes_a_game_active(store: Store) -> None:
    gid = seated_game(store)
    with pytest.raises(StoreError) as err:
        store.set_status(gid, "active")
    assert err.value.code == "game_not_started" and store.game(gid).status == "lobby"


def test_seats_are_fixed_once_the_game_starts(store: Store) -> None:
    gid, _ = started_game(store)
    with pytest.raises(StoreError) as err:
        store.add_seat(gid, 999, "Late")
    assert err.value.code == "game_active"
    seat = store.update_seat(gid, 1, user_id=None, computer="normal")  # a computer takes over
    assert seat.computer == "normal" and seat.name == "P1" and seat.user_id is None


def test_start_needs_the_seats_the_state_has(store: Store) -> None:
    gid = seated_game(store, players=2)
    state, _ = engine.new_game("turismundo", ["A", "B", "C"], seed=1)
    with pytest.raises(StoreError) as err:
        store.start_game(gid, state)
    assert err.value.code == "seats_mismatch"
    assert store.game(gid).status == "lobby"


# -- playing --------------------------------------------------------------------------------------
def test_actions_are_logged_and_the_snapshot_follows(store: Store) -> None:
    gid, state = started_game(store)
    assert store.game(gid).status == "active"
    state = play(store, gid, state, 40, random.Random(5))
    game = store.game(gid)
    assert game.version == state.version == 40
    assert game.state == state
    rows = list(store.log(gid))
    assert [r.seq for r in rows] == list(range(41))
    assert rows[0].action is None and rows[0].decoded_events()[0]["code"] == "game_started"
    assert rows[1].decoded_action() is not None
    assert verify_game(store, gid).ok


def test_a_stale_write_is_refused_and_changes_nothing(store: Store) -> None:
    gid, state = started_game(store)
    action = choose(state, random.Random(1))
    assert action is not None
    new, events = engine.apply(state, action)
    store.apply(gid, state.version, 100, action, events, new)
    before = store.game(gid)
    with pytest.raises(StaleVersion) as stale:
        store.apply(gid, state.version, 101, action, events, new)
    assert (stale.value.expected, stale.value.actual, stale.value.code) == (0, 1, "stale_version")
    after = store.game(gid)
    assert after.snapshot == before.snapshot and after.version == 1
    assert len(list(store.log(gid))) == 2


def test_edits_are_recorded_with_the_next_action_or_on_their_own(store: Store) -> None:
    gid, state = started_game(store, channel=10)
    store.posted(gid, "table", 10, 555, 0)
    store.posted(gid, "auction", 10, 600, 0)
    action = choose(state, random.Random(1))
    assert action is not None
    new, events = engine.apply(state, action)
    shown = [MessageRow("table", 10, 555, 0), MessageRow("auction", 10, 601, 0)]
    store.apply(gid, state.version, 100, action, events, new, shown=shown)
    assert {k: (m.message_id, m.version) for k, m in store.messages(gid).items()} == {"table": (555, 0),
                                                                                     "auction": (601, 0)}
    with pytest.raises(StaleVersion):  # a refused action records nothing, the edits included
        store.apply(gid, state.version, 100, action, events, new, shown=[replace(m, version=7) for m in shown])
    assert store.messages(gid)["table"].version == 0
    store.shown(gid, [MessageRow("table", 10, 555, 1)])
    assert store.messages(gid)["table"].version == 1 and store.messages(gid)["auction"].version == 0


def test_a_post_an_action_makes_is_marked_with_the_action(store: Store) -> None:
    gid, state = started_game(store, channel=10)
    store.posted(gid, "table", 10, 555, 0)
    action = choose(state, random.Random(1))
    assert action is not None
    new, events = engine.apply(state, action)
    store.apply(gid, state.version, 100, action, events, new, posting=[("table", 10)])
    row = store.messages(gid)["table"]
    assert (row.message_id, row.version, row.posting) == (555, 0, 1)  # as `intend_post` leaves it
    store.posted(gid, "table", 10, 556, 1)
    assert store.messages(gid)["table"].posting is None
    with pytest.raises(StaleVersion):  # a refused action marks nothing
        store.apply(gid, state.version, 100, action, events, new, posting=[("table", 10)])
    assert store.messages(gid)["table"].posting is None


def test_apply_refuses_a_state_that_is_not_the_next_version(store: Store) -> None:
    gid, state = started_game(store)
    with pytest.raises(ValueError):
        store.apply(gid, 0, 100, engine.Action(kind="roll", seat=0), [], state)


def test_apply_needs_an_active_game(store: Store) -> None:
    gid = seated_game(store)
    state, _ = engine.new_game("turismundo", ["A", "B", "C"], seed=1)
    new, events = engine.apply(state, engine.Action(kind="roll", seat=state.current))
    with pytest.raises(StoreError) as err:
        store.apply(gid, 0, 100, engine.Action(kind="roll", seat=state.current), events, new)
    assert err.value.code == "game_lobby"
    with pytest.raises(NoSuchGame):
        store.apply(999, 0, 100, engine.Action(kind="roll", seat=state.current), events, new)


def test_deadline_and_table_message(store: Store) -> None:
    gid, state = started_game(store)
    store.set_table_message(gid, 123456789012345678)
    store.set_deadline(gid, 1_800_000_000.5)
    game = store.game(gid)
    assert (game.table_message_id, game.deadline) == (123456789012345678, 1_800_000_000.5)
    action = choose(state, random.Random(1))
    assert action is not None
    new, events = engine.apply(state, action)
    store.apply(gid, 0, 100, action, events, new, deadline=None)  # re-armed in the same transaction
    assert store.game(gid).deadline is None
    with pytest.raises(NoSuchGame):
        store.set_deadline(999, None)


def test_open_games_reload_with_seats_and_state(db_target: str) -> None:
    path = db_target
    states = {}
    with Store(path) as store:
        for channel in range(5):
            gid, state = started_game(store, channel)
            states[gid] = play(store, gid, state, 10 + channel, random.Random(channel))
        lobby = seated_game(store, 99)
        store.set_status(next(iter(states)), "abandoned")
    with Store(path) as store:
        games = store.open_games()
        assert [g.id for g in games] == sorted(states)[1:] + [lobby]
        for g in games[:-1]:
            assert g.state == states[g.id] and g.version == states[g.id].version
            assert [s.user_id for s in g.seats] == [100, 101, 102]
        assert games[-1].state is None and games[-1].status == "lobby"
        assert store.game_by_channel(0) is None
        assert store.game_by_channel(99).id == lobby


# -- results and stats ----------------------------------------------------------------------------
def test_the_final_action_records_results(store: Store) -> None:
    gid, state = started_game(store, max_turns=30)
    final = play(store, gid, state, 2000, random.Random(2))
    assert final.phase == "over"
    game = store.game(gid)
    assert game.status == "finished" and game.finished_at is not None and game.deadline is None
    assert store.game_by_channel(10) is None  # the channel is free again
    results = store.history(1)[0].results
    assert [r.rank for r in results] == [1, 2, 3]
    assert results[0].seat == final.winner
    rent = {s: 0 for s in range(3)}
    for row in store.log(gid):
        for ev in row.decoded_events():
            if ev["code"] == "transfer" and ev["reason"] == "rent" and ev["to"] >= 0:
                rent[ev["to"]] += ev["amount"]
    assert {r.seat: r.rent_collected for r in results} == rent
    assert {r.seat: r.titles for r in results} == {s: final.owner.count(s) for s in range(3)}
    assert {r.seat: r.user_id for r in results} == {0: 100, 1: 101, 2: 102}


def test_finish_game_takes_the_bots_results(store: Store) -> None:
    gid, _ = started_game(store)
    given = [
        {"seat": 1, "rank": 1, "net_worth": 900, "rent_collected": 50, "titles": 4},
        ResultRow(seat=0, rank=2, net_worth=500, rent_collected=10, titles=2),
        {"seat": 2, "rank": 3, "net_worth": 0, "rent_collected": 0, "titles": 0, "out": True},
    ]
    rows = store.finish_game(gid, given, now=50.0)
    assert [(r.seat, r.name, r.user_id) for r in rows] == [(1, "P1", 101), (0, "P0", 100), (2, "P2", 102)]
    store.finish_game(gid, given[:2], now=60.0)  # again: replaces, keeps the first finishing time
    history = store.history(1)
    assert len(history[0].results) == 2 and history[0].finished_at == 50.0


def test_finish_without_results_needs_a_game_that_is_over(store: Store) -> None:
    gid, _ = started_game(store)
    with pytest.raises(StoreError) as err:
        store.finish_game(gid)
    assert err.value.code == "game_not_over"
    assert store.game(gid).status == "active"


def test_history_and_leaderboard(store: Store) -> None:
    # Three finished games in guild 1, one in guild 2, one abandoned: wins decide, then games, then rank.
    outcomes = [(1, [100, 101, 102]), (1, [101, 100, 102]), (1, [100, 102, 101]), (2, [102, 100, 101])]
    for i, (guild, order) in enumerate(outcomes):
        gid, _ = started_game(store, 20 + i, guild=guild)
        ranks = {user: rank for rank, user in enumerate(order, 1)}
        store.finish_game(
            gid,
            [
                {"seat": s, "rank": ranks[100 + s], "net_worth": 1000 * (4 - ranks[100 + s]), "rent_collected": s}
                for s in range(3)
            ],
            now=100.0 + i,
        )
    gone = seated_game(store, 30)
    store.set_status(gone, "abandoned", now=200.0)

    history = store.history(1)
    assert [h.status for h in history] == ["abandoned", "finished", "finished", "finished"]
    assert history[0].results == [] and [p.name for p in history[0].players] == ["P0", "P1", "P2"]
    assert history[1].winner is not None and history[1].winner.user_id == 100
    assert history[1].turns == 1
    assert len(store.history(1, limit=2)) == 2

    board = store.leaderboard(1)
    assert [(r.user_id, r.games, r.wins) for r in board] == [(100, 3, 2), (101, 3, 1), (102, 3, 0)]
    assert board[0].average_rank == pytest.approx(4 / 3) and board[0].best_net_worth == 3000
    assert board[2].rent_collected == 6
    assert [r.user_id for r in store.leaderboard(2)] == [102, 100, 101]
    assert store.player_stats(1, 101).wins == 1
    assert store.player_stats(1, 555) is None


# -- errors ---------------------------------------------------------------------------------------
def test_disk_full_leaves_the_game_as_it_was_and_the_store_serving(sqlite_store: Store) -> None:
    store = sqlite_store
    gid, state = started_game(store)
    other, other_state = started_game(store, 11)
    pages = store.db.execute("PRAGMA page_count").fetchone()[0]
    store.db.execute(f"PRAGMA max_page_count = {pages + 2}")
    rng = random.Random(4)
    with pytest.raises(StoreError) as full:
        for _ in range(5000):
            action = choose(state, rng)
            assert action is not None
            new, events = engine.apply(state, action)
            store.apply(gid, state.version, 100, action, events, new)
            state = new
    assert full.value.code == "db_full"
    game = store.game(gid)
    assert game.version == state.version and game.state == state  # the refused action left no trace
    assert max(r.seq for r in store.log(gid)) == state.version
    assert store.game(other).state == other_state  # reads go on
    store.db.execute("PRAGMA max_page_count = 1073741823")
    play(store, gid, state, 5, rng)
    play(store, other, other_state, 5, rng)
    assert verify_game(store, gid).ok and verify_game(store, other).ok


def test_a_lock_held_beyond_the_timeout_is_db_locked(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with Store(path, timeout=0.1) as store:
        gid, state = started_game(store)
        other, _ = started_game(store, 11)
        blocker = sqlite3.connect(path, isolation_level=None)
        blocker.execute("BEGIN IMMEDIATE")
        action = choose(state, random.Random(1))
        assert action is not None
        new, events = engine.apply(state, action)
        started = time.perf_counter()
        with pytest.raises(StoreError) as locked:
            store.apply(gid, 0, 100, action, events, new)
        assert locked.value.code == "db_locked"
        # Sooner than the store's default timeout: it waited for the 0.1 s it was given, not the default (the
        # margin, fifty times the wait, is for a busy machine; how long it takes is not measured here).
        assert time.perf_counter() - started < DEFAULT_TIMEOUT
        assert store.game_by_channel(11).id == other  # other channels can still be read
        blocker.execute("ROLLBACK")
        blocker.close()
        assert store.game(gid).version == 0
        store.apply(gid, 0, 100, action, events, new)
        assert verify_game(store, gid).ok


def test_a_write_waiting_behind_this_process_s_own_gives_up_after_the_timeout(tmp_path: Path) -> None:
    """Writes queue for the one connection. While a write holds it (waiting for another process's lock,
    say), one queued behind it fails as db_locked after the busy timeout rather than waiting for good,
    writes nothing, and goes through once the way is clear."""
    with Store(tmp_path / "t.db", timeout=0.1) as store:
        gid, state = started_game(store)
        holding, release = threading.Event(), threading.Event()

        def long_write() -> None:
            with store.backend.write():
                holding.set()
                release.wait(10)

        writer = threading.Thread(target=long_write)
        writer.start()
        try:
            assert holding.wait(5)
            action = choose(state, random.Random(1))
            assert action is not None
            new, events = engine.apply(state, action)
            with pytest.raises(StoreError) as queued:
                store.apply(gid, 0, 100, action, events, new)
            assert queued.value.code == "db_locked" and "other writes" in str(queued.value.params["detail"])
        finally:
            release.set()
            writer.join()
        assert store.game(gid).version == 0
        store.apply(gid, 0, 100, action, events, new)
        assert verify_game(store, gid).ok


def test_a_file_that_is_not_a_database_is_db_corrupt(tmp_path: Path) -> None:
    path = tmp_path / "junk.db"
    path.write_bytes(b"this is not sqlite at all" * 200)
    with pytest.raises(StoreError) as err:
        Store(path)
    assert err.value.code == "db_corrupt"
    assert cli(["verify", "--db", str(path)]) == 2


def test_damaged_pages_are_db_corrupt_and_verify_says_so(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    with Store(path) as store:
        for channel in range(4):
            gid, state = started_game(store, channel)
            play(store, gid, state, 60, random.Random(channel))
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    page = 4096
    for offset in range(2 * page, len(data) - page, 3 * page):  # leave the header page alone
        data[offset : offset + page] = random.Random(offset).randbytes(page)
    path.write_bytes(bytes(data))
    try:
        with Store(path) as store:
            damaged = store.integrity() != ["ok"] or not all(verify_game(store, g).ok for g in store.game_ids())
    except StoreError as err:
        assert err.code == "db_corrupt"
        damaged = True
    assert damaged
    assert cli(["verify", "--db", str(path)]) != 0


def test_sqlite_errors_become_codes() -> None:
    from bot.store.errors import translate

    busy = sqlite3.OperationalError("database is locked")
    busy.sqlite_errorcode = 5  # type: ignore[attr-defined]
    assert translate(busy).code == "db_locked"
    assert translate(sqlite3.OperationalError("odd")).code == "db_error"


# -- threads ----------------------------------------------------------------------------------------
def test_one_store_is_safe_from_worker_threads(store: Store) -> None:
    games = [started_game(store, channel) for channel in range(4)]
    errors: list[BaseException] = []

    def worker(gid: int, state: engine.State, seed: int) -> None:
        try:
            play(store, gid, state, 60, random.Random(seed))
            store.open_games()
        except BaseException as exc:  # the assertion below reports it
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(gid, st, i)) for i, (gid, st) in enumerate(games)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    assert all(verify_game(store, gid).ok for gid, _ in games)


# -- verify and export ----------------------------------------------------------------------------
def test_verify_finds_a_snapshot_the_log_does_not_explain(db_target: str, capsys: pytest.CaptureFixture) -> None:
    path = db_target
    with Store(path) as store:
        gid, state = started_game(store)
        state = play(store, gid, state, 30, random.Random(3))
        good, good_state = started_game(store, 11)
        play(store, good, good_state, 30, random.Random(4))
        assert cli(["verify", "--db", str(path)]) == 0
        capsys.readouterr()
        state.seats[0].cash += 1  # a snapshot written behind the log's back
        raw(store, "UPDATE games SET snapshot = ? WHERE id = ?", [engine.to_json(state).decode(), gid])
        assert cli(["--db", str(path), "verify"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].endswith("sound")
    assert "MISMATCH" in out[1] and f"game {gid}" in out[1] and out[2].endswith(": ok")
    assert out[-1] == "2 games verified: 1 ok, 1 mismatched"


def test_verify_finds_a_log_row_that_was_tampered_with(store: Store) -> None:
    gid, state = started_game(store)
    play(store, gid, state, 30, random.Random(3))
    raw(store, "DROP TRIGGER actions_append_only" + (" ON actions" if store.kind == "postgresql" else ""))
    raw(store, "UPDATE actions SET events = '[]' WHERE game_id = ? AND seq = 5", [gid])
    verdict = verify_game(store, gid)
    assert not verdict.ok and "seq 5" in verdict.problem


def test_export_replays_from_the_lines_alone(db_target: str) -> None:
    path = db_target
    with Store(path) as store:
        gid, state = started_game(store)
        final = play(store, gid, state, 50, random.Random(6))
    out = subprocess.run(
        [sys.executable, "-m", "bot.store", "export", str(gid), "--db", str(path)],
        capture_output=True,
        text=True,
        check=True,
        cwd=ROOT,
    ).stdout
    lines = [json.loads(line) for line in out.splitlines()]
    head, rows = lines[0], lines[1:]
    assert head["record"] == "game" and head["edition"] == "turismundo" and len(head["seats"]) == 3
    replay = msgspec.convert(head["initial"], engine.State)
    for row in rows[1:]:
        replay, _ = engine.apply(replay, msgspec.convert(row["action"], engine.Action))
    assert replay == final and [r["seq"] for r in rows] == list(range(51))


def test_backup_is_a_complete_database(db_target: str, tmp_path: Path) -> None:
    path = db_target
    with Store(path) as store:
        gid, state = started_game(store)
        final = play(store, gid, state, 25, random.Random(8))
        assert cli(["backup", str(tmp_path / "copy.db"), "--db", str(path)]) == 0
    with Store(tmp_path / "copy.db", create=False) as copy:
        assert copy.game(gid).state == final and verify_game(copy, gid).ok


def test_cli_migrate_and_missing_database(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    assert cli(["verify", "--db", str(tmp_path / "none.db")]) == 2
    assert not (tmp_path / "none.db").exists()
    assert cli(["migrate", "--db", str(tmp_path / "m.db")]) == 0
    assert MIGRATION_NAMES[-1] in capsys.readouterr().out


def test_the_registration_keeps_the_accepted_digest_and_the_newest_refusal(store: Store) -> None:
    assert store.registration(7) is None and store.registrations() == []
    store.registered(7, 0, "first", now=100.0)
    store.registered(7, 55, "guild", now=101.0)
    assert store.registration(7) == RegistrationRow(7, 0, "first", 100.0, None, None, None)
    store.registration_refused(7, 0, "command[0].name (/roll): bad", 13, now=200.0)
    refused = store.registration(7)
    assert refused == RegistrationRow(7, 0, "first", 100.0, "command[0].name (/roll): bad", 200.0, 13)
    assert [(r.guild_id, r.refused is not None) for r in store.registrations()] == [(0, True), (55, False)]
    store.registered(7, 0, "second", now=300.0)  # accepted at last: the refusal is over
    assert store.registration(7) == RegistrationRow(7, 0, "second", 300.0, None, None, None)
    store.registration_refused(8, 0, "refused before any accepted", 0, now=400.0)
    assert store.registration(8) == RegistrationRow(8, 0, None, None, "refused before any accepted", 400.0, 0)
    assert {"registered", "registration_refused"} <= Store.WRITES

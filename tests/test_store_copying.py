"""Splitting and merging databases by guild (resharding with SQLite files), moving SQLite to PostgreSQL, and
the id blocks that keep games of separate files apart."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import engine
from bot.store import Store, StoreError
from bot.store.__main__ import main as cli
from bot.store.backend import ID_STRIDE
from bot.store.copying import shard_of
from bot.store.replay import verify_game
from devkit.pgcluster import ThrowawayCluster
from devkit.synthetic import choose

# Guild ids whose shards (of 2 and of 3) differ: Discord routes by (guild_id >> 22) % shard_count.
GUILDS = [(n << 22) | 77 for n in range(6)]


def _game(store: Store, guild: int, channel: int, moves: int, rng: random.Random) -> tuple[int, engine.State]:
    gid = store.create_game(guild, channel, 100, "turismundo", {}, channel)
    for i in range(3):
        store.add_seat(gid, 100 + i, f"P{i}", "normal" if i == 2 else "")
    state, events = engine.new_game("turismundo", ["P0", "P1", "P2"], channel)
    store.start_game(gid, state, events)
    return gid, _play(store, gid, state, moves, rng)


def _play(store: Store, gid: int, state: engine.State, moves: int, rng: random.Random) -> engine.State:
    for _ in range(moves):
        action = choose(state, rng)
        assert action is not None
        new, events = engine.apply(state, action)
        store.apply(gid, state.version, None, action, events, new)
        state = new
    return state


def _two_shard_files(folder: Path) -> dict[int, tuple[int, engine.State]]:
    """What two bot processes (shards 0 and 1 of 2, one SQLite file each) leave behind."""
    rng = random.Random(9)
    games = {}
    for shard in range(2):
        with Store(folder / f"old-{shard}.db") as store:
            store.reserve_block(shard)  # what the bot does for a file of its own
            for n, guild in enumerate(GUILDS):
                if shard_of(guild, 2) == shard:
                    gid, state = _game(store, guild, 1000 + n, 15 + n, rng)
                    games[gid] = (guild, state)
            store.create_game(GUILDS[shard], 2000 + shard, 100, "mundial", {}, 1)  # a lobby too
    return games


def test_process_files_keep_their_games_in_blocks_of_their_own(tmp_path: Path) -> None:
    games = _two_shard_files(tmp_path)
    assert {gid // ID_STRIDE for gid in games} == {0, 1}


def test_resharding_two_files_into_three(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    games = _two_shard_files(tmp_path)
    sources = [str(tmp_path / f"old-{k}.db") for k in range(2)]
    assert cli(["split", "--shards", "3", "--out", str(tmp_path / "new-{shard}.db"), *sources]) == 0
    assert "shard 2:" in capsys.readouterr().out
    seen: set[int] = set()
    new_ids = []
    for shard in range(3):
        with Store(tmp_path / f"new-{shard}.db", create=False) as store:
            for gid in store.game_ids():
                row = store.game(gid)
                assert shard_of(row.guild_id, 3) == shard
                if gid in games:
                    assert row.state == games[gid][1] and verify_game(store, gid).ok
                seen.add(gid)
            # The bot of each new shard resumes exactly its own open games.
            assert {g.id for g in store.open_games(3, [shard])} == set(store.game_ids())
            new_ids.append(store.create_game(GUILDS[shard], 3000 + shard, 100, "mundial", {}, 1))
    assert set(games) <= seen and len(seen) == len(games) + 2  # every game once, the two lobbies too
    assert len(set(new_ids)) == 3 and min(new_ids) > max(seen)  # new games never share an id
    # A second split refuses to overwrite what the first made.
    assert cli(["split", "--shards", "3", "--out", str(tmp_path / "new-{shard}.db"), *sources]) == 2


def test_merging_files_into_another_database(tmp_path: Path, db_target: str) -> None:
    """Several shard files into one database: back to one process, or SQLite into PostgreSQL."""
    games = _two_shard_files(tmp_path)
    sources = [str(tmp_path / f"old-{k}.db") for k in range(2)]
    assert cli(["merge", "--into", db_target, *sources]) == 0
    with Store(db_target) as store:
        assert set(games) <= set(store.game_ids())
        for gid, (_, state) in games.items():
            assert store.game(gid).state == state and verify_game(store, gid).ok
        assert len(store.open_games()) == len(games) + 2
        assert store.create_game(5, 9999, 100, "mundial", {}, 1) > max(store.game_ids()[:-1])
        # Merging the same files again would give two games one id: refused, nothing written.
        before = store.game_ids()
    assert cli(["merge", "--into", db_target, sources[0]]) == 2
    with Store(db_target) as store:
        assert store.game_ids() == before


def test_backing_up_a_database_into_a_new_one(tmp_path: Path, db_target: str, pg_cluster: ThrowawayCluster) -> None:
    """Into a file (an older backup there is replaced once the new one is whole) or an empty PostgreSQL."""
    pg_url = pg_cluster.new_schema()
    rng = random.Random(4)
    with Store(db_target) as store:
        gid, state = _game(store, GUILDS[0], 10, 30, rng)
        store.backup(tmp_path / "copy.db")
        state = _play(store, gid, state, 5, rng)
        store.backup(tmp_path / "copy.db")
        store.backup(pg_url)
        with pytest.raises(StoreError) as err:  # never on top of a database that holds games
            store.backup(pg_url)
        assert err.value.code == "db_not_empty"
    assert not (tmp_path / "copy.db.partial").exists()
    for copy_at in (tmp_path / "copy.db", pg_url):
        with Store(copy_at, create=False) as copy:
            assert copy.game_ids() == [gid]
            assert copy.game(gid).state == state and verify_game(copy, gid).ok


def test_open_games_of_some_shards(db_target: str) -> None:
    rng = random.Random(3)
    with Store(db_target) as store:
        ids = {guild: _game(store, guild, 50 + n, 1, rng)[0] for n, guild in enumerate(GUILDS)}
        for count in (1, 2, 3):
            for shard in range(count):
                mine = {g.id for g in store.open_games(count, [shard])}
                assert mine == {gid for guild, gid in ids.items() if shard_of(guild, count) == shard}
        assert {g.id for g in store.open_games(3, [0, 2])} == {ids[g] for g in GUILDS if shard_of(g, 3) != 1}
        assert store.open_games(3, []) == []


def test_restoring_a_backup(tmp_path: Path, db_target: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """`restore` puts back what `backup` took, on either database; what was there is kept aside."""
    monkeypatch.chdir(tmp_path)
    rng = random.Random(6)
    with Store(db_target) as store:
        gid, state = _game(store, GUILDS[0], 10, 20, rng)
        store.backup(tmp_path / "nightly.db")
        _play(store, gid, state, 5, rng)
        _game(store, GUILDS[1], 11, 3, rng)
    assert cli(["restore", str(tmp_path / "nightly.db"), "--db", db_target]) == 0
    with Store(db_target) as store:
        assert store.game_ids() == [gid] and store.game(gid).state == state and verify_game(store, gid).ok
        assert store.create_game(GUILDS[2], 12, 100, "mundial", {}, 1) > gid
    kept = tmp_path / ("turista-before-restore.db" if db_target.startswith("postgresql") else "t.db.before-restore")
    with Store(kept, create=False) as before:
        assert len(before.game_ids()) == 2

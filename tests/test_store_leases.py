"""The shards' leases: two stores on one database that both think they own a shard. The newer takes the lease;
the older's writes of that shard's games are refused by the database (`LeaseLost`) and change nothing, on SQLite
and on PostgreSQL alike. Other shards, and stores that took no lease (the maintenance commands), are not fenced."""

from __future__ import annotations

import random

import pytest

import engine
from bot.store import LeaseLost, Store
from bot.store.replay import verify_game
from devkit.synthetic import chosen_move

GUILD_ON_0 = 0 << 22  # shard 0 of 2
GUILD_ON_1 = 1 << 22  # shard 1 of 2


def _started(store: Store, guild: int, channel: int) -> tuple[int, engine.State]:
    gid = store.create_game(guild, channel, 100, "turismundo", {}, 5, host_name="P0")
    store.add_seat(gid, 101, "P1")
    state, events = engine.new_game("turismundo", ["P0", "P1"], 5)
    store.start_game(gid, state, events)
    return gid, state



def test_the_newer_store_takes_the_shard_and_the_older_is_refused(db_target: str) -> None:
    rng = random.Random(3)
    with Store(db_target) as old, Store(db_target) as new:
        assert old.take_shards(2, [0, 1], "old") == []
        assert old.fence is not None and old.fence.epoch == 1
        gid, state = _started(old, GUILD_ON_0, 10)
        other, other_state = _started(old, GUILD_ON_1, 11)
        action, events, moved = chosen_move(state, rng)
        old.apply(gid, state.version, 100, action, events, moved)
        state = moved

        taken = new.take_shards(2, [0], "new")  # a deploy: the new process of shard 0 starts
        assert [(t.shard, t.owner, t.epoch) for t in taken] == [(0, "old", 1)]
        assert new.fence is not None and new.fence.epoch == 2
        assert [(lease.shard, lease.owner, lease.epoch) for lease in new.leases()] == [(0, "new", 2), (1, "old", 1)]

        action, events, moved = chosen_move(state, rng)
        with pytest.raises(LeaseLost) as lost:
            old.apply(gid, state.version, 100, action, events, moved)
        assert (lost.value.code, lost.value.shard, lost.value.holder, lost.value.holder_epoch) == (
            "lease_lost", 0, "new", 2)
        for write in (lambda: old.set_deadline(gid, 1.0), lambda: old.shown(gid, []),
                      lambda: old.set_status(gid, "abandoned"), lambda: old.update_seat(gid, 1, computer="normal"),
                      lambda: old.create_game(GUILD_ON_0, 12, 100, "turismundo", {}, 5),
                      lambda: old.ask_take_back(gid, state.version, 0, 100, 1), lambda: old.set_host(gid, 101),
                      lambda: old.agree_take_back(gid, state.version, 101),
                      lambda: old.settle_take_back(gid, state.version, "refused")):
            with pytest.raises(LeaseLost):
                write()
        assert new.game(gid).version == state.version and new.game(gid).status == "active"
        assert new.game_by_channel(12) is None and new.game(gid).deadline is None

        # The new owner plays on; the old one still writes the shard it kept.
        new.apply(gid, state.version, 100, action, events, moved)
        o_action, o_events, o_moved = chosen_move(other_state, rng)
        old.apply(other, other_state.version, 100, o_action, o_events, o_moved)
        # A store with no lease (the maintenance commands) is not fenced.
        with Store(db_target) as admin:
            admin.set_deadline(gid, None)
        assert verify_game(new, gid).ok and verify_game(new, other).ok


def test_leases_at_another_shard_count_end_with_a_reshard(db_target: str) -> None:
    with Store(db_target) as old, Store(db_target) as new:
        old.take_shards(2, [0, 1], "old")
        gid, _ = _started(old, GUILD_ON_1, 10)
        new.take_shards(1, [0], "everything")  # resharded to one process: every lease of two shards ends
        assert [(lease.shard_count, lease.owner) for lease in new.leases()] == [(1, "everything")]
        with pytest.raises(LeaseLost) as lost:
            old.set_deadline(gid, 5.0)
        assert lost.value.holder is None  # nobody holds shard 1 of 2 any more
        new.set_deadline(gid, 5.0)
        assert new.game(gid).deadline == 5.0

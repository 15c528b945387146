"""Concurrent writers on one game: for every version exactly one write wins, the others are told it is stale.
On SQLite (one file, WAL) and on PostgreSQL (the version guard in the UPDATE)."""

from __future__ import annotations

import multiprocessing
import random
import threading

import engine
from bot.store import StaleVersion, Store
from bot.store.replay import verify_game
from devkit.synthetic import choose


def _start(path: str) -> int:
    with Store(path) as store:
        gid = store.create_game(1, 10, 100, "turismundo", {}, 11)
        for i in range(4):
            store.add_seat(gid, 100 + i, f"P{i}")
        state, events = engine.new_game("turismundo", ["P0", "P1", "P2", "P3"], 11)
        store.start_game(gid, state, events)
        return gid


def _write_until(store: Store, gid: int, target: int, me: int, rng: random.Random) -> tuple[list[int], int]:
    """Read the game, compute an action, try to store it; again until the game reaches `target`."""
    won: list[int] = []
    stale = 0
    while True:
        game = store.game(gid)
        state = game.state
        assert state is not None
        if game.version >= target or (action := choose(state, rng)) is None:
            return won, stale
        new, events = engine.apply(state, action)
        try:
            won.append(store.apply(gid, game.version, me, action, events, new))
        except StaleVersion as exc:
            assert exc.expected == game.version and exc.actual is not None and exc.actual > game.version
            stale += 1


def test_threads_with_their_own_connections_race_in_lockstep(db_target: str) -> None:
    """Each round every writer computes from the same version; exactly one of them may store it."""
    path = db_target
    gid = _start(path)
    writers, rounds = 4, 60
    stores = [Store(path, timeout=10) for _ in range(writers)]
    barrier = threading.Barrier(writers)
    outcomes: dict[int, list[tuple[int, int]]] = {}  # version -> [(writer, stored version or -1)]
    lock = threading.Lock()
    failures: list[BaseException] = []

    def writer(me: int) -> None:
        rng = random.Random(me)
        try:
            for _ in range(rounds):
                game = stores[me].game(gid)
                state = game.state
                assert state is not None
                action = choose(state, rng)
                assert action is not None
                new, events = engine.apply(state, action)
                barrier.wait()  # everyone holds the same version now
                try:
                    result = stores[me].apply(gid, game.version, me, action, events, new)
                except StaleVersion:
                    result = -1
                with lock:
                    outcomes.setdefault(game.version, []).append((me, result))
                barrier.wait()  # nobody reads the next version before all have tried this one
        except BaseException as exc:  # reported by the assertion below
            failures.append(exc)
            barrier.abort()

    threads = [threading.Thread(target=writer, args=(i,)) for i in range(writers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    assert sorted(outcomes) == list(range(rounds))
    for version, tries in outcomes.items():
        assert len(tries) == writers
        winners = [(me, result) for me, result in tries if result != -1]
        assert len(winners) == 1 and winners[0][1] == version + 1
    log = list(stores[0].log(gid))
    assert [r.seq for r in log] == list(range(rounds + 1))
    for version, tries in outcomes.items():  # the log row of each version is the winner's
        assert log[version + 1].actor == next(me for me, result in tries if result != -1)
    assert verify_game(stores[0], gid).ok
    for s in stores:
        s.close()


def _process_writer(path: str, gid: int, target: int, me: int, results: multiprocessing.Queue) -> None:
    with Store(path, timeout=30) as store:
        results.put((me, *_write_until(store, gid, target, me, random.Random(me))))


def test_processes_race_freely(db_target: str) -> None:
    """Separate processes writing as fast as they can: the versions they won partition the log."""
    path = db_target
    gid = _start(path)
    target, writers = 150, 3
    ctx = multiprocessing.get_context("spawn")
    results: multiprocessing.Queue = ctx.Queue()
    procs = [ctx.Process(target=_process_writer, args=(str(path), gid, target, me, results)) for me in range(writers)]
    for p in procs:
        p.start()
    got = [results.get(timeout=60) for _ in procs]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    won = sorted(v for _, versions, _ in got for v in versions)
    assert won == list(range(1, target + 1))  # every version won once, by one process
    with Store(path) as store:
        assert store.game(gid).version == target
        assert {r.seq: r.actor for r in store.log(gid) if r.seq} == {v: me for me, versions, _ in got for v in versions}
        assert verify_game(store, gid).ok

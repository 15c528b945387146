"""Kill -9 a process that is storing actions, again and again: nothing acknowledged is ever lost, nothing is
ever half-written, every game still replays to its snapshot, and every finished game is rated exactly once.

The same file is the worker: `python tests/test_store_crash.py worker DB GAMES` plays GAMES channels with
the random-but-legal policy and prints `ack <game> <version>` (flushed) after every committed write.
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
KILLS = {"sqlite": 55, "postgresql": 14}  # fewer on PostgreSQL: the server, not a file, takes the hits
# While it writes, a worker is killed after a random number of acknowledged writes up to this (then a moment's
# random pause), not after a random time: how much gets played between kills does not depend on the machine.
ACKS_BETWEEN_KILLS = {"sqlite": 1200, "postgresql": 300}
ENDED = 5  # the play goes on until this many games have finished, so the ratings written with the ends are checked
KILLS_CAP = 4  # times the planned kills: a worker that finishes no games in that many fails the test, not hangs it


def worker(path: str, channels: int) -> None:
    import engine
    from bot.store import Store
    from devkit.synthetic import choose

    rng = random.Random(time.time_ns() ^ os.getpid())
    store = Store(path)

    def ack(gid: int, version: int) -> None:
        print(f"ack {gid} {version}", flush=True)

    def open_game(channel: int) -> tuple[int, engine.State]:
        game = store.game_by_channel(channel)
        if game is None:
            gid = store.create_game(1, channel, 100, rng.choice(["turismundo", "mundial", "monopolio"]), {}, 0)
            store.update_settings(gid, {"max_turns": rng.randint(5, 40)})
            game = store.game(gid)
        if game.state is not None:
            return game.id, game.state
        # A lobby, possibly left half-filled by the previous kill.
        for i in range(len(game.seats), 3):
            store.add_seat(game.id, 100 + i, f"P{i}", "" if i else "normal")
        seats = store.seats(game.id)
        state, events = engine.new_game(
            game.edition, [s.name for s in seats], game.id, game.engine_settings(), [s.computer for s in seats]
        )
        store.start_game(game.id, state, events)
        ack(game.id, state.version)
        return game.id, state

    games = {channel: open_game(channel) for channel in range(1, channels + 1)}
    print("ready", flush=True)
    while True:
        channel = rng.randint(1, channels)
        gid, state = games[channel]
        action = choose(state, rng)
        if action is None:  # over: the final write already recorded it as finished
            games[channel] = open_game(channel)
            continue
        new, events = engine.apply(state, action)
        store.apply(gid, state.version, 100 + max(action.seat, 0), action, events, new)
        ack(gid, new.version)
        games[channel] = (gid, new)


def test_sigkill_at_random_moments_loses_nothing_acknowledged(db_target: str) -> None:
    from bot.store import Store
    from bot.store.replay import verify_game

    db = db_target
    on_file = not db.startswith("postgresql://")
    backend = "sqlite" if on_file else "postgresql"
    kill_count, acks_between = KILLS[backend], ACKS_BETWEEN_KILLS[backend]
    rng = random.Random(20261129)
    acked: dict[int, int] = {}  # game -> highest version a worker acknowledged
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    kills = acks_total = finished = 0
    while kills < kill_count or finished < ENDED:
        assert kills < KILLS_CAP * kill_count, (
            f"only {finished} of the {ENDED} games wanted finished in {kills} kills ({acks_total} acknowledged "
            "writes): the worker hardly plays"
        )
        proc = subprocess.Popen(
            [sys.executable, __file__, "worker", db, "3"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
            cwd=ROOT,
        )
        lines: list[str] = []
        if kills < kill_count // 7 + 1:  # early on, while it starts up, creates the file or migrates it
            time.sleep(rng.uniform(0.02, 0.25))
        else:  # then while it writes, after a random number of its writes
            assert proc.stdout is not None
            while (line := proc.stdout.readline()) and line != "ready\n":
                lines.append(line)
            for _ in range(rng.randint(0, acks_between)):
                if not (line := proc.stdout.readline()):
                    break  # it stopped by itself: said below
                lines.append(line)
            time.sleep(rng.uniform(0.0, 0.02))
        alive = proc.poll() is None
        proc.send_signal(signal.SIGKILL)
        # Read through the same buffered pipes as readline() above (communicate() would bypass what
        # readline() already buffered); the process is dead, so both reach their end.
        assert proc.stdout is not None and proc.stderr is not None
        out, err = proc.stdout.read(), proc.stderr.read()
        proc.wait(timeout=30)
        assert alive, f"the worker stopped by itself:\n{err}"
        assert "Traceback" not in err, err
        kills += 1
        touched = set()
        for line in lines + out.splitlines():
            if line.strip() == "ready":
                continue
            word, gid, version = line.split()
            assert word == "ack"
            acked[int(gid)] = max(acked.get(int(gid), -1), int(version))
            touched.add(int(gid))
            acks_total += 1

        if on_file and not Path(db).exists():
            continue
        with Store(db) as store:
            unacknowledged = 0
            for gid in store.game_ids():
                game = store.game(gid)
                if gid not in acked:  # created, never started: killed before its first ack
                    assert game.version == 0
                    continue
                assert game.version >= acked[gid], f"game {gid} lost acknowledged version {acked[gid]}"
                unacknowledged += game.version - acked[gid]
                # Whole or nothing: the snapshot is the logged version, and the log has no gap.
                assert game.state is not None and game.state.version == game.version
                seqs = [r.seq for r in store.log(gid)]
                assert seqs == list(range(seqs[0], game.version + 1))
                if gid in touched or game.version != acked[gid]:
                    assert verify_game(store, gid).ok, verify_game(store, gid).problem
                acked[gid] = game.version  # a write that committed unacknowledged is the new floor
            # Only the one write in flight at the kill may have committed without its ack.
            assert unacknowledged <= 1
            with store.backend.read() as tx:
                finished = tx.execute("SELECT count(*) FROM games WHERE status = 'finished'").fetchone()[0]

    check = subprocess.run(
        [sys.executable, "-m", "bot.store", "verify", "--db", db],
        capture_output=True,
        text=True,
        env=env,
        cwd=ROOT,
    )
    assert check.returncode == 0, check.stdout + check.stderr
    summary = check.stdout.splitlines()[-1]
    assert summary.endswith(", 0 mismatched"), summary

    # The ratings went in with the moves that ended the games: each finished game is rated (its three seats
    # are people's), none twice, and recomputing them all from the games gives the very same numbers.
    def league_rows(store: Store) -> list[list[tuple[object, ...]]]:
        with store.backend.read() as tx:
            return [
                tx.execute(f"SELECT * FROM {table} ORDER BY {order}").fetchall()
                for table, order in (("ratings", "season, edition, user_id"), ("league_games", "game_id"),
                                     ("rating_changes", "game_id, edition, user_id"), ("seasons", "number"))
            ]  # fmt: skip

    with Store(db) as store:
        with store.backend.read() as tx:
            ended = [r[0] for r in tx.execute("SELECT id FROM games WHERE status = 'finished' ORDER BY id")]
            rated = [r[0] for r in tx.execute("SELECT game_id FROM league_games ORDER BY game_id")]
            games = tx.execute("SELECT sum(games) FROM ratings WHERE edition = '' AND user_id = 101").fetchone()[0]
        assert len(ended) == finished and rated == ended and games == len(ended)
        written = league_rows(store)
        store.rerate()
        assert league_rows(store) == written


if __name__ == "__main__" and sys.argv[1:2] == ["worker"]:
    sys.path.insert(0, str(ROOT))
    worker(sys.argv[2], int(sys.argv[3]))

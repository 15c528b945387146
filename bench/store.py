"""Storage figures: time per applied action, start-up with 1,000 open games, bytes per 300-turn game.

    python bench/store.py            # one JSON line on stdout, details on stderr

Runs in a temporary directory with the store's defaults (WAL, synchronous=NORMAL unless TURISTA_DB_SYNC says
otherwise); the time per action with synchronous=FULL (an fsync each) goes to stderr beside the details.
`action_median_ms_postgresql` is the same action on a PostgreSQL server on this machine (a throwaway one,
durable commits: fsync on), through a loopback connection; it is left out where no server can be started.
"""

from __future__ import annotations

import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

# The repository first: bench/ (the script's own folder, first on sys.path) holds an engine.py of its own.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bot.store import Store, default_synchronous  # noqa: E402
from devkit.pgcluster import ClusterUnavailable, ThrowawayCluster  # noqa: E402
from devkit.synthetic import choose  # noqa: E402

EDITIONS = ("turismundo", "mundial", "monopolio")


def sample_game(
    store: Store,
    channel: int,
    rng: random.Random,
    max_turns: int,
    seats: Sequence[tuple[int | None, str, str]] | None = None,
    *,
    guild: int = 1,
) -> tuple[int, engine.State]:
    """A game started in `store` in `channel`: its edition and seed drawn from `rng`, and `seats` (user id, name,
    computer level: None and a level for a computer), else two to four people drawn from `rng`."""
    if seats is None:
        seats = [(100 + i, name, "") for i, name in enumerate(["Ana", "Beto", "Cata", "Dani"][: rng.randint(2, 4)])]
    settings = {"max_turns": max_turns}
    gid = store.create_game(guild, channel, seats[0][0] or 100, rng.choice(EDITIONS), settings, rng.randrange(2**31))
    for user_id, name, computer in seats:
        store.add_seat(gid, user_id, name, computer)
    game = store.game(gid)
    state, events = engine.new_game(
        game.edition, [name for _, name, _ in seats], game.seed, game.engine_settings(), [c for _, _, c in seats]
    )
    store.start_game(gid, state, events)
    return gid, state


def action_times(
    folder: Path, synchronous: str | None = None, actions: int = 3000, db: str | None = None
) -> list[float]:
    """Seconds per `Store.apply` (log row + snapshot, committed), over games played by the random policy."""
    rng = random.Random(1)
    times: list[float] = []
    with Store(db or folder / f"actions-{synchronous}.db", synchronous=synchronous) as store:
        channel = 0
        while len(times) < actions:
            channel += 1
            gid, state = sample_game(store, channel, rng, max_turns=200)
            while len(times) < actions and (action := choose(state, rng)) is not None:
                new, events = engine.apply(state, action)
                start = time.perf_counter()
                store.apply(gid, state.version, 100 + max(action.seat, 0), action, events, new)
                times.append(time.perf_counter() - start)
                state = new
    return times


def load_time(folder: Path, games: int = 1000) -> float:
    """Seconds from opening the file to holding every open game's decoded state and seats."""
    rng = random.Random(2)
    path = folder / "load.db"
    with Store(path, synchronous="OFF") as store:  # filling only: durability is not what is measured
        for channel in range(games):
            gid, state = sample_game(store, channel, rng, max_turns=0)
            for _ in range(rng.randint(0, 60)):
                action = choose(state, rng)
                if action is None:
                    break
                new, events = engine.apply(state, action)
                store.apply(gid, state.version, None, action, events, new)
                state = new
    start = time.perf_counter()
    with Store(path) as store:
        loaded = store.open_games()
        states = [g.state for g in loaded]
    elapsed = time.perf_counter() - start
    assert len(states) == games and all(s is not None for s in states)
    return elapsed


def bytes_per_game(folder: Path, games: int = 4, turns: int = 300) -> tuple[float, list[int]]:
    """File growth per game played to `turns` turns (games that end sooner by bankruptcy are replaced)."""
    rng = random.Random(3)
    path = folder / "size.db"
    with Store(path) as store:
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        empty = path.stat().st_size
        kept: list[int] = []
        channel = 0
        while len(kept) < games:
            channel += 1
            gid, state = sample_game(store, channel, rng, max_turns=turns)
            while (action := choose(state, rng)) is not None:
                new, events = engine.apply(state, action)
                store.apply(gid, state.version, None, action, events, new)
                state = new
            if state.turn >= turns:
                kept.append(state.version)
            else:
                store.db.execute("DELETE FROM games WHERE id = ?", [gid])
        store.db.execute("VACUUM")
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = path.stat().st_size
    return (size - empty) / games, kept


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        times = sorted(action_times(folder))
        full = sorted(action_times(folder, "FULL", actions=1000))
        load_s = load_time(folder)
        per_game, actions = bytes_per_game(folder)
        try:
            with ThrowawayCluster(durable=True) as cluster:
                server = sorted(action_times(folder, db=cluster.new_schema()))
        except ClusterUnavailable as exc:
            print(f"no PostgreSQL figure: {exc}", file=sys.stderr)
            server = []
    median = statistics.median(times) * 1000
    p95 = times[int(len(times) * 0.95)] * 1000
    print(
        f"{len(times)} actions timed (synchronous={default_synchronous()}); with FULL: median"
        f" {statistics.median(full) * 1000:.3f} ms, p95 {full[int(len(full) * 0.95)] * 1000:.3f} ms;"
        f" 300-turn games of {actions} actions",
        file=sys.stderr,
    )
    print(
        json.dumps(
            {
                "action_median_ms": round(median, 3),
                "action_p95_ms": round(p95, 3),
                "load_1000_games_s": round(load_s, 3),
                "db_bytes_per_game_300_turns": round(per_game),
                **({"action_median_ms_postgresql": round(statistics.median(server) * 1000, 3),
                    "action_p95_ms_postgresql": round(server[int(len(server) * 0.95)] * 1000, 3)} if server else {}),
            }
        )
    )


if __name__ == "__main__":
    main()

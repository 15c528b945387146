"""The league's reads with 10,000 finished games in one server: how long the ranking and a profile take.

    python bench/league.py [--games 10000] [--people 60] [--calls 200] [--no-postgresql]

Builds a SQLite file in a temporary folder: GAMES games in one guild, each with two to four people drawn from
PEOPLE and now and then a computer, played by the random-but-legal policy (devkit.synthetic) to a short turn
limit, each rated by the move that ends it, as the bot's games are. The reads depend on how many games there
are and who played them, not on how long each was, so short games build the database in minutes.

Then, on that file, each read is called CALLS times in turn: the season's ranking, one edition's ranking, the
profile of the person with most games (the heaviest), of a person drawn at random, and the ten last games.
One JSON line on stdout: the median and 95th percentile of each in milliseconds (wall clock, one thread).
With a PostgreSQL server on this machine (`devkit/pgcluster.py`, durable) the same database is copied
there (`Store.backup`), analysed, and timed too. Details (build time, `rerate` of the whole guild) go to stderr.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

# The repository first: bench/ (the script's own folder, first on sys.path) holds an engine.py of its own.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import engine  # noqa: E402
from bench.store import sample_game  # noqa: E402
from bot.store import Store  # noqa: E402
from devkit.pgcluster import ClusterUnavailable, ThrowawayCluster  # noqa: E402
from devkit.synthetic import choose  # noqa: E402

GUILD = 1
MAX_TURNS = 6
LEVELS = ("facil", "normal", "dificil")


def build(path: Path, games: int, people: int, seed: int = 1) -> None:
    """`games` finished games in one guild, every one rated as it ends."""
    rng = random.Random(seed)
    pool = list(range(1000, 1000 + people))
    # Some people play far more than others, as in a real server.
    weights = [1 / (k + 1) ** 0.7 for k in range(people)]
    with Store(path, synchronous="OFF") as store:  # filling only: durability is not what is measured
        for channel in range(games):
            players: set[int] = set()
            while len(players) < rng.randint(2, 4):
                players.add(rng.choices(pool, weights)[0])
            seats: list[tuple[int | None, str, str]] = [(u, f"Player {u}", "") for u in sorted(players)]
            if rng.random() < 0.3:
                seats.append((None, "Computer", rng.choice(LEVELS)))
            rng.shuffle(seats)
            gid, state = sample_game(store, channel, rng, MAX_TURNS, seats, guild=GUILD)
            while (action := choose(state, rng)) is not None:
                new, events = engine.apply(state, action)
                store.apply(gid, state.version, None, action, events, new)
                state = new


def timed(call: Callable[[], object], calls: int) -> tuple[float, float]:
    """Median and 95th percentile of `calls` calls, in milliseconds."""
    times = []
    for _ in range(calls):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    times.sort()
    return statistics.median(times) * 1000, times[int(len(times) * 0.95)] * 1000


def measure(store: Store, calls: int, seed: int = 2) -> dict[str, float]:
    rng = random.Random(seed)
    table = store.ranking(GUILD)
    everyone = table.ranked + table.provisional
    busiest = max(everyone, key=lambda r: r.games).user_id
    reads: dict[str, Callable[[], object]] = {
        "ranking": lambda: store.ranking(GUILD),
        "ranking_edition": lambda: store.ranking(GUILD, edition="mundial"),
        "profile_busiest": lambda: store.profile(GUILD, busiest),
        "profile_random": lambda: store.profile(GUILD, rng.choice(everyone).user_id),
        "last_games": lambda: store.last_games(GUILD, 10),
    }
    for read in reads.values():  # warm: the first call of each opens connections and fills caches
        read()
    figures: dict[str, float] = {}
    for name, read in reads.items():
        median, p95 = timed(read, calls)
        figures[f"{name}_median_ms"] = round(median, 3)
        figures[f"{name}_p95_ms"] = round(p95, 3)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--people", type=int, default=60)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--no-postgresql", action="store_true", help="only SQLite")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "league.db"
        start = time.perf_counter()
        build(path, args.games, args.people)
        built = time.perf_counter() - start
        with Store(path) as store:
            table = store.ranking(GUILD)
            rated = sum(s.games for s in store.seasons(GUILD))
            print(
                f"{args.games} games built in {built:.0f} s; {rated} rated; {len(table.ranked)} people ranked,"
                f" {len(table.provisional)} provisional; most games: {max(r.games for r in table.ranked)}",
                file=sys.stderr,
            )
            figures = {"games": args.games, **measure(store, args.calls)}
            start = time.perf_counter()
            store.rerate(GUILD)
            print(f"rerate of the guild: {time.perf_counter() - start:.1f} s", file=sys.stderr)
            if not args.no_postgresql:
                try:
                    with ThrowawayCluster(durable=True) as cluster:
                        url = cluster.new_schema()
                        store.backup(url)
                        with Store(url) as server:
                            # A running server's autovacuum analyses the copied tables soon after; its plans
                            # are the ones to measure.
                            with server.backend.write() as tx:
                                tx.execute("ANALYZE")
                            figures.update({f"{k.replace('_ms', '')}_ms_postgresql": v
                                            for k, v in measure(server, args.calls).items()})  # fmt: skip
                except ClusterUnavailable as exc:
                    print(f"no PostgreSQL figure: {exc}", file=sys.stderr)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

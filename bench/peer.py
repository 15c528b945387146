"""Side by side: player turns per second of another pure-Python Monopoly simulator, measured like ours.

    python bench/peer.py PATH [--games 300] [--seed 0] [--runs 3]

PATH is a checkout of https://github.com/gamescomputersplay/monopoly (four players, its default settings:
fewer rules than ours, no auctions or legality checks). Its games run one after another in this process,
with its game log off and its bankruptcy log kept in memory (no file is written inside the timed loop).
A player turn is one call of its `Player.make_a_move` by the game loop (a double's extra roll inside it is
the same turn, as in our engine). One JSON line: {"games", "turns_per_second", "turns_per_second_runs",
"turns_mean"}, rates per second of this process's CPU time, the median of `--runs` runs of the same games.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("path", type=Path)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--runs", type=int, default=3)
    a = p.parse_args()
    sys.path.insert(0, str(a.path.resolve()))
    from monopoly.core import game  # type: ignore[import-not-found]
    from monopoly.core.player import Player  # type: ignore[import-not-found]
    from monopoly.log import Log  # type: ignore[import-not-found]
    from monopoly.log_settings import LogSettings  # type: ignore[import-not-found]

    LogSettings.KEEP_GAME_LOG = False
    Log.save = lambda self: None  # its logs stay in memory: no file writes in the timed loop

    turns = 0
    depth = 0
    make_a_move = Player.make_a_move

    def counted(self: object, *args: object) -> object:
        # The game loop's call is a player turn; the call a double makes from inside it is not.
        nonlocal turns, depth
        if depth == 0 and not self.is_bankrupt:  # type: ignore[attr-defined]
            turns += 1
        depth += 1
        try:
            return make_a_move(self, *args)
        finally:
            depth -= 1

    Player.make_a_move = counted
    master = random.Random(a.seed)
    seeds = [(i + 1, master.getrandbits(32)) for i in range(a.games)]
    rates: list[float] = []
    for _ in range(a.runs):
        turns = 0
        started = time.process_time()
        for pair in seeds:
            game.monopoly_game(pair)
        rates.append(turns / (time.process_time() - started))
    line = {
        "games": a.games,
        "turns_per_second": round(sorted(rates)[len(rates) // 2]),
        "turns_per_second_runs": [round(r) for r in rates],
        "turns_mean": round(turns / a.games, 1),
    }
    print(json.dumps(line), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""A fingerprint of whole simulated games: proof that a speed-up left every game as it was.

    python bench/fingerprint.py [--games 200] [--seed 1] [--levels normal] [--players 4]

Plays `--games` games per edition with computer seats (as `python -m engine.simulate` does) and prints one
JSON line per edition: the games, their player turns and actions in total, and a SHA-256 over every
game's final state (its JSON) and action count. Run it before and after a change that must not change
play: equal digests mean every game ended in the same state after the same actions.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.edition import available  # noqa: E402
from engine.rules import new_game  # noqa: E402
from engine.simulate import NAMES, game_seed, play, seat_levels  # noqa: E402
from engine.state import Settings, to_json  # noqa: E402


def fingerprint(edition: str, games: int, seed: int, levels: tuple[str, ...], players: int) -> dict:
    digest = hashlib.sha256()
    turns = actions = 0
    for game in range(games):
        st, _ = new_game(
            edition, list(NAMES[:players]), seed=game_seed(seed, game), settings=Settings(max_turns=2000),
            computers=seat_levels(levels, players, game),
        )  # fmt: skip
        result = play(st)
        turns += result.turns
        actions += result.actions
        digest.update(to_json(st))
        digest.update(result.actions.to_bytes(8, "little"))
    return {"edition": edition, "games": games, "turns": turns, "actions": actions, "sha256": digest.hexdigest()}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=200)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--levels", default="normal")
    p.add_argument("--editions", default=",".join(available()))
    a = p.parse_args()
    for edition in a.editions.split(","):
        print(json.dumps(fingerprint(edition, a.games, a.seed, tuple(a.levels.split(",")), a.players)), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

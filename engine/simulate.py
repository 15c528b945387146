"""Whole games played headless by computer players, fast: for balance figures, benchmarks and landing
statistics.

    python -m engine.simulate --edition turismundo --players 4 --games 200 --seed 7 --json

Each game is played by `engine.driver.play` (its `Driver` decides who acts and asks `engine.ai` for the move);
this module runs many and sums them up.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from engine.ai import JAIL_POLICIES, LEVELS
from engine.driver import (  # the inner loop, compiled in a compiled build (a `python -m` module cannot be)
    ACTIONS_PER_TURN_LIMIT,
    CLOSE_AUCTION,
    DEFAULT_MAX_TURNS,
    NAMES,
    Driver,
    GameResult,
    Landing,
    game_seed,
    play,
    seat_levels,
)
from engine.edition import available
from engine.rules import new_game
from engine.state import Settings

__all__ = [
    "ACTIONS_PER_TURN_LIMIT",
    "CLOSE_AUCTION",
    "DEFAULT_MAX_TURNS",
    "NAMES",
    "Driver",
    "GameResult",
    "Landing",
    "Options",
    "game_seed",
    "main",
    "parse_args",
    "play",
    "run",
    "seat_levels",
    "summary",
]


@dataclass
class Options:
    edition: str = "turismundo"
    players: int = 4
    games: int = 100
    seed: int = 0
    max_turns: int = DEFAULT_MAX_TURNS
    jail: str = "short"
    levels: tuple[str, ...] = ("normal",)
    landing: bool = False


def run(opts: Options) -> dict:
    """Play `opts.games` games; the figures printed by the command line, as a dict."""
    wins_by_seat = [0] * opts.players
    wins_by_level = dict.fromkeys(opts.levels, 0)
    seats_by_level = dict.fromkeys(opts.levels, 0)
    reasons: dict[str, int] = {}
    landing = Landing() if opts.landing else None
    turns = actions = 0
    settings = Settings(max_turns=opts.max_turns)
    names = list(NAMES[: opts.players])
    started = time.perf_counter()
    cpu_started = time.process_time()
    for game in range(opts.games):
        levels = seat_levels(opts.levels, opts.players, game)
        st, _ = new_game(opts.edition, names, seed=game_seed(opts.seed, game), settings=settings, computers=levels)
        result = play(st, opts.jail, landing)
        turns += result.turns
        actions += result.actions
        reasons[result.reason] = reasons.get(result.reason, 0) + 1
        wins_by_seat[result.winner] += 1
        wins_by_level[levels[result.winner]] += 1
        for level in levels:
            seats_by_level[level] += 1
    seconds = time.perf_counter() - started
    cpu_seconds = time.process_time() - cpu_started
    games = opts.games
    out: dict = {
        "edition": opts.edition,
        "players": opts.players,
        "seed": opts.seed,
        "levels": list(opts.levels),
        "jail": opts.jail,
        "max_turns": opts.max_turns,
        "games": games,
        "finished_by_bankruptcy": reasons.get("bankruptcy", 0),
        "finished_by_turn_limit": reasons.get("turn_limit", 0),
        "bankruptcy_share": reasons.get("bankruptcy", 0) / games,
        "turns_mean": turns / games,
        "actions_mean": actions / games,
        "wins_by_seat": wins_by_seat,
        # Wins per seat played: 1 / players for every level when they are equally strong.
        "win_rate_by_level": {lv: wins_by_level[lv] / seats_by_level[lv] * opts.players for lv in opts.levels},
        "wins_by_level": wins_by_level,
        "seconds": round(seconds, 3),
        # On a busy machine the CPU time of this process is the truer measure of one core's speed.
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_second": games / seconds,
        "turns_per_second": turns / seconds,
        "actions_per_second": actions / seconds,
    }
    if landing is not None:
        shares, in_jail = landing.shares()
        out["landing"] = shares
        out["in_jail"] = in_jail
        out["rolls"] = landing.rolls
    return out


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # type: ignore[override]
        # One line on stderr and status 2, instead of argparse's usage block.
        self.exit(2, f"{self.prog}: error: {message}\n")


def _count(minimum: int) -> Callable[[str], int]:
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be at least {minimum}: {value}")
        return value

    return parse


# The levels by the English names the bot's commands show ("easy", "hard"); a level's own name may be typed with
# its accent and in capitals too (`Difícil`), as the bot's choices read it.
LEVEL_NAMES: Final = {"easy": "facil", "hard": "dificil"}


def _level(typed: str) -> str | None:
    plain = "".join(c for c in unicodedata.normalize("NFKD", typed.strip().casefold()) if not unicodedata.combining(c))
    plain = LEVEL_NAMES.get(plain, plain)
    return plain if plain in LEVELS else None


def _levels(text: str) -> tuple[str, ...]:
    typed = [x.strip() for x in text.split(",") if x.strip()]
    levels = tuple(_level(x) for x in typed)
    unknown = [x for x, level in zip(typed, levels, strict=True) if level is None]
    known = ", ".join(next((f"{lv} ({en})" for en, v in LEVEL_NAMES.items() if v == lv), lv) for lv in LEVELS)
    if not typed:
        raise argparse.ArgumentTypeError(f"no level in {text!r} (known: {known})")
    if unknown:
        what = "unknown level" if len(unknown) == 1 else "unknown levels"
        raise argparse.ArgumentTypeError(f"{what} {', '.join(map(repr, unknown))} (known: {known})")
    return tuple(level for level in levels if level is not None)


def parse_args(argv: Sequence[str] | None = None, prog: str = "python -m engine.simulate") -> tuple[Options, bool]:
    """The options of a run and whether to print JSON; bad arguments exit with status 2."""
    p = _Parser(prog=prog, description="Play whole games with computer players.")
    p.add_argument("--edition", default="turismundo", help=f"one of: {', '.join(available())}")
    p.add_argument("--players", type=_count(2), default=4, help="seats, 2 to 6")
    p.add_argument("--games", type=_count(1), default=100)
    p.add_argument("--seed", type=_count(0), default=0, help="game i plays with a seed mixed from (seed, i)")
    p.add_argument(
        "--max-turns",
        type=_count(1),
        default=DEFAULT_MAX_TURNS,
        help="a game that reaches this many player turns ends by net worth",
    )
    p.add_argument("--jail", choices=JAIL_POLICIES, default="short", help="short: pay or use the card at once")
    p.add_argument("--levels", type=_levels, default=("normal",),
                   help="comma list repeated over the seats: facil (easy), normal, dificil (hard)")
    p.add_argument("--landing", action="store_true", help="also count where tokens rest after each roll")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    a = p.parse_args(argv)
    if a.edition not in available():
        p.error(f"unknown edition {a.edition!r} (known: {', '.join(available())})")
    if a.players > 6:
        p.error(f"argument --players: must be at most 6: {a.players}")
    return Options(a.edition, a.players, a.games, a.seed, a.max_turns, a.jail, a.levels, a.landing), a.json


def summary(out: dict) -> str:
    games = out["games"]
    lines = [
        f"{games} games of {out['edition']} with {out['players']} computer seats ({', '.join(out['levels'])}), "
        f"jail {out['jail']}, seed {out['seed']}",
        f"  ended by bankruptcy: {out['finished_by_bankruptcy']} ({out['bankruptcy_share']:.1%}), "
        f"by the {out['max_turns']}-turn limit: {out['finished_by_turn_limit']}",
        f"  turns per game: {out['turns_mean']:.1f}, actions per game: {out['actions_mean']:.1f}",
        "  wins by seat: " + ", ".join(f"{s + 1}: {w}" for s, w in enumerate(out["wins_by_seat"])),
    ]
    if len(out["levels"]) > 1:
        lines.append(
            "  win rate per seat played (1.00 = fair share): "
            + ", ".join(f"{lv} {r:.2f}" for lv, r in out["win_rate_by_level"].items())
        )
    lines.append(
        f"  {out['seconds']:.2f} s: {out['games_per_second']:.1f} games/s, {out['turns_per_second']:,.0f} turns/s, "
        f"{out['actions_per_second']:,.0f} actions/s"
    )
    if "landing" in out:
        ranked = sorted(range(40), key=lambda i: -out["landing"][i])[:10]
        lines.append(f"  in jail after {out['in_jail']:.2%} of {out['rolls']:,} rolls; most visited squares:")
        lines.append("    " + ", ".join(f"{i}: {out['landing'][i]:.2%}" for i in ranked))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None, prog: str = "python -m engine.simulate") -> int:
    opts, as_json = parse_args(argv, prog)
    out = run(opts)
    print(json.dumps(out) if as_json else summary(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())

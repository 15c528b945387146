"""Whole games played headless by computer players, fast: for balance figures, benchmarks and landing
statistics.

    python -m engine.simulate --edition turismundo --players 4 --games 200 --seed 7 --json

Each game is driven with `apply_inplace`; `Driver` decides who acts (the debtor, the target of a trade offer,
the bidders of an auction in rotation, else the current seat) and asks `engine.ai.choose` for the move.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from engine import rng
from engine.actions import Action, IllegalAction
from engine.ai import JAIL_POLICIES, LEVELS, ROLL, choose, plan
from engine.edition import available
from engine.rules import Game, apply_inplace, apply_quietly, new_game, quiet_game
from engine.state import Auction, Settings, State

DEFAULT_MAX_TURNS = 2000
# A game that needs more actions than this per turn allowed is stuck: that is a bug, never a result.
ACTIONS_PER_TURN_LIMIT = 200
NAMES = ("Ana", "Beto", "Carla", "Diego", "Elena", "Fausto")
CLOSE_AUCTION = Action(kind="close_auction")


class Driver:
    """Picks the next action of a game played by computers only (planned moves: `apply` checks them).

    Auctions are visited in rotation among the seats still bidding, starting after the last one that acted;
    when none of them has anything to do (the leader waits), the auction is closed as the bot would after
    its quiet period.
    """

    __slots__ = ("jail", "_auction", "_cursor")

    def __init__(self, jail: str = "short") -> None:
        self.jail = jail
        self._auction: Auction | None = None
        self._cursor = 0

    def next_action(self, st: State) -> Action | None:
        """The next action to apply, or None when the game is over."""
        if st.phase == "over":
            return None
        seats = st.seats
        if st.trade is not None and not st.debts:
            target = st.trade.target
            action = plan(st, target, seats[target].computer, self.jail)
            if action is not None:
                return action
        if st.debts or st.lift is not None:
            seat = st.seat_to_act()[0]
            action = plan(st, seat, seats[seat].computer, self.jail)
            if action is None:
                raise RuntimeError(f"no move for the debtor or creditor {seat} at version {st.version}")
            return action
        au = st.auction
        if au is not None:
            return self._bid(st, au)
        current = st.current
        action = plan(st, current, seats[current].computer, self.jail)
        if action is None:
            raise RuntimeError(f"no move for the current seat {current} at version {st.version}")
        return action

    def _bid(self, st: State, au: Auction) -> Action:
        if au is not self._auction:
            self._auction = au
            self._cursor = 0
        active = au.active
        n = len(active)
        for k in range(n):
            i = (self._cursor + k) % n
            seat = active[i]
            action = plan(st, seat, st.seats[seat].computer, self.jail)
            if action is not None:
                # After a pass the list shrinks and the next bidder slides into this index.
                self._cursor = i if action.kind == "pass_bid" else i + 1
                return action
        return CLOSE_AUCTION


@dataclass
class Landing:
    """Where tokens rest after each roll that moves them (or tries to leave jail)."""

    squares: list[int] = field(default_factory=lambda: [0] * 40)
    in_jail: int = 0
    rolls: int = 0

    def count(self, st: State, seat: int, was_jailed: bool, events: list[dict]) -> None:
        if not was_jailed and not any(e["code"] in ("moved", "sent_to_jail") for e in events):
            return  # a lost turn: the dice moved nothing
        self.rolls += 1
        me = st.seats[seat]
        if me.jailed:
            self.in_jail += 1
        else:
            self.squares[me.pos] += 1

    def shares(self) -> tuple[list[float], float]:
        total = self.rolls or 1
        return [n / total for n in self.squares], self.in_jail / total


@dataclass
class GameResult:
    turns: int
    actions: int
    winner: int
    reason: str
    levels: list[str]


def _apply(st: State, g: Game | None, action: Action) -> list[dict]:
    try:
        return apply_quietly(g, action) if g is not None else apply_inplace(st, action)
    except IllegalAction:
        # A planned move the rules refuse: take the checked choice of the same seat (never expected).
        safe = choose(st, action.seat, st.seats[action.seat].computer) if action.seat >= 0 else None
        if safe is None:
            raise
        return apply_inplace(st, safe)


def play(st: State, jail: str = "short", landing: Landing | None = None, max_actions: int = 0) -> GameResult:
    """Play `st` (every seat a computer) to its end, in place."""
    driver = Driver(jail)
    limit = max_actions or ACTIONS_PER_TURN_LIMIT * max(st.settings.max_turns or DEFAULT_MAX_TURNS, 100)
    actions = 0
    events: list[dict] = []
    # Without landing statistics no event is read but the last one: the game is played quietly.
    g = quiet_game(st) if landing is None else None
    seats = st.seats
    while True:
        if (
            g is not None
            and st.phase == "roll"
            and not st.debts
            and st.auction is None
            and st.trade is None
            and st.lift is None
            and not seats[st.current].jailed
        ):
            # The commonest move, the one every computer makes here (`engine.ai.plan`); legal as it stands
            # (`engine.legal`: the current seat rolls when nothing is pending), so it is not checked again.
            events = apply_quietly(g, ROLL[st.current], checked=True)
        else:
            action = driver.next_action(st)
            if action is None:
                break
            if landing is not None and action.kind == "roll" and st.phase == "roll":
                was_jailed = st.seats[action.seat].jailed
                events = _apply(st, g, action)
                landing.count(st, action.seat, was_jailed, events)
            else:
                events = _apply(st, g, action)
        actions += 1
        if actions > limit:
            raise RuntimeError(f"game seed {st.seed} still running after {actions} actions (turn {st.turn})")
    reason = next((e["reason"] for e in events if e["code"] == "game_over"), "unknown")
    return GameResult(st.turn, actions, st.winner, reason, [s.computer for s in st.seats])


def game_seed(seed: int, game: int) -> int:
    """The seed of game number `game` of a run: a SplitMix64 mix of (`seed`, `game`), so that runs with
    different seeds play unrelated games (seed + game would share all but one game between seeds 3 and 4).
    63 bits, so it also fits a signed 64-bit column."""
    return rng.draw(seed, game) >> 1


def seat_levels(levels: Sequence[str], players: int, game: int) -> list[str]:
    """The level of each seat in game number `game`: `levels` repeated, rotated by one seat per game so that
    no level keeps the same seat."""
    n = len(levels)
    return [levels[(s + game) % n] for s in range(players)]


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


def _levels(text: str) -> tuple[str, ...]:
    levels = tuple(x.strip() for x in text.split(",") if x.strip())
    unknown = [x for x in levels if x not in LEVELS]
    if not levels or unknown:
        raise argparse.ArgumentTypeError(f"unknown level {', '.join(unknown) or text!r} (known: {', '.join(LEVELS)})")
    return levels


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
    p.add_argument("--levels", type=_levels, default=("normal",), help="comma list repeated over the seats")
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

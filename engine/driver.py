"""Playing one game with computer seats to its end: the simulator's inner loop (`engine.simulate` runs many).

`Driver` decides who acts (the debtor, the target of a trade offer, the bidders of an auction in rotation,
else the current seat) and asks `engine.ai.plan` for the move; `play` applies the moves quietly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from engine import rng
from engine.actions import Action, IllegalAction
from engine.ai import END_TURN, ROLL, Look, Rents, choose, plan
from engine.rules import Game, apply_inplace, apply_quietly, quiet_game
from engine.state import Auction, State

DEFAULT_MAX_TURNS: Final = 2000
# A game that needs more actions than this per turn allowed is stuck: that is a bug, never a result.
ACTIONS_PER_TURN_LIMIT: Final = 200
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

    def next_action(self, st: State, look: Look | None = None) -> Action | None:
        """The next action to apply, or None when the game is over. `look`: the state's fields as read since
        its last change (`engine.ai.Look`), if the caller has them."""
        if look is None:
            look = Look(st)
        if look.phase == "over":
            return None
        seats = look.seats
        trade = look.trade
        debts = look.debts
        if trade is not None and not debts:
            target = trade.target
            action = plan(st, target, seats[target].computer, self.jail, look)
            if action is not None:
                return action
        lift = look.lift
        if debts or lift is not None:
            seat = debts[0].debtor if debts or lift is None else lift.seat  # State.seat_to_act
            action = plan(st, seat, seats[seat].computer, self.jail, look)
            if action is None:
                raise RuntimeError(f"no move for the debtor or creditor {seat} at version {st.version}")
            return action
        au = look.auction
        if au is not None:
            return self._bid(st, au, look)
        current = look.current
        action = plan(st, current, seats[current].computer, self.jail, look)
        if action is None:
            raise RuntimeError(f"no move for the current seat {current} at version {st.version}")
        return action

    def _bid(self, st: State, au: Auction, look: Look) -> Action:
        if au is not self._auction:
            self._auction = au
            self._cursor = 0
        active = au.active
        n = len(active)
        seats = look.seats
        for k in range(n):
            i = (self._cursor + k) % n
            seat = active[i]
            action = plan(st, seat, seats[seat].computer, self.jail, look)
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
    rents = Rents()  # the board's rents, kept for this game
    while True:
        # The state's fields every decision reads, read once per action (see `engine.ai.Look`).
        look = Look(st, rents)
        phase = look.phase
        current = look.current
        pending = bool(look.debts) or look.auction is not None or look.lift is not None
        if g is not None and phase == "roll" and not pending and look.trade is None and not seats[current].jailed:
            # The commonest move, the one every computer makes here (`engine.ai.plan`); legal as it stands
            # (`engine.legal`: the current seat rolls when nothing is pending), so it is not checked again.
            events = apply_quietly(g, ROLL[current], checked=True)
        else:
            action = driver.next_action(st, look)
            if action is None:
                break
            if landing is not None and action.kind == "roll" and phase == "roll":
                was_jailed = st.seats[action.seat].jailed
                events = _apply(st, g, action)
                landing.count(st, action.seat, was_jailed, events)
            elif (
                g is not None and phase == "end" and action is END_TURN[current] and not pending
                and not seats[current].out
            ):  # fmt: skip
                # The other move every computer makes once a turn (`engine.ai` answers it with this very
                # action), legal as it stands (`engine.legal`: the current seat ends its turn in the "end"
                # phase when nothing is pending), not checked again.
                events = apply_quietly(g, action, checked=True)
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

"""Plausible games without players: a random-but-legal policy for the benchmark and the crash tests."""

from __future__ import annotations

import random

import engine

# How often a kind is picked among the legal actions: mostly the flow of a real evening (roll, buy, end
# the turn, pass in auctions), with the occasional build, mortgage or trade answer. Trade proposals
# and withdrawals are left out: they need choices a person makes.
WEIGHTS: dict[str, float] = {
    "roll": 10,
    "buy": 8,
    "end_turn": 5,
    "pass_bid": 4,
    "use_card": 3,
    "build": 2,
    "pay_fine": 2,
    "decline": 1,
    "bid": 1,
    "accept_trade": 1,
    "reject_trade": 1,
    "cancel_trade": 1,
    "mortgage": 0.3,
    "sell": 0.3,
    "unmortgage": 0.3,
    "take_loan": 0.2,
    "sell_title": 0.1,
    "bankrupt": 0.01,
}


def choose(state: engine.State, rng: random.Random) -> engine.Action | None:
    """A legal action for one of the seats the game waits for, None when the game is over."""
    candidates = [a for seat in state.seat_to_act() for a in engine.legal_actions(state, seat) if a.kind in WEIGHTS]
    if not candidates:
        # Only the bot can move the game on now (an auction whose last bidder holds the bid).
        close = engine.Action(kind="close_auction")
        if state.auction is not None and engine.refusal(state, close) is None:
            return close
        return None
    return rng.choices(candidates, [WEIGHTS[a.kind] for a in candidates])[0]

"""Plausible games without players: a random-but-legal policy for the benchmark and the crash tests, and whole
games played by the computer players and stored as the bot stores them (the league's tests and benchmarks)."""

from __future__ import annotations

import random

import engine
from bot.store import Store

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



def chosen_move(state: engine.State, rng: random.Random) -> tuple[engine.Action, list[dict], engine.State]:
    """`choose`'s action for a game that is not over, applied: the action, its events and the state after."""
    action = choose(state, rng)
    assert action is not None
    new, events = engine.apply(state, action)
    return action, events, new

Seat = tuple[int | None, str, str]  # (user id or None for a computer, name, computer level or "")


def stored_game(store: Store, guild_id: int, channel_id: int, seats: list[Seat], *, edition: str = "turismundo",
                turns: int = 150, seed: int = 1) -> int:
    """A game written to `store` as the bot writes one (lobby, seats, start, one `apply` per move), played to its
    end by the computer players of `engine.ai` for every seat, people's included (as if a computer stood in for
    each of them all along), over at the latest after `turns` turns. The move that ends it rates it, as in the
    bot. Returns its id."""
    from render.sample import chooser, next_move, simple_choice, waiting

    host = next((user for user, _, _ in seats if user is not None), 1)
    gid = store.create_game(guild_id, channel_id, host, edition, {"max_turns": turns}, seed)
    for user_id, name, computer in seats:
        store.add_seat(gid, user_id, name, computer)
    game = store.game(gid)
    state, events = engine.new_game(edition, [s.name for s in game.seats], seed, game.engine_settings(),
                                    [s.computer for s in game.seats])
    store.start_game(gid, state, events)
    pick = chooser()
    while state.phase != "over":
        action = next_move(state, pick) or simple_choice(state, waiting(state)[0])
        new, events = engine.apply(state, action)
        store.apply(gid, state.version, None, action, events, new)
        state = new
    return gid

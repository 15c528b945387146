"""Property-based playouts: thousands of random legal actions per edition, invariants after each one, and a
replay of the whole action list that must give the very same state."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st_
from invariants import check_step

from engine import SYSTEM, Action, Offer, Settings, State, Trade, apply, legal_actions, load, new_game, refusal
from engine.board import block_has_buildings, titles_of

EDITIONS = ("turismundo", "mundial", "monopolio")


def random_trade(st: State, seat: int, rnd: random.Random) -> Trade | None:
    others = [s for s in range(len(st.seats)) if s != seat and not st.seats[s].out]
    if not others:
        return None
    ed = load(st.edition)
    target = rnd.choice(others)

    def some_titles(owner: int) -> tuple[int, ...]:
        free = [i for i in titles_of(st, owner) if not block_has_buildings(st, ed, i)]
        return tuple(rnd.sample(free, k=min(len(free), rnd.randint(0, 2))))

    def offer(owner: int) -> Offer:
        cash = rnd.choice([0, 0, rnd.randint(0, max(0, st.seats[owner].cash // 3))])
        cards = tuple(st.seats[owner].jail_cards[:1]) if rnd.random() < 0.5 else ()
        return Offer(titles=some_titles(owner), cash=cash, cards=cards)

    trade = Trade(proposer=seat, target=target, give=offer(seat), take=offer(target))
    return trade if refusal(st, Action(kind="propose_trade", seat=seat, trade=trade)) is None else None


# How often each kind is drawn: enough buying and building to reach hotels, debts and bankruptcies, and
# rare enough giving up that games last.
WEIGHTS = {
    "roll": 6, "buy": 6, "decline": 1, "end_turn": 4, "bid": 2, "pass_bid": 3, "build": 5, "sell": 1,
    "mortgage": 1, "unmortgage": 1, "sell_title": 0.3, "take_loan": 1, "pay_fine": 1, "use_card": 1,
    "propose_trade": 0.4, "accept_trade": 2, "reject_trade": 1, "cancel_trade": 0.3, "bankrupt": 0.5,
    "withdraw": 0.002, "keep_mortgaged": 1, "title_to_bank": 0.5,
}  # fmt: skip


def pick(st: State, rnd: random.Random) -> Action:
    """A random legal action, weighted by kind; the seats the game waits for act most of the time."""
    roll = rnd.random()
    if st.auction is not None and roll < 0.03:
        return Action(kind="close_auction", seat=SYSTEM)
    if roll < 0.0005 and not st.ending:
        return Action(kind="time_up", seat=SYSTEM)
    waiting = st.seat_to_act()
    seats = waiting if rnd.random() < 0.8 else range(len(st.seats))
    pool = [a for s in seats for a in legal_actions(st, s)]
    if not pool:
        pool = [a for s in range(len(st.seats)) for a in legal_actions(st, s)]
    if not pool:
        return Action(kind="close_auction", seat=SYSTEM)
    by_kind: dict[str, list[Action]] = {}
    for x in pool:
        by_kind.setdefault(x.kind, []).append(x)
    kinds = sorted(by_kind)
    a = rnd.choice(by_kind[rnd.choices(kinds, weights=[WEIGHTS[k] for k in kinds])[0]])
    if a.kind == "propose_trade":
        trade = random_trade(st, a.seat, rnd)
        return Action(kind="propose_trade", seat=a.seat, trade=trade) if trade else pick(st, rnd)
    return a


def playout(edition: str, seed: int, steps: int, house: Settings) -> None:
    rnd = random.Random(seed)
    start, _ = new_game(edition, [f"S{i}" for i in range(2 + seed % 5)], seed=seed, settings=house)
    st = start
    actions: list[Action] = []
    for _ in range(steps):
        if st.phase == "over":
            break
        action = pick(st, rnd)
        new, events = apply(st, action)
        check_step(st, new, events)
        actions.append(action)
        st = new
    replay = start
    for action in actions:
        replay, _ = apply(replay, action)
    assert replay == st


house_rules = st_.builds(
    Settings,
    free_parking_pot=st_.booleans(),
    no_rent_in_jail=st_.booleans(),
    auction_only=st_.booleans(),
    staggered_start=st_.booleans(),
    deal_titles=st_.sampled_from([0, 0, 2]),
    end_at_bankruptcy=st_.sampled_from([0, 0, 2]),
    random_order=st_.booleans(),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 2**32), house=house_rules)
def test_turismundo_random_playouts_keep_invariants(seed: int, house: Settings) -> None:
    playout("turismundo", seed, 600, house)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 2**32), house=house_rules)
def test_mundial_random_playouts_keep_invariants(seed: int, house: Settings) -> None:
    playout("mundial", seed, 600, house)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st_.integers(0, 2**32), house=house_rules)
def test_monopolio_random_playouts_keep_invariants(seed: int, house: Settings) -> None:
    playout("monopolio", seed, 600, house)

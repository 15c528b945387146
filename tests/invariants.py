"""The invariants every reachable state keeps, checked after each action by the property-based tests."""

from __future__ import annotations

from engine import BANK, HOTEL, POT, State, from_json, load, to_json
from engine.board import rules
from engine.edition import TITLE_KINDS


def check_step(before: State, after: State, events: list[dict]) -> None:
    """Everything that must hold between two consecutive states."""
    assert after.version == before.version + 1
    # Money is conserved: every change of cash (and of the pot) is a transfer event.
    delta = {s: 0 for s in range(len(after.seats))}
    delta[POT] = 0
    for e in events:
        if e["code"] == "transfer":
            assert e["amount"] > 0
            if e["from"] != BANK:
                delta[e["from"]] -= e["amount"]
            if e["to"] != BANK:
                delta[e["to"]] += e["amount"]
    for s in range(len(after.seats)):
        assert after.seats[s].cash - before.seats[s].cash == delta[s], f"seat {s} cash moved without a transfer"
    assert after.pot - before.pot == delta[POT]
    check_state(after)


def check_state(st: State) -> None:
    ed = load(st.edition)
    n = len(st.seats)
    # Each title has exactly one owner (a seat in the game or the bank); other squares belong to nobody.
    for sq in ed.squares:
        owner = st.owner[sq.index]
        if sq.kind in TITLE_KINDS:
            assert owner == BANK or (0 <= owner < n and not st.seats[owner].out)
        else:
            assert owner == BANK and st.level[sq.index] == 0
        if owner == BANK:
            assert st.level[sq.index] == 0 and not st.mortgaged[sq.index]
        if st.mortgaged[sq.index]:
            assert st.level[sq.index] == 0
    # Buildings never exceed the bank's supply; blocks stay even where the rules say so.
    houses = sum(lv for lv in st.level if lv < HOTEL)
    hotels = sum(1 for lv in st.level if lv == HOTEL)
    assert st.bank_houses >= 0 and st.bank_hotels >= 0
    assert houses + st.bank_houses == ed.economy.houses
    assert hotels + st.bank_hotels == ed.economy.hotels
    even = rules(st, ed).even_building
    for block in ed.blocks.values():
        levels = [st.level[j] for j in block]
        assert not even or max(levels) - min(levels) <= 1, f"uneven block {block}: {levels}"
        if max(levels):
            assert len({st.owner[j] for j in block}) == 1
    # Nobody holds negative cash; a seat with cash enough for its first debt would have paid it.
    for seat in st.seats:
        assert seat.cash >= 0
        if seat.out:
            assert seat.cash == 0 and not seat.jail_cards
    if st.debts:
        head = st.debts[0]
        assert st.seats[head.debtor].cash < head.amount
    # A creditor's decision to lift inherited mortgages names its own mortgaged titles only.
    if st.lift is not None:
        assert not st.seats[st.lift.seat].out and st.lift.squares
        assert all(st.owner[i] == st.lift.seat and st.mortgaged[i] for i in st.lift.squares)
    # Cards: every card is in its deck or in one seat's hand, exactly once.
    for deck in ed.decks:
        held = [c for seat in st.seats for c in seat.jail_cards if any(c == k.id for k in deck.cards)]
        assert sorted(st.decks[deck.id] + held) == sorted(c.id for c in deck.cards)
    # The JSON round-trip is exact.
    assert from_json(to_json(st)) == st

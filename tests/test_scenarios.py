"""Multi-turn scenarios with rigged dice and decks: whole short games, chains of rules meeting each other, the
edges between auctions, debts, trades and the end of the game, and an exhaustive agreement check between
`legal_actions` and `apply`. Squares are those of `turismundo` unless named (see tests/test_rules.py)."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from invariants import check_state, check_step
from rulekit import act, codes, game, own, roll, stack_deck, transfers

from engine import (
    BANK,
    HOTEL,
    SYSTEM,
    Action,
    IllegalAction,
    Offer,
    Settings,
    State,
    Trade,
    apply,
    legal_actions,
    load,
    new_game,
)
from words import GAME, SILENT_TRANSFERS, describe

EDITIONS = ("turismundo", "mundial", "monopolio")


def step(st: State, kind: str, seat: int | None = None, **kw: object) -> tuple[State, list[dict]]:
    """`act`, checking every invariant between the two states."""
    new, events = act(st, kind, seat, **kw)
    check_step(st, new, events)
    return new, events


def throw(st: State, d1: int, d2: int, seat: int | None = None) -> tuple[State, list[dict]]:
    """`roll`, checking every invariant between the two states."""
    new, events = roll(st, d1, d2, seat)
    check_step(st, new, events)
    return new, events


def lay(st: State, seat: int, levels: dict[int, int]) -> State:
    """Give `seat` these squares with these buildings, taking them from the bank's supply."""
    ed = load(st.edition)
    for square, level in levels.items():
        st.owner[square] = seat
        st.level[square] = level
    st.bank_houses = ed.economy.houses - sum(lv for lv in st.level if lv < HOTEL)
    st.bank_hotels = ed.economy.hotels - sum(1 for lv in st.level if lv == HOTEL)
    check_state(st)
    return st


def pass_turn(st: State) -> tuple[State, list[dict]]:
    """Finish a filler turn: decline what is for sale (nobody bids) and end it; the events of ending it."""
    if st.phase == "buy":
        st, _ = step(st, "decline")
        st = pass_all(st)
    return step(st, "end_turn")


def pass_all(st: State) -> State:
    """Every seat still in the auction leaves it (the highest bidder cannot, and so wins)."""
    while st.auction is not None:
        au = st.auction
        seat = next(s for s in au.active if s != au.bidder)
        st, _ = step(st, "pass_bid", seat)
    return st


# -- whole games ----------------------------------------------------------------------------------------


def test_short_two_seat_game_with_known_dice_ends_in_bankruptcy() -> None:
    st = game(start_cash=20000)
    st, ev = throw(st, 3, 4)  # T1 P0: 7 Argentina
    assert st.phase == "buy" and "may_buy" in codes(ev)
    st, _ = step(st, "buy")
    st, _ = step(st, "end_turn")
    assert st.current == 1 and st.turn == 2 and st.seats[0].cash == 5000
    st, ev = throw(st, 2, 5)  # T2 P1: 7, rent
    assert transfers(ev, "rent")[0]["amount"] == 1500
    st, _ = step(st, "end_turn")
    st, ev = throw(st, 1, 2)  # T3 P0: 10 Deportado, sent to Groenlandia without salary, turn over
    assert st.seats[0].jailed and st.seats[0].pos == 30 and st.phase == "end" and not transfers(ev)
    st, _ = step(st, "end_turn")
    st, _ = throw(st, 6, 5)  # T4 P1: 18 Alemania, $20,000: cannot buy, the bank auctions it
    with pytest.raises(IllegalAction):
        act(st, "buy")
    st, _ = step(st, "decline")
    st, _ = step(st, "bid", 0, amount=6000)  # the seat in jail bids too
    st, ev = step(st, "pass_bid", 1)
    assert st.owner[18] == 0 and st.seats[0].cash == 500
    st, _ = step(st, "end_turn")
    st, ev = throw(st, 2, 3)  # T5 P0: first failed turn in jail
    assert codes(ev)[-1] == "jail_stay"
    st, _ = step(st, "end_turn")
    st, _ = throw(st, 4, 4)  # T6 P1: 26 China, a double; nobody bids
    st, _ = step(st, "decline")
    st = pass_all(st)
    assert st.owner[26] == BANK and st.current == 1 and st.phase == "roll"
    st, _ = throw(st, 1, 1)  # 28 Aduana after a second double
    st, ev = throw(st, 3, 5)  # customs: 8 is a green light; the double still earns a roll
    assert codes(ev) == ["customs_roll"] and st.phase == "roll"
    st, _ = throw(st, 1, 3)  # 32 Consulado
    st, _ = step(st, "buy")
    st, _ = step(st, "end_turn")
    st, _ = throw(st, 1, 2)  # T7 P0: second failed turn
    st, _ = step(st, "end_turn")
    st, _ = throw(st, 2, 4)  # T8 P1: 38 Argelia, cannot buy
    st, _ = step(st, "decline")
    st = pass_all(st)
    st, _ = step(st, "end_turn")
    st, ev = throw(st, 5, 3)  # T9 P0: third failed turn, the fine is owed and P0 moves to 38
    assert st.debts[0].amount == 5000 and st.seats[0].pos == 38 and not st.seats[0].jailed
    with pytest.raises(IllegalAction) as err:
        act(st, "decline")
    assert err.value.code == "debt_pending"
    st, ev = step(st, "mortgage", square=7)  # raises $7,500: the fine is paid at once
    assert not st.debts and st.seats[0].cash == 500 + 7500 - 5000
    st, _ = step(st, "decline")
    st = pass_all(st)
    st, _ = step(st, "end_turn")
    st, ev = throw(st, 3, 2)  # T10 P1: past México (salary) to 3 Club Platino (membership)
    assert [t["reason"] for t in transfers(ev)] == ["salary", "club_membership"] and st.seats[1].club
    st, _ = step(st, "end_turn")
    stack_deck(st, "email", "email_hospital")
    st, ev = throw(st, 6, 4)  # T11 P0: salary, 8 E-mail, pays 10,000
    assert [t["reason"] for t in transfers(ev)] == ["salary", "card"]
    st, _ = step(st, "end_turn")
    stack_deck(st, "email", "email_recuerditos")
    st, ev = throw(st, 4, 1)  # T12 P1: 8 E-mail, pays 1,500 to each other seat
    assert transfers(ev, "card")[0]["to"] == 0
    st, _ = step(st, "end_turn")
    st, _ = throw(st, 6, 6)  # T13 P0: 20 Oceanía, a rest; the double earns a roll
    st, _ = throw(st, 4, 4)  # 28 Aduana
    st, ev = throw(st, 1, 1)  # customs: 2, pays 10,000; the customs double does not count as a third
    assert transfers(ev, "customs")[0]["amount"] == 10000 and st.phase == "roll" and st.doubles == 2
    st, _ = throw(st, 2, 3)  # 33 Nigeria, cannot buy
    st, _ = step(st, "decline")
    st = pass_all(st)
    st, _ = step(st, "end_turn")
    st, ev = throw(st, 5, 5)  # T14 P1: 18 Alemania, P0's: 3,000
    assert transfers(ev, "rent")[0]["amount"] == 3000
    st, _ = throw(st, 6, 1)  # 25 Aérea Asiática, cannot buy
    st, _ = step(st, "decline")
    st = pass_all(st)
    st, _ = step(st, "end_turn")
    st, _ = throw(st, 1, 2)  # T15 P0: 36 Etiopía
    st, _ = step(st, "decline")
    st = pass_all(st)
    st, _ = step(st, "end_turn")
    st, ev = throw(st, 2, 1)  # T16 P1: 28 Aduana
    st, ev = throw(st, 1, 2)  # fails and owes 10,000 with 9,000
    assert st.debts and st.debts[0].creditor == BANK and st.seats[1].cash == 9000
    with pytest.raises(IllegalAction) as err:  # mortgaging Consulado would pay it: no bankruptcy yet
        act(st, "bankrupt")
    assert (err.value.code, err.value.params) == ("debt_can_be_raised", {"amount": 7500})
    st, _ = step(st, "mortgage", square=32)
    assert not st.debts and st.seats[1].cash == 6500
    st, _ = step(st, "end_turn")
    st, _ = throw(st, 1, 2)  # T17 P0: 39 Marruecos, nobody bids
    st, _ = step(st, "decline")
    st = pass_all(st)
    st, _ = step(st, "end_turn")
    stack_deck(st, "fax", "fax_multa_aduana")
    st, ev = throw(st, 4, 5)  # T18 P1: 37 Fax, pays 15,000 with 6,500 and a mortgaged title: nothing to raise
    assert st.debts[0].amount == 15000
    st, ev = step(st, "bankrupt")
    assert st.phase == "over" and st.winner == 0 and [s.seat for s in st.standings] == [0, 1]
    assert st.owner[32] == st.owner[1] == BANK and st.seats[1].out
    assert codes(ev)[-1] == "game_over" and ev[-1]["reason"] == "bankruptcy"


# -- chains of rules ------------------------------------------------------------------------------------


def test_card_moves_onto_a_built_title_rent_becomes_a_debt_raised_by_mortgages() -> None:
    st = own(game(players=2), 1, 16, 18, 19)
    st.level[16] = st.level[18] = st.level[19] = 3
    st.bank_houses -= 9
    own(st, 0, 12, 15, 21)
    st.seats[0].cash = 30000
    st.seats[0].pos = 12
    stack_deck(st, "fax", "fax_viaje_holanda")
    st, ev = throw(st, 2, 3)  # 17 Fax: "travel to Holanda", 19 with three restaurants: 57,000
    assert codes(ev)[:4] == ["rolled", "moved", "card", "moved"] and ev[3]["to"] == 19
    assert st.debts[0].amount == 57000 and st.debts[0].creditor == 1 and st.seat_to_act() == [0]
    for kind in ("end_turn", "roll"):
        with pytest.raises(IllegalAction) as err:
            act(st, kind)
        assert err.value.code == "debt_pending"
    st, _ = step(st, "mortgage", square=12)  # +9,000
    st, _ = step(st, "mortgage", square=15)  # +10,000: 49,000, still short
    assert st.debts
    st, ev = step(st, "mortgage", square=21)  # +13,500: the debt is paid at once
    rent = transfers(ev, "rent")
    assert not st.debts and rent == [
        {"code": "transfer", "from": 0, "to": 1, "amount": 57000, "reason": "rent", "square": 19}
    ]
    assert st.seats[0].cash == 30000 + 9000 + 10000 + 13500 - 57000
    st, _ = step(st, "end_turn")
    assert st.current == 1


def test_a_double_onto_deportado_ends_the_turn_and_a_double_in_jail_moves_without_another_roll() -> None:
    st = game()
    st, _ = throw(st, 2, 2)  # 4 Costa Rica
    st, _ = step(st, "buy")
    assert st.phase == "roll"
    st, ev = throw(st, 3, 3)  # 10 Deportado by the second double
    assert st.seats[0].jailed and st.phase == "end" and st.doubles == 0 and not transfers(ev, "salary")
    with pytest.raises(IllegalAction):
        act(st, "roll")
    with pytest.raises(IllegalAction) as err:
        act(st, "pay_fine")  # leaving jail waits for the next turn (rules 001, 003)
    assert err.value.code == "not_now"
    st, _ = step(st, "end_turn")
    st, _ = throw(st, 1, 2)
    st, _ = pass_turn(st)
    st, ev = throw(st, 4, 4)  # a double in jail: out, moving 8 to 38 Argelia, no further roll
    assert (ev[1]["code"], ev[1]["how"]) == ("left_jail", "doubles") and st.seats[0].pos == 38
    st, _ = step(st, "buy")
    assert st.phase == "end"


def test_customs_after_a_double_is_rolled_then_the_seat_rolls_again() -> None:
    st = game()
    st.seats[0].pos = 22
    st, ev = throw(st, 3, 3)  # 28 Aduana by a double
    assert st.phase == "customs" and [a.kind for a in legal_actions(st, 0)][:1] == ["roll"]
    with pytest.raises(IllegalAction):
        act(st, "end_turn")
    st, ev = throw(st, 2, 2)  # 4: pay 10,000; the customs dice are not a second double
    assert transfers(ev, "customs")[0]["amount"] == 10000 and st.doubles == 1 and st.phase == "roll"
    st, ev = throw(st, 1, 2)  # 31 Egipto, no double: the turn ends after it
    assert st.seats[0].pos == 31 and st.doubles == 0
    st, _ = step(st, "decline")
    st = pass_all(st)
    assert st.phase == "end"


def test_oceania_in_mundial_reached_by_a_double_ends_the_turn_and_costs_three_turns() -> None:
    st = game("mundial")
    st.seats[0].pos = 16
    st, ev = throw(st, 2, 2)  # 20 Oceanía by a double: no extra roll
    assert st.seats[0].lost_turns == 3 and st.phase == "end" and st.doubles == 0 and "resting" in codes(ev)
    st, _ = step(st, "end_turn")
    st, _ = throw(st, 3, 4)  # P1 to 7
    st, _ = pass_turn(st)
    st, ev = throw(st, 1, 2)  # P0's first lost turn: no double, it stays
    assert codes(ev)[-1] == "lost_turn" and st.seats[0].pos == 20 and st.phase == "end"
    st, _ = step(st, "end_turn")
    for d1, d2 in ((2, 3), (2, 4)):  # P1 to 12, then 18; P0's other two turns are lost without a roll
        st, _ = throw(st, d1, d2)
        st, ev = pass_turn(st)
        assert codes(ev)[-2:] == ["turn_started", "lost_turn"] and st.current == 0 and st.phase == "end"
        with pytest.raises(IllegalAction):
            act(st, "roll")
        st, _ = step(st, "end_turn")
    st, _ = throw(st, 3, 4)  # P1 to 25
    st, _ = pass_turn(st)
    st, ev = throw(st, 2, 1)  # back in the game
    assert st.seats[0].pos == 23 and st.seats[0].lost_turns == 0


# -- auctions, debts, bankruptcies ------------------------------------------------------------------------


def test_bankruptcy_in_the_middle_of_an_auction_only_game() -> None:
    st = own(game(players=3, auction_only=True), 0, 12)
    st.mortgaged[12] = True  # nothing left to raise
    st.seats[0].pos = 30
    st.seats[0].jailed = True
    st.seats[0].jail_turns = 2
    st.seats[0].cash = 1000
    st, ev = throw(st, 1, 2)  # third failed turn: the fine is owed, then 33 Nigeria goes to auction
    assert st.debts[0].amount == 5000 and st.auction is not None and st.auction.square == 33
    assert st.seat_to_act() == [0]
    with pytest.raises(IllegalAction) as err:
        act(st, "bid", 1, amount=5000)
    assert err.value.code == "debt_pending"
    st, ev = step(st, "bankrupt")  # to the bank: Italia joins the queue, the seat leaves the auction
    assert st.auction.active == [1, 2] and st.auction_queue == [12] and st.owner[12] == BANK
    st, _ = step(st, "bid", 1, amount=20000)
    st, ev = step(st, "pass_bid", 2)
    assert st.owner[33] == 1 and st.auction is not None and st.auction.square == 12
    st, _ = step(st, "bid", 2, amount=9000)
    st, ev = step(st, "pass_bid", 1)
    assert st.owner[12] == 2 and st.current == 1 and st.phase == "roll" and "turn_started" in codes(ev)
    st, ev = throw(st, 4, 3)  # P1 from 0 to 7 Argentina: every unowned title goes to auction
    assert st.auction is not None and st.auction.active == [1, 2] and st.phase == "end"


def test_trade_while_a_debt_is_pending_raises_the_money() -> None:
    st = own(game(players=3), 1, 7)
    own(st, 0, 12)
    st.seats[0].cash = 500
    st, _ = throw(st, 3, 4)  # rent 1,500 to P1
    assert st.debts[0].amount == 1500
    offer = Trade(proposer=0, target=2, give=Offer(titles=(12,)), take=Offer(cash=18000))
    st, _ = step(st, "propose_trade", trade=offer)
    st, ev = step(st, "accept_trade", 2)
    assert not st.debts and st.owner[12] == 2
    assert [t["reason"] for t in transfers(ev)] == ["trade", "rent"]
    assert st.seats[0].cash == 500 + 18000 - 1500


def test_time_up_during_an_auction_lets_it_and_the_turn_finish_then_ranks() -> None:
    st = own(game(players=3), 2, 1, 2, 4)
    st, _ = throw(st, 3, 4)
    st, _ = step(st, "decline")
    st, _ = step(st, "bid", 1, amount=9000)
    st, ev = apply(st, Action(kind="time_up", seat=SYSTEM))
    assert st.ending and st.auction is not None and st.phase == "end"
    with pytest.raises(IllegalAction) as err:
        act(st, "propose_trade", 2, trade=Trade(proposer=2, target=1, give=Offer(cash=1)))
    assert err.value.code == "no_trades_after_time"
    st, _ = step(st, "pass_bid", 0)
    st, _ = step(st, "pass_bid", 2)
    assert st.owner[7] == 1 and st.phase == "end"
    st, ev = step(st, "end_turn")
    assert st.phase == "over" and ev[-1]["reason"] == "time_limit"
    # Net worth: P2 holds 19,000 of titles, P1 paid 9,000 for a 15,000 title, P0 only has cash.
    assert [s.seat for s in st.standings] == [2, 1, 0]


def test_time_up_during_a_debt_waits_for_the_debt_and_the_turn() -> None:
    st = own(game(), 1, 7)
    own(st, 0, 12)
    st.seats[0].cash = 0
    st, _ = throw(st, 3, 4)
    st, _ = apply(st, Action(kind="time_up", seat=SYSTEM))
    assert st.debts and st.phase == "end"
    st, _ = step(st, "mortgage", square=12)
    assert not st.debts and st.phase == "end"
    st, ev = step(st, "end_turn")
    assert st.phase == "over" and ev[-1]["reason"] == "time_limit"


def test_bankrupt_holding_the_keep_to_leave_card_hands_it_to_the_creditor_seat() -> None:
    st = own(game(players=3), 1, 7)
    st.decks["fax"].remove("fax_reivindicacion")
    st.seats[0].jail_cards = ["fax_reivindicacion"]
    st.seats[0].cash = 0
    st, _ = throw(st, 3, 4)
    st, _ = step(st, "bankrupt")
    assert st.seats[1].jail_cards == ["fax_reivindicacion"] and st.seats[0].jail_cards == []


def test_bankrupt_holding_the_keep_to_leave_card_to_the_bank_returns_it_under_its_deck() -> None:
    st = game(players=3)
    st.decks["email"].remove("email_reivindicacion")
    st.seats[0].jail_cards = ["email_reivindicacion"]
    st.seats[0].cash = 0
    st.seats[0].pos = 25
    st, _ = throw(st, 1, 2)  # 28 Aduana
    st, _ = throw(st, 1, 2)  # owes 10,000 to the bank
    st, _ = step(st, "bankrupt")
    assert st.decks["email"][-1] == "email_reivindicacion" and len(st.decks["email"]) == 16


def test_debts_owed_to_a_seat_that_withdraws_go_to_the_bank_with_its_assets() -> None:
    st = own(game(players=3), 1, 7)
    own(st, 0, 12)
    st.seats[0].cash = 0
    st, _ = throw(st, 3, 4)  # P0 owes P1 the rent
    st, ev = step(st, "withdraw", 1)
    assert st.seats[1].out and st.debts[0].creditor == BANK
    st, ev = step(st, "mortgage", square=12)
    assert st.seats[1].cash == 0 and transfers(ev, "rent")[0]["to"] == BANK


def test_a_debt_paid_later_names_its_square() -> None:
    st = own(game(), 1, 7)
    own(st, 0, 12)
    st.seats[0].cash = 0
    st, _ = throw(st, 3, 4)
    st, ev = step(st, "mortgage", square=12)
    lines = [describe(e, st, lang) for e in ev for lang in ("es", "en")]
    assert "P0 pays $1,500 rent to P1 for Argentina." in lines


def test_bankrupt_on_a_debt_to_the_pot_says_everything_goes_to_the_bank() -> None:
    st = game(players=3, free_parking_pot=True)
    st.seats[0].cash = 0
    st.seats[0].pos = 25
    st, _ = throw(st, 1, 2)  # 28 Aduana
    st, ev = throw(st, 1, 2)  # the fine would go to the pot
    assert st.debts[0].creditor == -2
    st, ev = step(st, "bankrupt")
    bankrupt = next(e for e in ev if e["code"] == "bankrupt")
    assert bankrupt["creditor"] == BANK
    assert describe(bankrupt, st, "en") == "P0 is bankrupt! Everything goes to the bank."


def test_a_construction_loan_is_not_free_money_when_nothing_is_built() -> None:
    st = own(game(), 0, 36, 38, 39)
    st.seats[0].club = True
    st, _ = step(st, "take_loan", block="amarillo")  # 97,000
    for _ in range(2):  # two landings on Marruecos: 12,000 each go to the bank
        st.current, st.phase = 1, "roll"
        st.seats[1].pos = 30
        st, _ = throw(st, 4, 5)
    # Both rents (24,000) went to the bank and the owner pays the other 73,000: the loan is repaid in full.
    assert st.loans == [] and not st.debts
    assert st.seats[0].cash == 150000 + 97000 - 73000


def test_bankruptcy_on_the_rent_of_a_financed_block_goes_to_its_owner() -> None:
    st = lay(own(game(players=3), 1, 36, 38, 39), 1, {36: 1, 38: 1, 39: 1})
    st.seats[1].club = True
    st, _ = step(st, "take_loan", 1, block="amarillo")
    own(st, 0, 12)
    st.seats[0].cash = 1000
    st.seats[0].pos = 30
    st, _ = throw(st, 4, 5)  # Marruecos with a restaurant: 17,000, all of it towards the loan
    st, _ = step(st, "bankrupt")
    assert st.owner[12] == 1


def test_mundial_offers_no_trade_button_before_the_trading_window_opens() -> None:
    st = game("mundial", players=3)
    assert not any(a.kind == "propose_trade" for s in range(3) for a in legal_actions(st, s))
    ed = load("mundial")
    titles = [sq.index for sq in ed.squares if sq.kind in ("country", "airline", "utility")]
    for k, square in enumerate(titles):  # dealt round the table: nobody holds a whole block
        st.owner[square] = k % 3
    assert [any(a.kind == "propose_trade" for a in legal_actions(st, s)) for s in range(3)] == [True, False, False]
    sale = Trade(proposer=0, target=1, give=Offer(titles=(titles[0],)), take=Offer(cash=10))
    st, _ = step(st, "propose_trade", trade=sale)
    assert st.trade is not None
    st, _ = throw(st, 1, 2)
    st, ev = pass_turn(st)  # the offer dies with the proposer's turn instead of blocking every other one
    assert st.trade is None and "trade_cancelled" in codes(ev)
    assert any(a.kind == "propose_trade" for a in legal_actions(st, 1))


# -- buildings ---------------------------------------------------------------------------------------------


def test_house_shortage_auctions_with_three_seats() -> None:
    st = own(game(players=4), 0, 1, 2, 4)
    own(st, 1, 6, 7, 9)
    own(st, 2, 11, 12, 14)
    # A fourth seat without cash holds 34 of the 36 restaurants: two are left.
    lay(st, 3, {16: 4, 18: 4, 19: 4, 21: 4, 22: 4, 24: 4, 26: 4, 27: 3, 29: 3})
    st.seats[3].cash = 0
    assert st.bank_houses == 2
    st, ev = step(st, "build", square=1)
    au = st.auction
    assert au is not None and au.item == "house" and au.active == [0, 1, 2] and au.minimum == 5000
    with pytest.raises(IllegalAction) as err:
        act(st, "build", 2, square=11)  # nobody builds around the auction
    assert err.value.code == "auction_pending"
    st, _ = step(st, "bid", 1, amount=6000)
    st, _ = step(st, "bid", 2, amount=12000)
    st, _ = step(st, "pass_bid", 0)
    st, ev = step(st, "pass_bid", 1)
    assert st.level[11] == 1 and st.bank_houses == 1 and transfers(ev, "auction")[0]["amount"] == 12000
    st, _ = step(st, "build", square=1)  # one left and three could build: another auction
    assert st.auction is not None
    st, _ = step(st, "bid", 0, amount=5000)
    st, _ = step(st, "pass_bid", 1)
    st, _ = step(st, "pass_bid", 2)
    assert st.level[1] == 1 and st.bank_houses == 0
    with pytest.raises(IllegalAction) as err:
        act(st, "build", 1, square=6)
    assert err.value.code == "no_houses_left"


def test_selling_a_hotel_when_the_bank_lacks_houses_keeps_the_block_even() -> None:
    st = lay(game(), 0, {1: HOTEL, 2: HOTEL, 4: 4})
    lay(st, 1, {6: 4, 7: 4, 9: 4, 11: 4, 12: 4, 14: 4, 16: 3, 18: 3, 19: 2})
    assert st.bank_houses == 0
    st, ev = step(st, "sell", square=1)
    assert [st.level[i] for i in (1, 2, 4)] == [0, 0, 1]
    # Two hotels at half of five restaurants each, and three restaurants at half.
    assert sum(t["amount"] for t in transfers(ev, "sell_building")) == 2 * 12500 + 3 * 2500


def test_loan_seizure_takes_every_hotel_at_once_when_the_bank_lacks_houses() -> None:
    st = lay(game(), 0, {1: HOTEL, 2: HOTEL, 4: HOTEL})
    st.seats[0].club = True
    st, _ = step(st, "take_loan", block="rojo")
    st.loans[0].landings = 1
    st.loans[0].balance = 60000
    lay(st, 1, {6: 4, 7: 4, 9: 4, 11: 4, 12: 4, 14: 4, 16: 4, 18: 4, 19: 4})
    assert st.bank_houses == 0
    st.current = 1
    st, ev = throw(st, 1, 3)  # Costa Rica: 46,000 repays part, the last landing seizes the rest
    assert "loan_seized" in codes(ev) and not st.loans
    assert [st.level[i] for i in (1, 2, 4)] == [0, 0, 0]


# -- variants ----------------------------------------------------------------------------------------------


def test_staggered_starts_use_the_corners_and_deportado_is_no_punishment() -> None:
    st, _ = new_game("turismundo", ["A", "B", "C"], seed=3, settings=Settings(staggered_start=True))
    starts = {st.seats[s].pos for s in st.order}
    assert starts == {0, 10, 20} and not any(s.jailed for s in st.seats)
    first = st.order[0]
    st.rigged_dice = [1, 2]
    pos = st.seats[first].pos
    st, ev = apply(st, Action(kind="roll", seat=first))
    assert st.seats[first].pos == (pos + 3) % 40


def test_staggered_starts_give_four_seats_four_different_corners() -> None:
    st, _ = new_game("monopolio", list("ABCD"), seed=3, settings=Settings(staggered_start=True))
    assert len({s.pos for s in st.seats}) == 4


def test_dealing_more_titles_than_the_board_holds_is_refused() -> None:
    with pytest.raises(IllegalAction):
        new_game("turismundo", list("ABCDEF"), seed=1, settings=Settings(deal_titles=6))


def test_dealt_titles_never_leave_a_seat_with_negative_cash() -> None:
    st, _ = new_game("turismundo", ["A", "B"], seed=1, settings=Settings(deal_titles=2, start_cash=10000))
    assert all(s.cash >= 0 for s in st.seats)


def test_the_highest_bidder_leaving_the_game_does_not_block_the_auction() -> None:
    st = game(players=3)
    st, _ = throw(st, 3, 4)
    st, _ = step(st, "decline")
    st, _ = step(st, "bid", 1, amount=5000)
    st, _ = step(st, "bid", 2, amount=9000)
    st, _ = step(st, "withdraw", 2)
    st, _ = step(st, "pass_bid", 0)
    assert st.owner[7] == 1


def test_the_highest_bidder_cannot_spend_the_bid_and_walk_away() -> None:
    st = own(game(players=3), 1, 12)
    st.mortgaged[12] = True
    st.seats[1].cash = 16000
    st, _ = throw(st, 3, 4)
    st, _ = step(st, "decline")
    st, _ = step(st, "bid", 2, amount=5000)
    st, _ = step(st, "bid", 1, amount=15000)
    st, _ = step(st, "unmortgage", 1, square=12)  # 9,900 of the 16,000 behind the bid
    st, _ = step(st, "pass_bid", 0)
    st, _ = step(st, "pass_bid", 2)
    assert st.owner[7] == 1 or st.auction is not None


# -- legality agrees with applying ------------------------------------------------------------------------

SEAT_KINDS = (
    "roll", "buy", "decline", "end_turn", "pay_fine", "use_card", "pass_bid", "bankrupt", "withdraw", "keep_mortgaged",
)  # fmt: skip
TRADE_ANSWERS = ("accept_trade", "reject_trade", "cancel_trade")
SQUARE_KINDS = ("build", "sell", "mortgage", "unmortgage", "sell_title", "title_to_bank")
# How often a random walk picks each kind: enough buying and building to reach hotels, debts and bankruptcies.
WEIGHTS = {
    "roll": 6, "buy": 6, "decline": 1, "end_turn": 4, "bid": 2, "pass_bid": 3, "build": 6, "sell": 1,
    "mortgage": 1, "unmortgage": 1, "sell_title": 0.3, "take_loan": 1, "pay_fine": 1, "use_card": 1,
    "propose_trade": 0.5, "accept_trade": 2, "reject_trade": 1, "cancel_trade": 0.3, "bankrupt": 0.2,
    "withdraw": 0.01, "keep_mortgaged": 1, "title_to_bank": 0.5,
}  # fmt: skip


def candidates(st: State, seat: int) -> list[Action]:
    """Every concrete action `seat` could try now, legal or not (bids at the lowest amount allowed)."""
    ed = load(st.edition)
    out = [Action(kind=k, seat=seat) for k in SEAT_KINDS + TRADE_ANSWERS]
    for sq in ed.squares:
        if sq.kind in ("country", "airline", "utility"):
            out += [Action(kind=k, seat=seat, square=sq.index) for k in SQUARE_KINDS]
    out += [Action(kind="take_loan", seat=seat, block=b) for b in ed.blocks]
    if st.auction is not None:
        out.append(Action(kind="bid", seat=seat, amount=max(st.auction.bid + 1, st.auction.minimum)))
    return out


def some_trade(st: State, seat: int, rnd: random.Random) -> Action | None:
    others = [s for s in range(len(st.seats)) if s != seat and not st.seats[s].out]
    if not others:
        return None
    target = rnd.choice(others)
    mine = [i for i, o in enumerate(st.owner) if o == seat]
    theirs = [i for i, o in enumerate(st.owner) if o == target]
    give = Offer(titles=tuple(rnd.sample(mine, min(len(mine), 1))), cards=tuple(st.seats[seat].jail_cards[:1]))
    take = Offer(titles=tuple(rnd.sample(theirs, min(len(theirs), 1))), cash=rnd.randint(0, st.seats[target].cash))
    return Action(kind="propose_trade", seat=seat, trade=Trade(proposer=seat, target=target, give=give, take=take))


def check_agreement(st: State) -> None:
    """Every listed action applies (keeping the invariants), every accepted action is listed, and the seats the
    game waits for always have something to do."""
    for seat in range(len(st.seats)):
        listed = legal_actions(st, seat)
        for a in listed:
            if a.kind == "propose_trade":
                assert a.trade is None and not st.ending
                continue
            new, events = apply(st, a)
            check_step(st, new, events)
        for a in candidates(st, seat):
            try:
                apply(st, a)
            except IllegalAction:
                assert a not in listed, f"{a} is listed but refused"
                continue
            if a.kind == "bid":
                lowest_step = min(load(st.edition).economy.bid_steps)
                assert any(x.kind == "bid" for x in listed) or a.amount + lowest_step > st.seats[seat].cash + 1
            else:
                assert a in listed, f"{a} is accepted but not listed"
    if st.phase != "over":
        waiting = st.seat_to_act()
        assert any(legal_actions(st, s) for s in waiting), f"nobody of {waiting} can act"


def random_walk(
    edition: str, seed: int, steps: int, house: Settings, blocks: bool = False
) -> list[tuple[State, list[dict]]]:
    """The states of one random game driven only by listed actions (and the bot's system actions), each with
    the events that led to it; with
    `blocks`, the seats start with every block dealt, so that building, shortages and selling back come early."""
    rnd = random.Random(seed)
    st, events = new_game(edition, [f"S{i}" for i in range(3 + seed % 3)], seed=seed, settings=house)
    if blocks:
        for k, squares in enumerate(load(edition).blocks.values()):
            own(st, st.order[k % len(st.order)], *squares)
    states = [(st, events)]
    for _ in range(steps):
        if st.phase == "over":
            break
        if st.auction is not None and rnd.random() < 0.05:
            action = Action(kind="close_auction", seat=SYSTEM)
        elif not st.ending and len(states) > steps * 3 // 4 and rnd.random() < 0.01:
            action = Action(kind="time_up", seat=SYSTEM)
        else:
            waiting = st.seat_to_act() if rnd.random() < 0.85 else range(len(st.seats))
            pool = [a for s in waiting for a in legal_actions(st, s)] or [
                a for s in range(len(st.seats)) for a in legal_actions(st, s)
            ]
            if rnd.random() > 0.01:  # leaving the game is always possible: keep it rare
                pool = [a for a in pool if a.kind != "withdraw"] or pool
            kinds = sorted({a.kind for a in pool})
            kind = rnd.choices(kinds, weights=[WEIGHTS[k] for k in kinds])[0]
            action = rnd.choice([a for a in pool if a.kind == kind])
            if kind == "propose_trade":
                action = some_trade(st, action.seat, rnd) or Action(kind="end_turn", seat=st.current)
        try:
            new, events = apply(st, action)
        except IllegalAction:
            continue  # a random trade the rules refuse, or an end_turn that is not due
        check_step(st, new, events)
        st = new
        states.append((st, events))
    return states


@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("seed", range(4))
def test_legal_actions_and_apply_agree_on_every_state_of_random_games(edition: str, seed: int) -> None:
    # Every block dealt (with plenty of cash) or little starting cash, so that building, shortages, debts,
    # mortgages and bankruptcies come early.
    blocks = seed in (0, 3)
    house = Settings(
        start_cash=load(edition).economy.start_cash * (2 if blocks else 1) // 3,
        auction_only=seed == 1,
        free_parking_pot=seed == 2,
        staggered_start=seed == 3,
        deal_titles=1 if seed == 2 else 0,
        end_at_bankruptcy=2 if seed == 3 else 0,
    )
    for st, _ in random_walk(edition, seed * 31 + 7, 400, house, blocks=blocks):
        check_agreement(st)


# -- words for every event ---------------------------------------------------------------------------------

ENGINE = Path(__file__).resolve().parent.parent / "engine"


SILENT_CODES = {"game_started", "may_buy", "debt_paid", "order_roll"}


def emitted_codes() -> set[str]:
    """Every event code, transfer reason and way out of jail written in the rules, read from their source."""
    source = (ENGINE / "rules.py").read_text(encoding="utf-8")
    found = {f"event.{c}" for c in re.findall(r'emit\(\s*"(\w+)"', source)}
    found |= {f"event.left_jail.{h}" for h in re.findall(r'_release\(g, [\w.]+, "(\w+)"\)', source)}
    for line in source.splitlines():
        if re.search(r"\bg\.(transfer|charge)\(", line):
            found |= {f"event.transfer.{r}" for r in re.findall(r'"(\w+)"', line)}
    # `left_jail` is told by its way out; "square" is a keyword of a transfer, not a reason.
    return found - {"event.transfer", "event.left_jail", "event.transfer.square"}


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_event_code_and_transfer_reason_has_a_text(lang: str) -> None:
    found = emitted_codes()
    assert {"event.rolled", "event.transfer.rent", "event.left_jail.doubles"} <= found
    missing = sorted(k for k in found if k not in GAME.texts(lang) and k.split(".")[1] not in SILENT_CODES)
    assert not missing


@pytest.mark.parametrize("edition", EDITIONS)
def test_every_event_of_random_games_reads_well_in_both_languages(edition: str) -> None:
    seen: set[str] = set()
    for seed, blocks in ((3, True), (5, False)):
        house = Settings(free_parking_pot=not blocks, deal_titles=1 if blocks else 0)
        walk = random_walk(edition, seed, 300, house, blocks=blocks)
        last = walk[-1][0]
        for _, events in walk:
            for event in events:
                seen.add(event["code"])
                for lang in ("es", "en"):
                    line = describe(event, last, lang)
                    if event["code"] in SILENT_CODES or event.get("reason") in SILENT_TRANSFERS:
                        continue
                    assert line and "{" not in line and "}" not in line, (event, line)
                    assert not re.search(r"\b(event|square|card|deck|block|edition)\.\w", line), (event, line)
                    assert not re.search(r"\b(for|por|en|at|on|de) ?[.]$", line), (event, line)
    assert {"rolled", "moved", "transfer", "turn_started"} <= seen


def test_money_is_written_the_mexican_way() -> None:
    from words import money

    assert money(150000) == "$150,000" and money(-2500) == "-$2,500" and money(0) == "$0"
    st = game("mundial")
    st, ev = throw(st, 1, 2)  # 3 Visa: $100
    assert describe(transfers(ev, "tax")[0], st, "es").count("$100") == 1


@pytest.mark.parametrize("lang", ["es", "en"])
def test_every_refusal_code_has_a_text(lang: str) -> None:
    found: set[str] = set()
    for module in ("legal.py", "rules.py", "board.py"):
        source = (ENGINE / module).read_text(encoding="utf-8")
        found |= set(re.findall(r'(?:_no|IllegalAction)\(\s*"(\w+)"', source))
    # What blocks building or selling is told by board.py's blockers.
    found |= set(re.findall(r'return "(\w+)"\n', (ENGINE / "board.py").read_text(encoding="utf-8")))
    assert {"not_your_turn", "bid_too_low", "build_evenly", "no_buildings"} <= found
    assert not sorted(code for code in found if f"error.{code}" not in GAME.texts(lang))


def test_apply_accepts_or_refuses_with_a_code_whatever_it_is_sent() -> None:
    """Garbage in (any kind, seat, square, amount, count, block, trade): a clean refusal or a valid new state."""
    rnd = random.Random(11)
    kinds = [*SEAT_KINDS, *TRADE_ANSWERS, *SQUARE_KINDS, "bid", "take_loan", "propose_trade", "close_auction", "?"]

    def offer(n_seats: int) -> Offer:
        titles = tuple(rnd.randint(-2, 41) for _ in range(rnd.randint(0, 2)))
        cards = tuple(rnd.sample(["?", "fax_reivindicacion", "sms_reivindicacion", "suerte_libre_carcel"], k=1))
        return Offer(titles=titles, cash=rnd.choice([-5, 0, 10, 10**9]), cards=cards if rnd.random() < 0.3 else ())

    for edition in EDITIONS:
        for st, _ in random_walk(edition, 2, 150, Settings(), blocks=True)[::5]:
            n = len(st.seats)
            for _ in range(10):
                trade = Trade(proposer=rnd.randint(-1, n), target=rnd.randint(-1, n), give=offer(n), take=offer(n))
                action = Action(
                    kind=rnd.choice(kinds),
                    seat=rnd.randint(-2, n),
                    square=rnd.randint(-3, 42),
                    amount=rnd.choice([-1, 0, 1, 10**12, rnd.randint(0, 50000)]),
                    count=rnd.randint(-1, 7),
                    block=rnd.choice(["", "rojo", "azul", "?"]),
                    trade=trade if rnd.random() < 0.5 else None,
                )
                try:
                    new, events = apply(st, action)
                except IllegalAction as err:
                    assert err.code and f"error.{err.code}" in GAME.texts("es")
                    continue
                check_step(st, new, events)

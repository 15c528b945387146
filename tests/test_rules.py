"""One test per rule of the seeds, with rigged dice and decks. Squares are those of `turismundo` unless named:
1 Canadá, 2 E.U.A., 4 Costa Rica (rojo), 5/15/25/35 airlines, 7 Argentina, 13 Embajada, 32 Consulado,
3 Club Platino, 8/23 E-mail, 17/37 Fax, 10 Deportado, 20 Oceanía, 28 Aduana, 30 Groenlandia."""

from __future__ import annotations

import pytest
from rulekit import act, codes, game, own, rig, roll, stack_deck, transfers, worth

from engine import (
    Action,
    IllegalAction,
    Offer,
    Settings,
    Trade,
    apply,
    from_json,
    legal_actions,
    load,
    new_game,
    refusal,
    to_json,
)

# -- setup ------------------------------------------------------------------------------------------


def test_setup_highest_die_starts_and_ties_roll_again() -> None:
    st, _ = new_game("turismundo", ["A", "B", "C"], seed=5)
    # Re-run the order roll with rigged dice: B and C tie on 6, then C wins the re-roll; play goes left.
    from engine.edition import load
    from engine.rules import Game, _decide_order

    st.rigged_dice = [2, 6, 6, 3, 5]
    g = Game(st, load("turismundo"))
    _decide_order(g)
    assert st.order == [2, 0, 1]
    assert codes(g.ev).count("order_roll") == 5


@pytest.mark.parametrize(("edition", "cash"), [("turismundo", 150000), ("mundial", 1500), ("monopolio", 150000)])
def test_setup_starting_cash_from_edition(edition: str, cash: int) -> None:
    st = game(edition, 3)
    assert [s.cash for s in st.seats] == [cash] * 3


def test_setup_two_to_six_seats() -> None:
    with pytest.raises(IllegalAction) as err:
        new_game("turismundo", ["solo"], seed=1)
    assert err.value.code == "bad_seat_count"
    with pytest.raises(IllegalAction):
        new_game("turismundo", [str(i) for i in range(7)], seed=1)


# -- turns --------------------------------------------------------------------------------------------


def test_doubles_give_another_roll() -> None:
    st = game()
    st, _ = roll(st, 3, 3)  # lands on 6 Venezuela, unowned
    st, _ = act(st, "buy")
    assert st.phase == "roll" and st.current == 0


def test_third_double_sends_to_jail_without_salary() -> None:
    st = game()
    st.seats[0].pos = 36
    st, _ = roll(st, 1, 1)  # 38
    st, _ = act(st, "decline")
    st = _close_auction_with_passes(st)
    st, _ = roll(st, 1, 1)  # 0: salary for landing on start
    st, ev = roll(st, 2, 2)  # third double
    assert "three_doubles" in codes(ev)
    assert st.seats[0].pos == 30 and st.seats[0].jailed
    assert not transfers(ev, "salary")
    assert st.phase == "end"


def test_salary_on_passing_start() -> None:
    st = game()
    st.seats[0].pos = 36
    st, ev = roll(st, 4, 2)  # 36 + 6 = 42 -> 2
    assert transfers(ev, "salary")[0]["amount"] == 20000


def test_salary_on_landing_on_start() -> None:
    st = game()
    st.seats[0].pos = 35
    st, ev = roll(st, 4, 1)
    assert st.seats[0].pos == 0 and transfers(ev, "salary")


def test_salary_when_card_moves_forward_past_start() -> None:
    st = game()
    st.seats[0].pos = 33
    stack_deck(st, "fax", "fax_viaje_francia")
    st, ev = roll(st, 1, 3)  # 37 Fax -> Francia (14), passing start
    assert st.seats[0].pos == 14
    assert transfers(ev, "salary")


def test_no_salary_when_card_sends_to_jail() -> None:
    st = game()
    st.seats[0].pos = 33
    stack_deck(st, "fax", "fax_deportado")
    st, ev = roll(st, 1, 3)
    assert st.seats[0].jailed and st.seats[0].pos == 30
    assert not transfers(ev, "salary")


def test_deportado_square_sends_to_greenland() -> None:
    st = game()
    st, ev = roll(st, 4, 6)
    assert st.seats[0].pos == 30 and st.seats[0].jailed and "sent_to_jail" in codes(ev)


def test_landing_on_jail_by_dice_is_a_visit() -> None:
    st = game()
    st.seats[0].pos = 24
    st, _ = roll(st, 2, 4)
    assert st.seats[0].pos == 30 and not st.seats[0].jailed


def test_end_turn_passes_to_the_next_seat() -> None:
    st = game(players=3)
    st, _ = roll(st, 1, 3)  # 4 Costa Rica
    st, _ = act(st, "buy")
    st, ev = act(st, "end_turn")
    assert st.current == 1 and st.turn == 2 and "turn_started" in codes(ev)


# -- buying and auctions ------------------------------------------------------------------------------


def test_buy_at_printed_price() -> None:
    st = game()
    st, _ = roll(st, 3, 4)
    st, ev = act(st, "buy")
    assert st.owner[7] == 0 and st.seats[0].cash == 150000 - 15000
    assert transfers(ev, "buy")[0]["amount"] == 15000


def _close_auction_with_passes(st):  # every seat passes
    while st.auction is not None:
        seat = st.auction.active[0]
        st, _ = act(st, "pass_bid", seat)
    return st


def test_decline_auctions_to_every_solvent_seat_including_the_decliner() -> None:
    st = game(players=3)
    st.seats[2].out = True
    st, _ = roll(st, 3, 4)
    st, ev = act(st, "decline")
    assert st.auction is not None and st.auction.active == [0, 1]
    st, _ = act(st, "bid", 1, amount=9000)
    st, _ = act(st, "bid", 0, amount=10000)
    st, ev = act(st, "pass_bid", 1)
    assert st.owner[7] == 0 and st.auction is None
    assert transfers(ev, "auction")[0]["amount"] == 10000


def test_auction_without_bids_leaves_title_with_bank() -> None:
    st = game()
    st, _ = roll(st, 3, 4)
    st, _ = act(st, "decline")
    st = _close_auction_with_passes(st)
    assert st.owner[7] == -1
    assert st.phase == "end"


def test_bid_must_beat_the_highest_and_be_payable() -> None:
    st = game()
    st, _ = roll(st, 3, 4)
    st, _ = act(st, "decline")
    st, _ = act(st, "bid", 1, amount=5000)
    for amount, code in ((5000, "bid_too_low"), (10**9, "not_enough_cash")):
        with pytest.raises(IllegalAction) as err:
            act(st, "bid", 0, amount=amount)
        assert err.value.code == code


def test_quiet_auction_closed_by_the_bot_sells_to_the_highest_bid() -> None:
    st = game(players=3)
    st, _ = roll(st, 3, 4)
    st, _ = act(st, "decline")
    st, _ = act(st, "bid", 2, amount=7000)
    st, _ = apply(st, Action(kind="close_auction"))
    assert st.owner[7] == 2


# -- rent ---------------------------------------------------------------------------------------------


def test_rent_base() -> None:
    st = own(game(), 1, 7)
    st, ev = roll(st, 3, 4)
    assert transfers(ev, "rent")[0]["amount"] == 1500


def test_rent_double_for_complete_block_without_buildings() -> None:
    st = own(game(), 1, 6, 7, 9)
    st, ev = roll(st, 3, 4)
    assert transfers(ev, "rent")[0]["amount"] == 3000


def test_rent_double_with_a_mortgaged_title_in_block_follows_edition() -> None:
    st = own(game(), 1, 6, 7, 9)
    st.mortgaged[9] = True
    st, ev = roll(st, 3, 4)
    assert transfers(ev, "rent")[0]["amount"] == 3000  # rules 000: still double
    mono = own(game("monopolio"), 1, 6, 8, 9)  # light blue block
    mono.mortgaged[9] = True
    mono, ev = roll(mono, 4, 4)
    assert transfers(ev, "rent")[0]["amount"] == 600  # rules 003: the block counts as incomplete


def test_rent_with_buildings_is_printed_rent() -> None:
    st = own(game(), 1, 6, 7, 9)
    st.level[7] = 2
    st, ev = roll(st, 3, 4)
    assert transfers(ev, "rent")[0]["amount"] == 9000


def test_airline_rent_by_number_owned() -> None:
    st = own(game(), 1, 5, 15, 25)
    st, ev = roll(st, 2, 3)
    assert transfers(ev, "rent")[0]["amount"] == 10000


def test_embassy_rent_dice_times_500_with_one_and_1000_with_both() -> None:
    st = own(game(), 1, 13)
    st.seats[0].pos = 4
    st, ev = roll(st, 5, 4)
    assert transfers(ev, "rent")[0]["amount"] == 9 * 500
    st = own(game(), 1, 13, 32)
    st.seats[0].pos = 4
    st, ev = roll(st, 5, 4)
    assert transfers(ev, "rent")[0]["amount"] == 9 * 1000


def test_no_rent_for_mortgaged_title() -> None:
    st = own(game(), 1, 7)
    st.mortgaged[7] = True
    st, ev = roll(st, 3, 4)
    assert not transfers(ev, "rent") and "no_rent_mortgaged" in codes(ev)


def test_owner_in_jail_still_collects() -> None:
    st = own(game(), 1, 7)
    st.seats[1].jailed = True
    st.seats[1].pos = 30
    st, ev = roll(st, 3, 4)
    assert transfers(ev, "rent")


def test_house_rule_no_rent_while_in_jail() -> None:
    st = own(game(no_rent_in_jail=True), 1, 7)
    st.seats[1].jailed = True
    st, ev = roll(st, 3, 4)
    assert not transfers(ev, "rent")


# -- buildings ----------------------------------------------------------------------------------------


def test_build_only_on_complete_block() -> None:
    st = own(game(), 0, 1, 2)
    with pytest.raises(IllegalAction) as err:
        act(st, "build", square=1)
    assert err.value.code == "block_incomplete"


def test_build_not_with_a_mortgaged_title_in_block() -> None:
    st = own(game(), 0, 1, 2, 4)
    st.mortgaged[4] = True
    with pytest.raises(IllegalAction) as err:
        act(st, "build", square=1)
    assert err.value.code == "block_mortgaged"


def test_build_evenly() -> None:
    st = own(game(), 0, 1, 2, 4)
    st, ev = act(st, "build", square=1)
    assert st.level[1] == 1 and transfers(ev, "build")[0]["amount"] == 5000
    with pytest.raises(IllegalAction) as err:
        act(st, "build", square=1)
    assert err.value.code == "build_evenly"
    st, _ = act(st, "build", square=2, count=5)  # 2, 4, 1, 2, 4: spread evenly
    assert [st.level[i] for i in (1, 2, 4)] == [2, 2, 2]


def test_hotel_after_four_returns_the_four_to_the_bank() -> None:
    st = own(game(), 0, 1, 2, 4)
    for i in (1, 2, 4):
        st.level[i] = 4
    st.bank_houses -= 12
    houses = st.bank_houses
    st, ev = act(st, "build", square=1)
    assert st.level[1] == 5 and st.bank_houses == houses + 4 and st.bank_hotels == 11
    assert transfers(ev, "build")[0]["amount"] == 5000  # a hotel costs one more restaurant (rules 002)


def test_sell_evenly_at_half_price() -> None:
    st = own(game(), 0, 1, 2, 4)
    st.level[1], st.level[2], st.level[4] = 2, 2, 1
    st.bank_houses -= 5
    with pytest.raises(IllegalAction) as err:
        act(st, "sell", square=4)
    assert err.value.code == "sell_evenly"
    st, ev = act(st, "sell", square=1)
    assert st.level[1] == 1 and transfers(ev, "sell_building")[0]["amount"] == 2500


def test_hotel_sold_back_into_four_houses() -> None:
    st = own(game(), 0, 1, 2, 4)
    st.level[1] = st.level[2] = st.level[4] = 5
    st.bank_hotels -= 3
    st, ev = act(st, "sell", square=1)
    assert st.level[1] == 4 and transfers(ev, "sell_building")[0]["amount"] == 2500


def test_hotels_sold_all_at_once_when_bank_lacks_houses() -> None:
    st = own(game(), 0, 1, 2, 4)
    st.level[1] = st.level[2] = st.level[4] = 5
    st.bank_hotels -= 3
    st.bank_houses = 2
    st, ev = act(st, "sell", square=1)
    assert [st.level[i] for i in (1, 2, 4)] == [0, 0, 0]
    assert sum(t["amount"] for t in transfers(ev, "sell_building")) == 3 * (5 * 5000) // 2


def test_bank_supply_of_restaurants_is_limited() -> None:
    st = own(game(), 0, 1, 2, 4)
    st.bank_houses = 0
    with pytest.raises(IllegalAction) as err:
        act(st, "build", square=1)
    assert err.value.code == "no_houses_left"


def test_last_restaurants_are_auctioned_when_several_seats_want_them() -> None:
    st = own(game(players=3), 0, 1, 2, 4)
    own(st, 1, 6, 7, 9)
    st.bank_houses = 1
    st, ev = act(st, "build", square=1)
    assert st.auction is not None and st.auction.item == "house" and st.auction.active == [0, 1]
    assert st.auction.minimum == 5000
    st, _ = act(st, "bid", 1, amount=8000)
    st, ev = act(st, "pass_bid", 0)
    assert st.level[6] == 1 and st.bank_houses == 0
    assert transfers(ev, "auction")[0]["amount"] == 8000


# -- mortgages ----------------------------------------------------------------------------------------


def test_mortgage_at_printed_value_and_lift_with_ten_percent() -> None:
    st = own(game(), 0, 7)
    st, ev = act(st, "mortgage", square=7)
    assert st.mortgaged[7] and transfers(ev, "mortgage")[0]["amount"] == 7500
    st, ev = act(st, "unmortgage", square=7)
    assert not st.mortgaged[7] and transfers(ev, "unmortgage")[0]["amount"] == 8250


def test_mortgage_needs_only_the_title_bare_in_turismundo() -> None:
    # Rules 000 §10: a title with buildings is sold bare first; the other titles of its block keep theirs.
    st = own(game(), 0, 1, 2, 4)
    st.level[1] = st.level[2] = 1
    st.bank_houses -= 2
    with pytest.raises(IllegalAction) as err:
        act(st, "mortgage", square=2)
    assert err.value.code == "has_buildings"
    st, ev = act(st, "mortgage", square=4)
    assert st.mortgaged[4] and transfers(ev, "mortgage")[0]["amount"] == 4000
    assert st.level[1] == st.level[2] == 1
    with pytest.raises(IllegalAction) as err:  # rules 000 §7: no building while a title of the block is mortgaged
        act(st, "build", square=4)
    assert err.value.code == "block_mortgaged"


def test_mortgage_needs_the_whole_block_bare_in_monopolio() -> None:
    # Rules 001 "HIPOTECAS": a built block is sold back to the bank entirely before any title is mortgaged.
    st = own(game("monopolio"), 0, 6, 8, 9)
    st.level[6] = 1
    st.bank_houses -= 1
    with pytest.raises(IllegalAction) as err:
        act(st, "mortgage", square=8)
    assert err.value.code == "sell_buildings_first"


def test_mortgaged_title_sold_between_players_stays_mortgaged_and_nothing_is_charged_at_the_sale() -> None:
    # Rules 000 §10: only the agreed price moves; the new owner pays the mortgage + 10 % whenever lifting it.
    st = own(game(), 0, 7)
    st.mortgaged[7] = True
    trade = Trade(proposer=0, target=1, give=Offer(titles=(7,)), take=Offer(cash=1000))
    st, _ = act(st, "propose_trade", 0, trade=trade)
    st, ev = act(st, "accept_trade", 1)
    assert st.owner[7] == 1 and st.mortgaged[7]
    assert [t["amount"] for t in transfers(ev)] == [1000] and not transfers(ev, "interest")
    st, ev = act(st, "unmortgage", 1, square=7)
    assert transfers(ev, "unmortgage")[0]["amount"] == 7500 + 750


def test_mortgaged_title_traded_in_monopolio_receiver_pays_ten_percent_at_once_and_may_lift_without_it_again() -> None:
    # Rules 001 "VENTAS ENTRE JUGADORES": 10 % on receiving it; lifting at once then costs the mortgage alone.
    st = own(game("monopolio"), 0, 6)
    st.mortgaged[6] = True
    trade = Trade(proposer=0, target=1, give=Offer(titles=(6,)), take=Offer(cash=1000))
    st, _ = act(st, "propose_trade", 0, trade=trade)
    st, ev = act(st, "accept_trade", 1)
    assert st.owner[6] == 1 and transfers(ev, "interest")[0]["amount"] == 500
    st, ev = act(st, "unmortgage", 1, square=6)
    assert transfers(ev, "unmortgage")[0]["amount"] == 5000


# -- trades -------------------------------------------------------------------------------------------


def test_trade_titles_cash_and_cards_both_sides() -> None:
    st = own(game(), 0, 7)
    own(st, 1, 12)
    st.seats[1].jail_cards = ["fax_reivindicacion"]
    st.decks["fax"].remove("fax_reivindicacion")
    trade = Trade(
        proposer=0,
        target=1,
        give=Offer(titles=(7,), cash=2000),
        take=Offer(titles=(12,), cards=("fax_reivindicacion",)),
    )
    st, ev = act(st, "propose_trade", 0, trade=trade)
    assert st.trade == trade and "trade_proposed" in codes(ev)  # the offer waits for the answer
    st, ev = act(st, "accept_trade", 1)
    assert st.owner[7] == 1 and st.owner[12] == 0
    assert st.seats[0].jail_cards == ["fax_reivindicacion"] and st.seats[0].cash == 148000


def test_trade_rejected_changes_nothing() -> None:
    st = own(game(), 0, 7)
    trade = Trade(proposer=0, target=1, give=Offer(titles=(7,)), take=Offer(cash=20000))
    st, _ = act(st, "propose_trade", 0, trade=trade)
    st, ev = act(st, "reject_trade", 1)
    assert st.trade is None and st.owner[7] == 0 and "trade_rejected" in codes(ev)


def test_trade_never_titles_of_a_block_with_buildings() -> None:
    st = own(game(), 0, 1, 2, 4)
    st.level[1] = st.level[2] = st.level[4] = 1
    trade = Trade(proposer=0, target=1, give=Offer(titles=(1,)), take=Offer(cash=1))
    with pytest.raises(IllegalAction) as err:
        act(st, "propose_trade", 0, trade=trade)
    assert err.value.code == "sell_buildings_first"


def test_trade_out_of_turn_allowed_in_clasico() -> None:
    st = own(game(players=3), 1, 7)
    trade = Trade(proposer=1, target=2, give=Offer(titles=(7,)), take=Offer(cash=100))
    st, _ = act(st, "propose_trade", 1, trade=trade)
    st, _ = act(st, "accept_trade", 2)
    assert st.owner[7] == 2


def test_mundial_trading_window_only_when_all_titles_sold_and_no_block_held() -> None:
    st = own(game("mundial"), 1, 7)
    trade = Trade(proposer=0, target=1, give=Offer(cash=10), take=Offer(titles=(7,)))
    with pytest.raises(IllegalAction) as err:
        act(st, "propose_trade", 0, trade=trade)
    assert err.value.code == "trade_window_closed"
    titles = [i for i, sq in enumerate(load("mundial").squares) if sq.kind in ("country", "airline", "utility")]
    for k, i in enumerate(titles):
        st.owner[i] = k % 2  # alternating owners: nobody holds a whole block of three
    st.owner[7] = 1
    st, _ = act(st, "propose_trade", 0, trade=trade)
    with pytest.raises(IllegalAction) as err:
        act(st, "propose_trade", 1, trade=Trade(proposer=1, target=0, give=Offer(cash=1)))
    assert err.value.code in ("trade_open", "trade_only_on_your_turn")


@pytest.mark.parametrize("edition", ["turismundo", "monopolio", "mundial"])
def test_no_gifts_between_players(edition: str) -> None:
    # Rules 000: "Ningún jugador puede pedir prestado o prestar a otro"; 001: lending money or properties is
    # forbidden; 002: players sell, exchange or buy properties.
    st = own(game(edition), 0, 9)
    for trade in (
        Trade(proposer=0, target=1, give=Offer(titles=(9,))),
        Trade(proposer=0, target=1, give=Offer(cash=100)),
        Trade(proposer=0, target=1, take=Offer(cash=100)),
    ):
        assert refusal(st, Action(kind="propose_trade", seat=0, trade=trade)) == ("trade_is_a_gift", {})


def test_no_loans_between_players_cash_for_cash() -> None:
    st = game()
    trade = Trade(proposer=0, target=1, give=Offer(cash=10000), take=Offer(cash=1))
    with pytest.raises(IllegalAction) as err:
        act(st, "propose_trade", trade=trade)
    assert err.value.code == "trade_is_a_loan"


def test_a_debt_is_not_paid_by_a_gift_from_another_seat() -> None:
    st = own(game(players=3), 1, 7)
    st.seats[0].cash = 0
    st, _ = roll(st, 3, 4)
    assert st.debts
    with pytest.raises(IllegalAction) as err:
        act(st, "propose_trade", 2, trade=Trade(proposer=2, target=0, give=Offer(cash=1500)))
    assert err.value.code == "trade_is_a_gift"


def test_a_card_sold_for_cash_is_a_trade() -> None:
    # Rules 000 §5: the card to leave Deportado may be bought from another player at an agreed price.
    st = game()
    st.seats[1].jail_cards = ["fax_reivindicacion"]
    st.decks["fax"].remove("fax_reivindicacion")
    trade = Trade(proposer=0, target=1, give=Offer(cash=3000), take=Offer(cards=("fax_reivindicacion",)))
    st, _ = act(st, "propose_trade", trade=trade)
    st, _ = act(st, "accept_trade", 1)
    assert st.seats[0].jail_cards == ["fax_reivindicacion"]


# -- cards --------------------------------------------------------------------------------------------


def test_cards_shuffled_per_game() -> None:
    a, _ = new_game("turismundo", ["A", "B"], seed=1)
    b, _ = new_game("turismundo", ["A", "B"], seed=2)
    assert a.decks["fax"] != b.decks["fax"] and sorted(a.decks["fax"]) == sorted(b.decks["fax"])


def test_card_drawn_from_top_and_returned_to_bottom() -> None:
    st = game()
    stack_deck(st, "email", "email_herencia")
    st, ev = roll(st, 3, 5)  # 8 E-mail
    assert st.decks["email"][-1] == "email_herencia"
    assert transfers(ev, "card")[0]["amount"] == 10000


def test_keep_to_leave_jail_card_kept_until_used() -> None:
    st = game()
    stack_deck(st, "email", "email_reivindicacion")
    st, _ = roll(st, 3, 5)
    assert st.seats[0].jail_cards == ["email_reivindicacion"]
    assert "email_reivindicacion" not in st.decks["email"]
    st.seats[0].jailed = True
    st.phase = "roll"
    st, ev = act(st, "use_card")
    assert not st.seats[0].jailed and st.decks["email"][-1] == "email_reivindicacion"


def test_card_pay_each_and_collect_each() -> None:
    st = game(players=3)
    stack_deck(st, "fax", "fax_cena_gala")
    st, ev = roll(st, 8, 9)  # 17 Fax
    assert [t["to"] for t in transfers(ev, "card")] == [1, 2] and st.seats[0].cash == 150000 - 5000
    st = game(players=3)
    stack_deck(st, "fax", "fax_guia_turistas")
    st, ev = roll(st, 8, 9)
    assert st.seats[0].cash == 150000 + 4000


def test_card_move_back_three() -> None:
    st = game()
    st.seats[0].pos = 13
    stack_deck(st, "fax", "fax_regrese_3")
    st, _ = roll(st, 1, 3)
    assert st.seats[0].pos == 14


def test_card_repairs_per_building() -> None:
    st = own(game(), 0, 1, 2, 4)
    st.level[1], st.level[2], st.level[4] = 5, 4, 4
    st.seats[0].pos = 33
    stack_deck(st, "fax", "fax_remodelacion")
    st, ev = roll(st, 1, 3)
    card = [c for c in load("turismundo").deck("fax").cards if c.id == "fax_remodelacion"][0]
    assert transfers(ev, "repairs")[0]["amount"] == 8 * card.amount + card.amount2


def test_card_nearest_airline_pays_double() -> None:
    st = own(game(), 1, 25)
    st.seats[0].pos = 13
    stack_deck(st, "fax", "fax_linea_aerea")
    st, ev = roll(st, 1, 3)
    assert st.seats[0].pos == 25 and transfers(ev, "rent")[0]["amount"] == 2 * 2500


# -- special squares ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "pays"), [((3, 3), False), ((3, 4), False), ((4, 4), False), ((1, 1), True), ((6, 6), True)]
)
def test_customs_roll_six_seven_or_eight_or_pay(dice: tuple[int, int], pays: bool) -> None:
    st = game()
    st.seats[0].pos = 23
    st, ev = roll(st, 2, 3)
    assert st.phase == "customs"
    st, ev = roll(st, *dice)
    assert bool(transfers(ev, "customs")) == pays
    assert st.phase == "end"


def test_club_platino_membership_then_account_fee() -> None:
    st = game()
    st, ev = roll(st, 1, 2)
    assert st.seats[0].club and transfers(ev, "club_membership")[0]["amount"] == 10000
    st.seats[0].pos = 0
    st.phase = "roll"
    st, ev = roll(st, 2, 1)
    assert transfers(ev, "club_fee")[0]["amount"] == 2000


def test_club_loan_repaid_by_the_rent_of_the_first_landings() -> None:
    st = own(game(), 1, 1, 2, 4)
    st.seats[1].club = True
    st, ev = act(st, "take_loan", 1, block="rojo")
    assert transfers(ev, "club_loan")[0]["amount"] == 19000
    st.level[4] = 4
    st.bank_houses -= 4
    st.level[1] = st.level[2] = 3
    st.bank_houses -= 6
    st, ev = roll(st, 1, 3)  # Costa Rica, 4 restaurants: rent 32,500
    assert transfers(ev, "rent")[0]["amount"] == 32500
    repay = transfers(ev, "loan_repayment")[0]
    assert (repay["from"], repay["amount"]) == (1, 19000)  # the owner hands the first rent to the bank
    assert st.loans == []


def test_club_loan_not_repaid_after_two_landings_seizes_buildings() -> None:
    st = own(game(), 1, 1, 2, 4)
    st.seats[1].club = True
    st, _ = act(st, "take_loan", 1, block="rojo")
    st.level[1] = st.level[2] = st.level[4] = 1
    st.bank_houses -= 3
    st.loans[0].landings = 1  # one landing already repaid part of it
    st, ev = roll(st, 1, 3)  # Costa Rica with 1 restaurant: 3,000 of rent, far from the 19,000
    assert "loan_seized" in codes(ev)
    assert st.loans == [] and sum(st.level[i] for i in (1, 2, 4)) == 0


def test_oceania_is_a_rest_in_turismundo() -> None:
    st = game()
    st.seats[0].pos = 14
    st, ev = roll(st, 2, 4)
    assert st.seats[0].pos == 20 and st.phase == "end" and st.seats[0].lost_turns == 0


def test_oceania_loses_three_turns_in_mundial_unless_doubles() -> None:
    st = game("mundial")
    st.seats[0].pos = 14
    st, _ = roll(st, 2, 4)
    assert st.seats[0].lost_turns == 3
    st, _ = act(st, "end_turn")
    st, _ = roll(st, 1, 2, seat=1)
    st, _ = act(st, "buy", 1) if st.phase == "buy" else (st, [])
    st, _ = act(st, "end_turn", 1)
    st, ev = roll(st, 1, 2)  # first lost turn, no double
    assert st.seats[0].pos == 20 and st.seats[0].lost_turns == 2 and st.phase == "end"
    st, _ = act(st, "end_turn")
    st, _ = roll(st, 1, 2, seat=1)
    st, _ = act(st, "buy", 1) if st.phase == "buy" else (st, [])
    st, _ = act(st, "end_turn", 1)
    assert st.phase == "end" and st.seats[0].lost_turns == 1  # lost without rolling
    # A double on the first lost turn frees the seat at once.
    st = game("mundial")
    st.seats[0].pos = 14
    st, _ = roll(st, 2, 4)
    st.current, st.phase = 0, "roll"
    st, ev = roll(st, 3, 3)
    assert "left_rest" in codes(ev) and st.seats[0].pos == 26


def test_taxes_paid_to_bank() -> None:
    st = game("monopolio")
    st, ev = roll(st, 1, 3)
    assert transfers(ev, "tax")[0]["amount"] == 20000


# -- jail ---------------------------------------------------------------------------------------------


def _jailed(edition: str = "turismundo"):
    st = game(edition)
    st.seats[0].pos = 30 if edition != "monopolio" else 10
    st.seats[0].jailed = True
    return st


def test_jail_leave_by_doubles_moving_by_that_roll_without_another_roll() -> None:
    st = _jailed()
    st, ev = roll(st, 2, 2)
    assert not st.seats[0].jailed and st.seats[0].pos == 34 and st.phase in ("buy", "end")


def test_jail_leave_by_paying_the_fine() -> None:
    st = _jailed()
    st, ev = act(st, "pay_fine")
    assert not st.seats[0].jailed and transfers(ev, "fine")[0]["amount"] == 5000 and st.phase == "roll"


def test_jail_forced_to_pay_after_third_failed_turn_and_moves() -> None:
    st = _jailed()
    st.seats[0].jail_turns = 2
    st, ev = roll(st, 1, 2)
    assert not st.seats[0].jailed and transfers(ev, "fine") and st.seats[0].pos == 33


def test_jail_failed_roll_stays() -> None:
    st = _jailed()
    st, ev = roll(st, 1, 2)
    assert st.seats[0].jailed and st.seats[0].jail_turns == 1 and st.phase == "end"


def test_mundial_greenland_three_turns_then_leave_without_fine() -> None:
    st = _jailed("mundial")
    st.seats[0].jail_turns = 2
    st, ev = roll(st, 3, 3)  # a double does not free in mundial
    assert not st.seats[0].jailed and not transfers(ev, "fine") and st.seats[0].pos == 30


def test_in_jail_a_seat_builds_trades_and_mortgages() -> None:
    st = own(_jailed(), 0, 1, 2, 4, 7)
    st, _ = act(st, "build", square=1)
    st, _ = act(st, "mortgage", square=7)
    st, _ = act(st, "propose_trade", trade=Trade(proposer=0, target=1, give=Offer(titles=(7,)), take=Offer(cash=100)))
    assert st.level[1] == 1 and st.mortgaged[7] and st.trade is not None


# -- debts and bankruptcy -----------------------------------------------------------------------------


def test_debt_must_be_raised_then_is_paid() -> None:
    st = own(game(), 1, 6, 7, 9)
    st.level[6] = st.level[7] = st.level[9] = 4
    own(st, 0, 12)
    st.seats[0].cash = 32000
    st, ev = roll(st, 3, 4)  # Argentina with 4: 40,000
    assert st.debts and st.debts[0].amount == 40000
    with pytest.raises(IllegalAction):
        act(st, "end_turn")
    st, ev = act(st, "mortgage", square=12)
    assert not st.debts and transfers(ev, "rent")[0]["amount"] == 40000
    assert st.seats[0].cash == 32000 + 9000 - 40000


def test_bankrupt_to_a_seat_gives_everything_after_selling_buildings_at_half() -> None:
    st = own(game(players=3), 1, 6, 7, 9)
    st.level[6] = st.level[7] = st.level[9] = 5
    own(st, 0, 1, 2, 4, 12)
    st.level[1] = st.level[2] = st.level[4] = 1
    st.mortgaged[12] = True
    st.seats[0].cash = 1000
    st.seats[0].jail_cards = ["fax_reivindicacion"]
    st, _ = roll(st, 3, 4)
    cash1 = st.seats[1].cash
    st, ev = act(st, "bankrupt")
    assert st.seats[0].out and st.owner[1] == st.owner[12] == 1 and st.level[1] == 0
    assert st.seats[1].jail_cards == ["fax_reivindicacion"]
    # 1,000 cash + 3 restaurants at half (7,500) to the creditor, less the 10 % on Italia (900).
    assert st.seats[1].cash == cash1 + 1000 + 7500 - 900
    st, _ = act(st, "keep_mortgaged", 1)  # the creditor's decision on Italia (see below)
    assert st.current == 1 and st.phase == "roll"


def test_bankrupt_to_the_bank_auctions_the_titles() -> None:
    st = own(game(players=3), 0, 7, 12)
    st.mortgaged[7] = st.mortgaged[12] = True
    st.seats[0].cash = 0
    st.seats[0].pos = 23
    st, _ = roll(st, 2, 3)  # Aduana
    st, _ = roll(st, 1, 1)  # pays 10,000: cannot
    st, ev = act(st, "bankrupt")
    assert st.auction is not None and st.auction.square == 7 and st.auction_queue == [12]
    st = _close_auction_with_passes(st)
    assert st.owner[7] == st.owner[12] == -1 and st.current == 1


def test_game_goes_on_without_the_bankrupt_seat_and_the_last_one_wins() -> None:
    st = own(game(), 1, 7)
    st.seats[0].cash = 0
    st, _ = roll(st, 3, 4)
    st, ev = act(st, "bankrupt")
    assert st.phase == "over" and st.winner == 1 and "game_over" in codes(ev)


def test_bankruptcy_refused_while_selling_and_mortgaging_would_pay_the_debt() -> None:
    # Rules 000 §12: bankrupt is who cannot gather the sum "ni hipotecando, ni vendiendo" (also 001 and 002).
    st = own(game(), 1, 6, 7, 9)
    st.level[6] = st.level[7] = st.level[9] = 3
    own(st, 0, 1, 2, 4, 12)
    st.level[1] = st.level[2] = st.level[4] = 1
    st.bank_houses -= 12
    st.seats[0].cash = 1000
    st, _ = roll(st, 3, 4)  # Argentina with 3 restaurants: 27,000
    # 3 restaurants at half (7,500) + mortgages of Canadá, E.U.A., Costa Rica and Italia (18,500): 26,000.
    assert not any(a.kind == "bankrupt" for a in legal_actions(st, 0))
    with pytest.raises(IllegalAction) as err:
        act(st, "bankrupt")
    assert (err.value.code, err.value.params) == ("debt_can_be_raised", {"amount": 26000})
    st.debts[0].amount = 27001  # one peso more than everything would raise
    assert any(a.kind == "bankrupt" for a in legal_actions(st, 0))
    st, _ = act(st, "bankrupt")
    assert st.seats[0].out


def test_bankruptcy_counts_what_the_bank_pays_for_titles_in_mundial() -> None:
    # Rules 002 "Bankruptcy": bankrupt when the value of the properties does not cover the debt; the bank
    # buys titles back at their price ("Returns to the Bank"), more than their mortgage.
    st = own(game("mundial"), 1, 7)
    own(st, 0, 9)
    st.seats[0].cash = 5
    st, _ = roll(st, 3, 4)  # Argentina: 20
    with pytest.raises(IllegalAction) as err:
        act(st, "bankrupt")
    assert (err.value.code, err.value.params) == ("debt_can_be_raised", {"amount": 200})
    st, ev = act(st, "sell_title", square=9)
    assert not st.debts and st.seats[0].cash == 5 + 200 - 20


def test_creditor_pays_the_interest_and_may_lift_inherited_mortgages_for_the_mortgage_alone_that_same_turn() -> None:
    # Rules 000 §12: the creditor pays the 10 % at once and "en ese mismo turno" may lift for the mortgage
    # alone; later, the 10 % is due again. The bankruptcy ends the debtor's turn, so the decision comes first.
    st = own(game(players=3), 1, 6, 7, 9)
    st.level[6] = st.level[7] = st.level[9] = 5
    st.bank_hotels -= 3
    own(st, 0, 12, 14, 26)
    st.mortgaged[12] = st.mortgaged[14] = st.mortgaged[26] = True
    st.seats[0].cash = 1000
    st, _ = roll(st, 3, 4)
    cash = st.seats[1].cash
    st, ev = act(st, "bankrupt")
    assert [t["amount"] for t in transfers(ev, "interest")] == [900, 1000, 1350]
    assert "may_lift" in codes(ev) and st.lift is not None and st.lift.squares == [12, 14, 26]
    assert st.seat_to_act() == [1] and st.current == 0
    with pytest.raises(IllegalAction) as err:  # play waits for the creditor
        act(st, "roll", 1)
    assert err.value.code in ("not_your_turn", "lift_pending")
    st, ev = act(st, "unmortgage", 1, square=14)
    assert transfers(ev, "unmortgage")[0]["amount"] == 10000 and st.lift.squares == [12, 26]
    st, ev = act(st, "keep_mortgaged", 1)
    assert st.lift is None and st.current == 1 and st.phase == "roll" and "kept_mortgaged" in codes(ev)
    assert st.seats[1].cash == cash + 1000 - 900 - 1000 - 1350 - 10000
    st, ev = act(st, "unmortgage", 1, square=12)  # the same turn has passed: the 10 % again
    assert transfers(ev, "unmortgage")[0]["amount"] == 9000 + 900


def test_a_title_traded_away_leaves_the_creditors_decision_on_inherited_mortgages() -> None:
    # The decision names the inherited mortgages the creditor holds: one it trades away before deciding is the
    # receiver's to lift or keep (whose 10 % the trade's own rules say), no longer on the creditor's list. Games
    # of rulebook 1 kept it there, and replay so.
    import msgspec

    from engine import Offer, State, Trade

    def inherited(rulebook: int) -> State:
        st = own(game(players=3), 1, 6, 7, 9)
        st.settings = msgspec.structs.replace(st.settings, rulebook=rulebook)
        st.level[6] = st.level[7] = st.level[9] = 5
        st.bank_hotels -= 3
        own(st, 0, 12, 14, 26)
        st.mortgaged[12] = st.mortgaged[14] = st.mortgaged[26] = True
        st.seats[0].cash = 1000
        st, _ = roll(st, 3, 4)
        st, _ = act(st, "bankrupt")
        assert st.lift is not None and st.lift.squares == [12, 14, 26]
        trade = Trade(proposer=1, target=2, give=Offer(titles=(14,)), take=Offer(cash=500))
        st, _ = act(st, "propose_trade", 1, trade=trade)
        st, _ = act(st, "accept_trade", 2)
        assert st.owner[14] == 2
        return st

    st = inherited(2)
    assert st.lift is not None and st.lift.squares == [12, 26]
    st, _ = act(st, "keep_mortgaged", 1)
    assert st.lift is None and st.current == 1
    old = inherited(1)
    assert old.lift is not None and old.lift.squares == [12, 14, 26]


def test_creditor_who_lifts_every_inherited_mortgage_ends_the_decision() -> None:
    st = own(game(), 1, 7)
    own(st, 0, 12)
    st.mortgaged[12] = True
    st.seats[0].cash = 0
    st.seats[1].cash = 9000
    own(st, 1, 6, 9)  # the whole block: Argentina charges 3,000 and seat 0 has nothing to raise
    st, ev = roll(st, 3, 4)
    st, ev = act(st, "bankrupt")
    assert st.phase == "over"  # two seats: the game is over, nothing is left to decide
    assert st.lift is None
    st = own(game(players=3), 1, 6, 7, 9)
    own(st, 0, 12)
    st.mortgaged[12] = True
    st.seats[0].cash = 0
    st, _ = roll(st, 3, 4)
    st, _ = act(st, "bankrupt")
    st, ev = act(st, "unmortgage", 1, square=12)
    assert st.lift is None and st.current == 1 and "turn_started" in codes(ev)


def test_creditor_who_cannot_pay_the_interest_owes_it_first_and_then_decides() -> None:
    st = own(game(players=3), 1, 6, 7, 9)
    own(st, 0, 12, 14)
    st.mortgaged[12] = st.mortgaged[14] = True
    own(st, 1, 15)
    st.seats[0].cash = 0
    st.seats[1].cash = 0
    st, _ = roll(st, 3, 4)  # rent 3,000; nothing to raise
    st, ev = act(st, "bankrupt")
    assert st.debts[0].debtor == 1 and st.debts[0].reason == "interest" and st.lift is not None
    assert st.seat_to_act() == [1]
    with pytest.raises(IllegalAction) as err:
        act(st, "keep_mortgaged", 1)
    assert err.value.code == "debt_pending"
    st, _ = act(st, "mortgage", 1, square=15)  # 10,000 pays both interests (900 and 1,000)
    assert not st.debts and st.lift is not None
    st, _ = act(st, "keep_mortgaged", 1)
    assert st.current == 1


def test_mortgaged_title_handed_to_the_bank_in_payment_in_monopolio() -> None:
    # Rules 001 "HIPOTECAS": the bank takes a mortgaged title in payment, keeps its 10 % and auctions it.
    st = own(game("monopolio", players=3), 1, 37)
    own(st, 0, 39)
    st.mortgaged[39] = True
    st.seats[0].cash = 0
    st.seats[0].pos = 30
    st, ev = roll(st, 3, 4)  # 37 Paseo de la Castellana: 3,500
    assert st.debts[0].amount == 3500
    with pytest.raises(IllegalAction) as err:  # Paseo del Prado is still worth 18,000 to the bank
        act(st, "bankrupt")
    assert (err.value.code, err.value.params) == ("debt_can_be_raised", {"amount": 18000})
    assert Action(kind="title_to_bank", seat=0, square=39) in legal_actions(st, 0)
    st, ev = act(st, "title_to_bank", square=39)
    # 40,000 less the 20,000 mortgage and its 2,000 of interest.
    assert transfers(ev, "title_to_bank")[0]["amount"] == 18000 and not st.debts
    assert st.owner[39] == -1 and not st.mortgaged[39]
    assert st.auction is not None and st.auction.square == 39 and st.seats[0].cash == 18000 - 3500


def test_a_mortgaged_title_goes_to_the_bank_only_in_payment_and_only_in_monopolio() -> None:
    st = own(game("monopolio"), 0, 39)
    st.mortgaged[39] = True
    with pytest.raises(IllegalAction) as err:
        act(st, "title_to_bank", square=39)
    assert err.value.code == "not_in_debt"
    st = own(game(), 0, 7)
    st.mortgaged[7] = True
    with pytest.raises(IllegalAction) as err:
        act(st, "title_to_bank", square=7)
    assert err.value.code == "bank_takes_no_titles"


def test_bankruptcy_interest_is_ten_percent_of_the_mortgage() -> None:
    # Rules 000 §12 says "10% del valor de la propiedad"; read as the 10 % on the mortgage that §10 charges
    # (see the edition file): Italia (price 18,000, mortgage 9,000) costs its creditor 900.
    st = own(game(players=3), 1, 6, 7, 9)
    own(st, 0, 12)
    st.mortgaged[12] = True
    st.seats[0].cash = 0
    st, _ = roll(st, 3, 4)
    st, ev = act(st, "bankrupt")
    assert transfers(ev, "interest")[0]["amount"] == 900


# -- the end ------------------------------------------------------------------------------------------


def test_time_limit_completes_the_turn_then_ranks_by_net_worth() -> None:
    st = own(game(), 1, 7)
    st, _ = roll(st, 1, 1)  # a double: the turn goes on
    st, _ = apply(st, Action(kind="time_up"))
    assert st.phase != "over"
    with pytest.raises(IllegalAction):
        act(st, "propose_trade", trade=Trade(proposer=0, target=1, give=Offer(cash=1)))
    if st.phase == "buy":
        st, _ = act(st, "decline")
        st = _close_auction_with_passes(st)
    st, _ = roll(st, 1, 2)
    if st.phase == "buy":
        st, _ = act(st, "buy")
    st, ev = act(st, "end_turn")
    over = [e for e in ev if e["code"] == "game_over"][0]
    assert st.phase == "over" and over["reason"] == "time_limit"
    rows = over["standings"]
    assert [r["rank"] for r in rows] == [1, 2]
    for r in rows:
        assert r["net_worth"] == worth(st, r["seat"]) == r["cash"] + r["titles"] + r["buildings"]


def test_net_worth_counts_mortgaged_titles_at_half_and_buildings_at_cost() -> None:
    st = own(game(), 0, 1, 2, 4, 7)
    st.level[1] = st.level[2] = st.level[4] = 1
    st.mortgaged[7] = True
    assert worth(st, 0) == 150000 + 5000 + 6000 + 8000 + 7500 + 3 * 5000


def test_voluntary_withdrawal() -> None:
    st = own(game(players=3), 1, 7)
    st, ev = act(st, "withdraw", 1)
    assert st.seats[1].out and st.auction is not None and st.auction.square == 7


# -- variants and house rules --------------------------------------------------------------------------


def test_variant_time_limit_deals_two_titles_each_paid() -> None:
    st, ev = new_game("turismundo", ["A", "B", "C"], seed=4, settings=Settings(deal_titles=2))
    for s in range(3):
        mine = [i for i, o in enumerate(st.owner) if o == s]
        assert len(mine) == 2
        assert st.seats[s].cash == 150000 - sum(load("turismundo").squares[i].price for i in mine)


def test_variant_game_ends_at_second_bankruptcy() -> None:
    st = own(game(players=4, end_at_bankruptcy=2), 3, 7)
    st.seats[1].out = True
    st.bankruptcies = 1
    st.seats[0].cash = 0
    st, _ = roll(st, 3, 4)
    st, ev = act(st, "bankrupt")
    assert st.phase == "over" and [e for e in ev if e["code"] == "game_over"][0]["reason"] == "bankruptcy"


def test_variant_staggered_starts() -> None:
    st, _ = new_game("turismundo", ["A", "B", "C"], seed=4, settings=Settings(staggered_start=True))
    assert sorted(s.pos for s in st.seats) == [0, 10, 20]


def test_variant_auction_only() -> None:
    st = game(auction_only=True)
    st, ev = roll(st, 3, 4)
    assert st.auction is not None and st.phase == "end"


def test_house_rule_free_parking_pot() -> None:
    st = game(free_parking_pot=True)
    st, ev = roll(st, 1, 2)  # club membership 10,000 to the pot
    assert st.pot == 10000
    st.seats[0].pos = 14
    st.phase = "roll"
    st, ev = roll(st, 2, 4)  # Oceanía
    assert st.pot == 0 and transfers(ev, "pot")[0]["amount"] == 10000


def test_house_rule_starting_cash_and_random_order() -> None:
    st, ev = new_game("turismundo", ["A", "B", "C"], seed=9, settings=Settings(start_cash=99000, random_order=True))
    assert all(s.cash == 99000 for s in st.seats) and "order_shuffled" in codes(ev)


def test_house_rule_decline_without_auction() -> None:
    st = game(auction_on_decline=False)
    st, _ = roll(st, 3, 4)
    st, _ = act(st, "decline")
    assert st.auction is None and st.owner[7] == -1


def test_mundial_bank_buys_titles_back() -> None:
    st = own(game("mundial"), 0, 7, 9)
    st.mortgaged[9] = True
    st, ev = act(st, "sell_title", square=7)
    assert st.owner[7] == -1 and transfers(ev, "sell_title")[0]["amount"] == 200
    st, ev = act(st, "sell_title", square=9)
    assert transfers(ev, "sell_title")[0]["amount"] == 100


# -- the modern rulebook (mundial, rules 002) and its house rules ------------------------------------------


def test_mundial_doubles_give_no_extra_roll() -> None:
    # Rules 002 "Starting the Game": roll and move; nothing more on a double.
    st = game("mundial")
    st, _ = roll(st, 2, 2)  # 4 Costa Rica
    st, _ = act(st, "decline")
    assert st.phase == "end" and st.doubles == 0


def test_mundial_declined_title_stays_with_the_bank() -> None:
    # Rules 002 "Properties": a player "may buy"; nothing says the bank auctions what is declined.
    st = game("mundial")
    st, _ = roll(st, 3, 4)
    st, ev = act(st, "decline")
    assert st.auction is None and st.owner[7] == -1 and "auction_opened" not in codes(ev)


def test_mundial_lifting_a_mortgage_pays_back_the_mortgage() -> None:
    # Rules 002 "Mortgages": the mortgage is lent by the bank; no interest is written anywhere.
    st = own(game("mundial"), 0, 7)
    st, _ = act(st, "mortgage", square=7)
    st, ev = act(st, "unmortgage", square=7)
    assert transfers(ev, "unmortgage")[0]["amount"] == 100


def test_mundial_building_need_not_be_even() -> None:
    # Rules 002 "Restaurants and Hotels": the whole set, up to 4 restaurants per title, then a hotel in their
    # place; nothing about spreading them.
    st = own(game("mundial"), 0, 6, 7, 9)
    st.seats[0].cash = 5000
    st, ev = act(st, "build", square=7, count=5)
    assert [st.level[i] for i in (6, 7, 9)] == [0, 5, 0] and st.bank_hotels == 11
    st, _ = act(st, "sell", square=7)  # a hotel back to four restaurants, the others untouched
    assert [st.level[i] for i in (6, 7, 9)] == [0, 4, 0]


def test_mundial_hotel_sold_without_restaurants_in_the_bank_takes_only_that_hotel() -> None:
    st = own(game("mundial"), 0, 6, 7, 9)
    st.level[7] = st.level[9] = 5
    st.level[6] = 2
    st.bank_hotels -= 2
    st.bank_houses = 3
    st, ev = act(st, "sell", square=7)
    assert [st.level[i] for i in (6, 7, 9)] == [2, 0, 5]
    assert transfers(ev, "sell_building")[0]["amount"] == (4 * 75 + 75) // 2


@pytest.mark.parametrize(
    ("switch", "edition"), [("doubles_roll_again", "mundial"), ("doubles_roll_again", "turismundo")]
)
def test_house_rule_another_roll_on_doubles(switch: str, edition: str) -> None:
    on = edition == "mundial"
    st = game(edition, **{switch: on})
    st, _ = roll(st, 2, 2)
    if st.phase == "buy":
        st, _ = act(st, "decline")
        st = _close_auction_with_passes(st)
    assert st.phase == ("roll" if on else "end")


def test_house_rule_three_doubles_to_jail_can_be_switched_off() -> None:
    st = game(three_doubles_jail=False)
    st.seats[0].pos = 36
    st, _ = roll(st, 1, 1)  # 38
    st, _ = act(st, "decline")
    st = _close_auction_with_passes(st)
    st, _ = roll(st, 1, 1)  # 0
    st, ev = roll(st, 2, 2)  # a third double: the seat just moves on to 4 and rolls again
    assert "three_doubles" not in codes(ev) and st.seats[0].pos == 4 and not st.seats[0].jailed
    st = game("mundial", doubles_roll_again=True, three_doubles_jail=True)
    st.doubles = 2
    st, ev = roll(st, 3, 3)
    assert "three_doubles" in codes(ev) and st.seats[0].jailed


def test_house_rule_auction_on_decline_in_mundial() -> None:
    st = game("mundial", auction_on_decline=True)
    st, _ = roll(st, 3, 4)
    st, _ = act(st, "decline")
    assert st.auction is not None and st.auction.square == 7


def test_house_rule_mortgage_interest() -> None:
    st = own(game("mundial", mortgage_interest=True), 0, 7)
    st.mortgaged[7] = True
    st, ev = act(st, "unmortgage", square=7)
    assert transfers(ev, "unmortgage")[0]["amount"] == 110
    st = own(game(mortgage_interest=False), 0, 7)
    st.mortgaged[7] = True
    st, ev = act(st, "unmortgage", square=7)
    assert transfers(ev, "unmortgage")[0]["amount"] == 7500


def test_house_rule_even_building() -> None:
    st = own(game("mundial", even_building=True), 0, 6, 7, 9)
    st, _ = act(st, "build", square=7)
    with pytest.raises(IllegalAction) as err:
        act(st, "build", square=7)
    assert err.value.code == "build_evenly"
    st = own(game(even_building=False), 0, 1, 2, 4)
    st, _ = act(st, "build", square=1, count=3)
    assert [st.level[i] for i in (1, 2, 4)] == [3, 0, 0]


def test_a_new_game_stores_the_rules_it_plays_by() -> None:
    st, _ = new_game("mundial", ["A", "B"], seed=1, settings=Settings(even_building=True))
    s = st.settings
    assert s.rulebook == 2
    assert (s.doubles_roll_again, s.three_doubles_jail, s.auction_on_decline, s.mortgage_interest) == (False,) * 4
    assert s.even_building and s.trading_window and s.double_rent_with_mortgaged and not s.club_loans
    st, _ = new_game("turismundo", ["A", "B"], seed=1)
    s = st.settings
    assert s.doubles_roll_again and s.three_doubles_jail and s.auction_on_decline and s.mortgage_interest
    assert s.even_building and s.club_loans and not s.trading_window


def test_a_game_stored_before_the_rulebook_keeps_the_earlier_readings() -> None:
    st = game("mundial")
    st.settings = Settings()  # as a game stored before the rulebook existed reads back
    st, _ = roll(st, 2, 2)
    st, _ = act(st, "decline")
    assert st.auction is not None  # rulebook 0 auctioned a declined title in every edition
    st = _close_auction_with_passes(st)
    assert st.phase == "roll"  # and rolled again on doubles


# -- the contract -------------------------------------------------------------------------------------


def test_illegal_action_raises_with_code_and_leaves_state_untouched() -> None:
    st = game()
    before = to_json(st)
    with pytest.raises(IllegalAction) as err:
        act(st, "buy")
    assert err.value.code == "nothing_to_buy"
    with pytest.raises(IllegalAction) as err:
        act(st, "roll", 1)
    assert err.value.code == "not_your_turn"
    assert to_json(st) == before


def test_version_grows_by_one_and_json_round_trips() -> None:
    st = game()
    st2, _ = roll(st, 3, 4)
    assert st2.version == st.version + 1
    assert from_json(to_json(st2)) == st2


def test_same_seed_and_actions_give_the_same_game() -> None:
    def play(seed: int) -> bytes:
        st, _ = new_game("turismundo", ["A", "B"], seed=seed)
        for _ in range(30):
            kind = {"roll": "roll", "buy": "buy", "end": "end_turn", "customs": "roll"}.get(st.phase)
            if st.auction is not None:
                st, _ = act(st, "pass_bid", st.auction.active[0])
                continue
            if st.debts:
                st, _ = act(st, "bankrupt", st.debts[0].debtor)
                continue
            if kind is None:
                break
            if kind == "buy" and st.seats[st.current].cash < 40000:
                kind = "decline"
            st, _ = act(st, kind)
        return to_json(st)

    assert play(11) == play(11)
    assert play(11) != play(12)


def test_rigged_dice_are_used_before_the_generator() -> None:
    st = rig(game(), 6, 5)
    st, ev = act(st, "roll")
    assert ev[0]["dice"] == [6, 5]


@pytest.mark.parametrize("edition", ["turismundo", "mundial", "monopolio"])
def test_legal_kinds_are_the_kinds_of_the_legal_actions(edition: str) -> None:
    from engine import apply_inplace, clone, legal_kinds
    from render.sample import play, simple_choice

    first, steps = play(edition, seed=2, turns=10_000, choose=simple_choice)
    st = clone(first)
    for action, _ in steps:
        apply_inplace(st, action)
        for seat in range(-1, len(st.seats) + 1):
            kinds = {a.kind for a in legal_actions(st, seat)}
            assert legal_kinds(st, seat) == kinds, (st.version, seat)
            # What a table asks of the other seats: only the kinds not found yet.
            skip = frozenset(("build", "mortgage", "propose_trade", "roll")[: st.version % 5])
            assert legal_kinds(st, seat, skip) == kinds - skip, (st.version, seat, skip)


@pytest.mark.parametrize("edition", ["turismundo", "mundial", "monopolio"])
def test_legal_actions_hold_every_title_action_the_rules_accept(edition: str) -> None:
    """`legal_actions` leaves out the title actions a title's own state rules out: never one the rules take."""
    from engine import apply_inplace, clone
    from engine.board import BOARD_SIZE
    from render.sample import play, simple_choice

    kinds = ("build", "sell", "mortgage", "unmortgage", "sell_title", "title_to_bank")
    first, steps = play(edition, seed=3, turns=10_000, choose=simple_choice)
    st = clone(first)
    seen: set[str] = set()
    for action, _ in steps:
        apply_inplace(st, action)
        for seat in range(len(st.seats)):
            listed = set(legal_actions(st, seat))
            for square in range(BOARD_SIZE):
                for kind in kinds:
                    candidate = Action(kind=kind, seat=seat, square=square)
                    if refusal(st, candidate) is None:
                        seen.add(kind)
                        assert candidate in listed, (st.version, candidate)
    assert {"build", "mortgage", "unmortgage"} <= seen  # the games did reach those decisions

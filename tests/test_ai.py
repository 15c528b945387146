"""Computer players: every move is legal, from any state, and each decision is a sensible one."""

from __future__ import annotations

import random

import pytest
from rulekit import game, own

from engine import (
    BANK,
    Action,
    Offer,
    State,
    Trade,
    apply_inplace,
    legal_actions,
    load,
    new_game,
    refusal,
    rent,
    to_json,
)
from engine.ai import LEVELS, choose, view
from engine.ai.value import holdings, holdings_change
from engine.ai.view import table
from engine.simulate import Driver, play
from engine.state import Auction, Debt, Settings

LEVEL_NAMES = tuple(LEVELS)


def legal(st: State, action: Action) -> bool:
    """Legal now, and of a kind that `legal_actions` lists (bids and trades are filled-in templates)."""
    kinds = {a.kind for a in legal_actions(st, action.seat)}
    return action.kind in kinds and refusal(st, action) is None


# -- every move is legal, whoever is asked ----------------------------------------------------------------


@pytest.mark.parametrize("edition", ["turismundo", "mundial", "monopolio"])
@pytest.mark.parametrize("players", [2, 5])
def test_every_seat_asked_at_every_step_answers_legally(edition: str, players: int) -> None:
    """Asked at any moment (its turn or not, in an auction, in debt, facing an offer), a computer either
    waits (None) or sends a legal move; the game itself is played by the driver to its end."""
    levels = [LEVEL_NAMES[i % len(LEVEL_NAMES)] for i in range(players)]
    # A turn limit: `mundial` as written (no auctions, trades only once every title is sold) can run long.
    house = Settings(max_turns=400)
    st, _ = new_game(edition, [f"P{i}" for i in range(players)], seed=players, settings=house, computers=levels)
    driver = Driver("short")
    steps = 0
    while st.phase != "over":
        for seat in range(players):
            for level in LEVEL_NAMES:
                for jail in ("short", "long"):
                    action = choose(st, seat, level, jail)
                    if action is not None:
                        assert legal(st, action), (action, st.phase, st.version)
        action = driver.next_action(st)
        assert action is not None
        apply_inplace(st, action)
        steps += 1
        assert steps < 20_000
    assert st.winner >= 0


def test_same_seed_same_game() -> None:
    def final(seed: int) -> bytes:
        st, _ = new_game("turismundo", ["A", "B", "C"], seed=seed, computers=["normal", "facil", "normal"])
        play(st)
        return to_json(st)

    assert final(3) == final(3)
    assert final(3) != final(4)


def test_nothing_to_do_is_none() -> None:
    st = game(players=3)
    assert choose(st, 1) is None  # not its turn
    st.phase = "over"
    assert choose(st, 0) is None


# -- buying and auctions ----------------------------------------------------------------------------------


def test_buys_when_it_keeps_a_reserve_and_declines_when_poor() -> None:
    st = game()
    st.seats[0].pos = 1
    st.phase = "buy"
    assert choose(st, 0).kind == "buy"
    st.seats[0].cash = 5000  # exactly the price: nothing left for rents
    assert choose(st, 0, "facil").kind == "decline"


def test_buys_the_title_that_completes_its_block_even_when_short_of_reserve() -> None:
    st = game()
    own(st, 0, 1, 2)
    st.seats[0].pos = 4
    st.seats[0].cash = 9000
    st.phase = "buy"
    assert choose(st, 0).kind == "buy"


def _auction(st: State, square: int, bid: int = 0, bidder: int = -1) -> State:
    st.auction = Auction(item="title", square=square, active=list(range(len(st.seats))), bid=bid, bidder=bidder)
    return st


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_bids_within_estimate_and_cash(level: str) -> None:
    st = _auction(game(), 39)  # 35,000
    action = choose(st, 1, level)
    assert action.kind == "bid"
    assert action.amount <= st.seats[1].cash
    assert action.amount <= 35_000 * LEVELS[level].bid_ceiling
    st.auction.bid, st.auction.bidder = 60_000, 0
    assert choose(st, 1, level).kind == "pass_bid"


def test_never_bids_beyond_its_cash() -> None:
    st = _auction(game(), 39)
    st.seats[1].cash = 12_000
    action = choose(st, 1)
    assert action.kind == "pass_bid" or action.amount <= 12_000


def test_leader_of_an_auction_waits() -> None:
    st = _auction(game(), 39, bid=10_000, bidder=1)
    assert choose(st, 1) is None


def test_auction_among_computers_ends_with_the_keenest_winning() -> None:
    st = game(players=3)
    own(st, 2, 36, 38)  # seat 2 completes amarillo with 39
    _auction(st, 39)
    driver = Driver()
    while st.auction is not None:
        apply_inplace(st, driver.next_action(st))
    assert st.owner[39] == 2


# -- jail ---------------------------------------------------------------------------------------------------


def _jailed(st: State, turns: int = 0) -> State:
    seat = st.seats[0]
    seat.jailed, seat.jail_turns, seat.pos = True, turns, load(st.edition).rules.jail_square
    return st


def test_short_jail_uses_the_card_first_then_pays() -> None:
    st = _jailed(game())
    assert choose(st, 0, jail="short").kind == "pay_fine"
    st.seats[0].jail_cards = ["fax_reivindicacion"]
    assert choose(st, 0, jail="short").kind == "use_card"


def test_short_jail_rolls_when_it_cannot_pay() -> None:
    st = _jailed(game())
    st.seats[0].cash = 100
    assert choose(st, 0, jail="short").kind == "roll"


def test_long_jail_rolls_for_doubles_and_spends_a_card_only_before_the_forced_fine() -> None:
    st = _jailed(game())
    st.seats[0].jail_cards = ["fax_reivindicacion"]
    assert choose(st, 0, jail="long").kind == "roll"
    st.seats[0].jail_turns = 2
    assert choose(st, 0, jail="long").kind == "use_card"
    st.seats[0].jail_cards = []
    assert choose(st, 0, jail="long").kind == "roll"


# -- debts ----------------------------------------------------------------------------------------------------


def _debt(st: State, seat: int, amount: int) -> State:
    st.debts = [Debt(debtor=seat, creditor=1 - seat, amount=amount, reason="rent")]
    return st


def test_debt_mortgages_a_lone_title_before_breaking_a_block() -> None:
    st = game()
    own(st, 0, 1, 2, 4, 39)  # the whole rojo block and a lone amarillo
    st.seats[0].cash = 0
    action = choose(_debt(st, 0, 5000), 0)
    assert action == Action(kind="mortgage", seat=0, square=39)


def test_debt_sells_buildings_before_mortgaging_the_block() -> None:
    st = game()
    own(st, 0, 1, 2, 4)
    st.level[1] = st.level[2] = st.level[4] = 1
    st.bank_houses -= 3
    st.seats[0].cash = 0
    action = choose(_debt(st, 0, 2000), 0)
    assert action.kind == "sell"


def test_bankrupt_at_once_when_everything_would_not_cover_the_debt() -> None:
    st = game()
    own(st, 0, 1)
    st.seats[0].cash = 1000
    assert choose(_debt(st, 0, 500_000), 0).kind == "bankrupt"


def test_debt_is_settled_step_by_step_until_paid() -> None:
    st = game()
    own(st, 0, 1, 2, 4, 39)
    st.seats[0].cash = 0
    _debt(st, 0, 20_000)
    for _ in range(10):
        if not st.debts:
            break
        apply_inplace(st, choose(st, 0))
    assert not st.debts and not st.seats[0].out


def test_debt_hands_mortgaged_titles_to_the_bank_only_when_nothing_else_is_left() -> None:
    st = game("monopolio")
    own(st, 0, 6, 39)
    st.mortgaged[39] = True
    st.seats[0].cash = 0
    _debt(st, 0, 15_000)
    assert choose(st, 0) == Action(kind="mortgage", seat=0, square=6)
    apply_inplace(st, choose(st, 0))
    for square in (6, 39):  # the cheapest title first: 4,500 is not enough, 18,000 more is
        assert choose(st, 0) == Action(kind="title_to_bank", seat=0, square=square)
        apply_inplace(st, choose(st, 0))
    assert not st.debts and not st.seats[0].out


def test_creditor_lifts_the_inherited_mortgages_it_can_afford_and_keeps_the_rest() -> None:
    st = own(game(players=3), 1, 6, 7, 9)
    own(st, 0, 12, 39)
    st.mortgaged[12] = st.mortgaged[39] = True
    st.seats[0].cash = 0
    st.seats[1].cash = 20_000
    st.rigged_dice = [3, 4]
    apply_inplace(st, Action(kind="roll", seat=0))
    apply_inplace(st, Action(kind="bankrupt", seat=0))
    assert st.lift is not None and st.seat_to_act() == [1]
    # 20,000 + 3,000 of rent - 900 - 1,750 of interest: Italia (9,000) is lifted, Marruecos (17,500) is not.
    assert choose(st, 1) == Action(kind="unmortgage", seat=1, square=12)
    apply_inplace(st, choose(st, 1))
    assert choose(st, 1) == Action(kind="keep_mortgaged", seat=1)
    assert choose(st, 0) is None and choose(st, 2) is None


# -- building and mortgages -------------------------------------------------------------------------------------


def test_builds_evenly_on_a_complete_block_keeping_a_reserve() -> None:
    st = game()
    own(st, 0, 1, 2, 4)
    st.phase = "end"
    action = choose(st, 0)
    assert action.kind == "build" and action.count >= 3
    apply_inplace(st, action)
    assert max(st.level[j] for j in (1, 2, 4)) - min(st.level[j] for j in (1, 2, 4)) <= 1
    assert st.seats[0].cash >= LEVELS["normal"].build_reserve * 150_000


def test_facil_builds_less_than_normal() -> None:
    def built(level: str) -> int:
        st = game()
        own(st, 0, 1, 2, 4)
        st.phase = "end"
        st.seats[0].computer = level
        while (action := choose(st, 0, level)).kind == "build":
            apply_inplace(st, action)
        return sum(st.level[j] for j in (1, 2, 4))

    assert built("facil") < built("normal")


def test_lifts_mortgages_when_rich() -> None:
    st = game()
    own(st, 0, 39)
    st.mortgaged[39] = True
    st.phase = "end"
    assert choose(st, 0) == Action(kind="unmortgage", seat=0, square=39)
    st.seats[0].cash = 20_000
    assert choose(st, 0).kind == "end_turn"


# -- trades -----------------------------------------------------------------------------------------------------


def _offer(st: State, give: Offer, take: Offer) -> State:
    st.trade = Trade(proposer=0, target=1, give=give, take=take)
    return st


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_never_hands_over_a_block_for_nothing(level: str) -> None:
    st = game()
    own(st, 1, 1, 2, 4)
    _offer(st, Offer(cash=1000), Offer(titles=(4,)))
    assert choose(st, 1, level).kind == "reject_trade"


@pytest.mark.parametrize("level", LEVEL_NAMES)
def test_accepts_a_generous_offer_for_a_lone_title(level: str) -> None:
    st = game()
    own(st, 1, 39)
    _offer(st, Offer(cash=90_000), Offer(titles=(39,)))
    assert choose(st, 1, level).kind == "accept_trade"


def test_a_jail_card_is_not_given_away_for_nothing() -> None:
    st = game()
    st.seats[1].jail_cards = ["fax_reivindicacion"]
    _offer(st, Offer(), Offer(cards=("fax_reivindicacion",)))
    assert choose(st, 1).kind == "reject_trade"
    _offer(st, Offer(cash=12_000), Offer(cards=("fax_reivindicacion",)))
    assert choose(st, 1).kind == "accept_trade"


def test_rejects_helping_a_rival_complete_a_block_cheaply() -> None:
    st = game()
    own(st, 0, 36, 38)
    own(st, 1, 39)
    _offer(st, Offer(cash=36_000), Offer(titles=(39,)))
    assert choose(st, 1).kind == "reject_trade"


def test_proposes_a_trade_that_completes_a_block_and_the_partner_accepts() -> None:
    st = game()
    own(st, 0, 36, 38)
    own(st, 1, 39)
    st.seats[0].cash = 400_000
    st.phase = "end"
    proposal = None
    for version in range(40):  # proposals are spread over the decisions of a turn
        st.version = version
        action = choose(st, 0)
        if action.kind == "propose_trade":
            proposal = action
            break
    assert proposal is not None and proposal.trade is not None
    assert proposal.trade.take.titles == (39,)
    apply_inplace(st, proposal)
    answer = choose(st, 1)
    assert answer.kind == "accept_trade"
    apply_inplace(st, answer)
    assert all(st.owner[j] == 0 for j in (36, 38, 39))


def test_facil_never_proposes() -> None:
    st = game()
    own(st, 0, 36, 38)
    own(st, 1, 39)
    st.seats[0].cash = 400_000
    st.phase = "end"
    for version in range(40):
        st.version = version
        assert choose(st, 0, "facil").kind != "propose_trade"


def test_waits_for_the_answer_to_its_own_offer() -> None:
    st = game()
    own(st, 1, 39)
    _offer(st, Offer(cash=1000), Offer(titles=(39,)))
    st.phase = "end"
    assert choose(st, 0) is None
    assert choose(st, 1) is not None


def test_after_time_up_computers_finish_the_turn_without_trading() -> None:
    st, _ = new_game("turismundo", ["A", "B", "C"], seed=8, computers=["normal"] * 3)
    driver = Driver()
    for _ in range(300):
        apply_inplace(st, driver.next_action(st))
    apply_inplace(st, Action(kind="time_up"))
    events: list[dict] = []
    while (action := driver.next_action(st)) is not None:
        assert action.kind != "propose_trade"
        events = apply_inplace(st, action)
    assert [e["reason"] for e in events if e["code"] == "game_over"] == ["time_limit"]


def test_borrows_from_the_club_to_build_only_when_two_landings_would_repay() -> None:
    st = game()
    st.phase = "end"
    st.seats[0].club = True
    st.seats[0].cash = 16_000  # too little to build and keep the reserve
    own(st, 0, 6, 7, 9)  # morado: 45,000 buys three houses each, rent 26,000
    assert choose(st, 0) == Action(kind="take_loan", seat=0, block="morado")
    apply_inplace(st, choose(st, 0))
    assert choose(st, 0).kind == "build"


def test_no_club_loan_that_the_rent_would_not_repay() -> None:
    st = game()
    st.phase = "end"
    st.seats[0].club = True
    st.seats[0].cash = 16_000
    own(st, 0, 1, 2, 4)  # rojo: 19,000 buys one house each, rent 1,500
    assert choose(st, 0).kind == "end_turn"
    assert choose(st, 0, "facil").kind == "end_turn"


def test_buys_both_missing_titles_of_a_block_from_one_holder() -> None:
    st = game()
    own(st, 0, 36)
    own(st, 1, 38, 39)
    st.seats[0].cash = 600_000
    st.phase = "end"
    for version in range(80):
        st.version = version
        action = choose(st, 0)
        if action.kind == "propose_trade":
            break
    assert action.kind == "propose_trade" and action.trade is not None
    assert sorted(action.trade.take.titles) == [38, 39]
    apply_inplace(st, action)
    apply_inplace(st, choose(st, 1))
    assert all(st.owner[j] == 0 for j in (36, 38, 39))


def test_trade_valuation_by_groups_equals_the_whole_board_difference() -> None:
    t = table("turismundo")
    rnd = random.Random(1)
    for _ in range(500):
        owner = [rnd.choice([-1, 0, 1, 2]) if i in t.titles else -1 for i in range(40)]
        mortgaged = [rnd.random() < 0.2 and owner[i] >= 0 for i in range(40)]
        moved = tuple(rnd.sample(t.titles, rnd.randint(1, 3)))
        after = list(owner)
        for j in moved:
            after[j] = rnd.choice([0, 1, 2])
        for seat in (0, 1, 2):
            for style in LEVELS.values():
                whole = holdings(t, style, after, mortgaged, seat) - holdings(t, style, owner, mortgaged, seat)
                assert holdings_change(t, style, owner, after, mortgaged, moved, seat) == pytest.approx(whole)


def test_a_computer_proposes_at_most_once_a_turn() -> None:
    st = own(game(players=2), 0, 1, 2)  # seat 0 lacks Costa Rica for the red block; seat 1 holds it
    own(st, 1, 4)
    st.seats[1].computer = "normal"
    st.phase = "end"
    proposal = None
    for _ in range(64):  # the draw allows a proposal at about one decision in eight
        proposal = choose(st, 0, "normal")
        if proposal is not None and proposal.kind == "propose_trade":
            break
        st.version += 1
    assert proposal is not None and proposal.kind == "propose_trade"
    apply_inplace(st, proposal)
    apply_inplace(st, Action(kind="reject_trade", seat=1))  # its owner says no, whatever it would do
    # Turned down: the same turn brings no second offer, however the draws fall.
    for _ in range(64):
        again = choose(st, 0, "normal")
        assert again is not None and again.kind != "propose_trade"
        st.version += 1



@pytest.mark.parametrize("edition", ["turismundo", "monopolio"])
def test_worst_rent_is_the_rent_rule_remembered_or_worked_out_afresh(edition: str) -> None:
    """After every action of a game, for every seat: the worst rent is the highest `board.rent` of an opponent's
    title (a utility at its top multiplier and a roll of 7), and a game's `Rents` gives the same as working
    it out afresh."""
    st, _ = new_game(edition, ["A", "B", "C", "D"], seed=5, settings=Settings(max_turns=300), computers=["normal"] * 4)
    t = table(edition)
    ed = load(edition)
    driver = Driver()
    rents = view.Rents()
    boards = 0
    while (action := driver.next_action(st)) is not None:
        apply_inplace(st, action)
        for seat in range(4):
            top_utility = max(ed.economy.utility_multipliers) * 7
            expected = max(
                [top_utility if ed.squares[i].kind == "utility" else rent(st, i, 7)
                 for i in t.titles if st.owner[i] not in (BANK, seat) and not st.mortgaged[i]] or [0]
            )  # fmt: skip
            assert view.worst_rent(st, t, seat) == expected
            assert view.worst_rent(st, t, seat, rents) == expected
        boards += 1
    assert boards > 200

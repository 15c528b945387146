"""The `dificil` computer player: its board data, and each of its decisions on a set position."""

from __future__ import annotations

import pytest
from rulekit import game, own

from engine import Offer, State, Trade
from engine.ai import choose
from engine.ai.hard.worth import returns
from engine.ai.landing import POLICIES, landing, path_of
from engine.ai.landing_table import measure
from engine.ai.view import table
from engine.edition import available
from engine.simulate import Options, run
from engine.state import HOTEL, Auction

HARD = "dificil"


# -- the landing data behind its values -------------------------------------------------------------------


@pytest.mark.parametrize("edition", available())
def test_landing_data_covers_every_square_of_every_edition(edition: str) -> None:
    assert "python -m engine.ai.landing_table" in path_of(edition).read_text(encoding="utf-8")
    data = landing(edition)
    for policy in POLICIES:
        squares = data.square[policy]
        assert len(squares) == 40
        assert sum(squares) + data.in_jail[policy] == pytest.approx(1.0, abs=1e-3)
        assert 0.8 <= data.rolls_per_turn[policy] < 1.4  # lost turns and no second roll lower it (mundial)
    # Staying in jail keeps more tokens there.
    assert data.in_jail["long"] > data.in_jail["short"]


def test_landing_data_is_what_the_simulator_measures() -> None:
    """A short rerun of the generating command lands close to the stored shares (sampling noise apart)."""
    fresh = measure("monopolio", "short", games=60, seed=11)
    stored = landing("monopolio").square["short"]
    assert max(abs(a - b) for a, b in zip(fresh["square"], stored, strict=True)) < 0.006


# -- buying, reserve, auctions ----------------------------------------------------------------------------


def _buying(square: int, cash: int) -> State:
    st = game()
    st.seats[0].pos = square
    st.seats[0].cash = cash
    st.phase = "buy"
    return st


def test_buys_with_the_next_rolls_rent_covered() -> None:
    assert choose(_buying(6, 40_000), 0, HARD).kind == "buy"


def test_keeps_the_rent_of_the_next_few_squares() -> None:
    # An opponent's hotel on 9 lies three squares ahead: buying 6 would leave less than its rent.
    st = _buying(6, 60_000)
    own(st, 1, 9)
    st.level[9] = HOTEL
    assert choose(st, 0, HARD).kind == "decline"
    # The same hotel behind the seat (out of one roll's reach) costs nothing on the next roll.
    st.seats[0].pos = 11
    st.owner[9] = -1
    own(st, 1, 7)
    st.level[7] = HOTEL
    assert choose(st, 0, HARD).kind == "buy"


def test_buys_what_completes_its_block_even_short_of_the_reserve() -> None:
    st = _buying(39, 40_000)
    own(st, 0, 36, 38, 5)  # an airline to mortgage if a rent comes
    own(st, 1, 31)
    st.level[31] = 2
    assert choose(st, 0, HARD).kind == "buy"


def _auction(st: State, square: int, bid: int = 0, bidder: int = -1) -> State:
    st.auction = Auction(item="title", square=square, active=list(range(len(st.seats))), bid=bid, bidder=bidder)
    return st


def test_bids_more_for_a_title_an_opponent_needs_for_a_block() -> None:
    def limit(st: State) -> int:
        """The highest bid seat 1 makes, the others raising by the smallest step."""
        top = 0
        while (a := choose(st, 1, HARD)) is not None and a.kind == "bid":
            top = a.amount
            st.auction.bid, st.auction.bidder = a.amount + 1000, 0
        return top

    plain = limit(_auction(game(), 19))
    st = _auction(game(), 19)
    own(st, 0, 16, 18)  # seat 0 would complete naranja
    keen = limit(st)
    assert keen > plain
    assert keen <= st.seats[1].cash


def test_never_bids_beyond_what_it_can_spare() -> None:
    st = _auction(game(), 39)
    st.seats[1].cash = 12_000
    action = choose(st, 1, HARD)
    assert action.kind == "pass_bid" or action.amount <= 12_000


# -- building ---------------------------------------------------------------------------------------------


def _built(st: State, seat: int = 0) -> State:
    """Let `seat` end its turn, applying every build it wants first."""
    from engine import apply_inplace

    st.phase = "end"
    while (a := choose(st, seat, HARD)) is not None and a.kind != "end_turn":
        assert a.kind in ("build", "mortgage", "unmortgage", "propose_trade")
        if a.kind == "propose_trade":
            break
        apply_inplace(st, a)
    return st


def test_builds_two_blocks_to_the_third_restaurant_before_any_fourth() -> None:
    st = game()
    own(st, 0, 16, 18, 19, 21, 22, 24)
    st.seats[0].cash = 250_000
    _built(st)
    levels = [st.level[j] for j in (16, 18, 19, 21, 22, 24)]
    assert min(levels) >= 3 or max(levels) <= 3
    assert max(levels) >= 3


def test_does_not_build_below_its_reserve() -> None:
    st = game()
    own(st, 0, 16, 18, 19)
    st.seats[0].cash = 40_000
    own(st, 1, 21)
    st.level[21] = HOTEL  # 100,000 within reach of the seat's next roll from 19
    st.seats[0].pos = 19
    _built(st)
    assert st.seats[0].cash >= 40_000 - 10_000 or sum(st.level[j] for j in (16, 18, 19)) == 0


def test_mortgages_nothing_for_buildings_the_bank_has_none_of() -> None:
    st = game()
    own(st, 0, 6, 7, 9, 5, 15)
    st.seats[0].cash = 1_000
    st.phase = "end"
    assert choose(st, 0, HARD).kind == "mortgage"  # to build on its block while the bank has houses
    st.bank_houses = 0
    assert choose(st, 0, HARD).kind == "end_turn"


# -- trades -----------------------------------------------------------------------------------------------


def test_never_hands_a_person_a_block_for_nothing() -> None:
    st = game()
    own(st, 0, 39)
    own(st, 1, 36, 38)  # the person lacks only 39 for amarillo
    st.seats[1].computer = ""
    st.trade = Trade(proposer=1, target=0, give=Offer(cash=1000), take=Offer(titles=(39,)))
    assert choose(st, 0, HARD).kind == "reject_trade"
    # A price above what the block is worth to the person is accepted.
    st.trade = Trade(proposer=1, target=0, give=Offer(cash=140_000), take=Offer(titles=(39,)))
    assert choose(st, 0, HARD).kind == "accept_trade"


def test_proposes_a_deal_it_comes_out_of_ahead() -> None:
    st = game(players=3)
    own(st, 0, 16, 18, 1)
    own(st, 1, 19, 2, 4)
    st.seats[0].cash = 200_000
    st.seats[1].computer = st.seats[2].computer = "normal"
    st.phase = "end"
    action = choose(st, 0, HARD)
    assert action.kind == "propose_trade"
    trade = action.trade
    assert 19 in trade.take.titles
    from engine.ai.hard.deals import _title_gains

    r = returns(table(st.edition))
    mine, theirs = _title_gains(st, r, trade, r.rpt * 3)
    cash = trade.give.cash - trade.take.cash
    assert mine - cash > theirs + cash


# -- jail -------------------------------------------------------------------------------------------------


def test_leaves_jail_early_and_stays_once_the_board_is_built() -> None:
    st = game()
    st.seats[0].jailed = True
    st.seats[0].pos = 30
    assert choose(st, 0, HARD).kind == "pay_fine"
    for j in table(st.edition).titles:
        st.owner[j] = 1
    for j in (31, 33, 34, 36, 38, 39):
        st.level[j] = 3
    assert choose(st, 0, HARD).kind == "roll"


# -- strength ---------------------------------------------------------------------------------------------


def test_dificil_beats_normal() -> None:
    out = run(Options(edition="turismundo", players=4, games=60, seed=500, levels=(HARD, "normal", "normal", "normal")))
    assert out["win_rate_by_level"][HARD] > 1.3


def test_two_dificil_seats_agree_on_a_swap() -> None:
    """Each lacks one title the other holds: the proposer prices the swap so that the partner accepts."""
    from engine import apply_inplace

    st = game(players=3)
    for s in st.seats:
        s.computer = HARD
    own(st, 0, 16, 18, 1, 2)
    own(st, 1, 19, 4, 6)
    st.phase = "end"
    action = choose(st, 0, HARD)
    assert action.kind == "propose_trade" and action.trade.target == 1
    apply_inplace(st, action)
    assert choose(st, 1, HARD).kind == "accept_trade"

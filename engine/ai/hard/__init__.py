"""`dificil`: a computer player that plays for the board it is on.

It values titles by what they are expected to earn here (`worth`), keeps the cash the next roll may cost,
builds where buildings pay (up to the third first), bids up to a title's worth to it and to its opponents,
trades only when it comes out ahead of its partner (`deals`), and stays in jail once the board is
dangerous (`assets.jail_policy`).
"""

from __future__ import annotations

from engine.actions import Action
from engine.ai import money
from engine.ai.hard import assets, deals
from engine.ai.hard.worth import returns
from engine.ai.levels import Style
from engine.ai.view import Table
from engine.state import State


def decide(st: State, t: Table, seat: int, style: Style, jail_move: object) -> Action | None:
    """The move of a `dificil` seat now (see `engine.ai.choose`); `jail_move(st, t, seat, policy)` makes the
    jail move for the policy it picks."""
    r = returns(t)
    trade = st.trade
    if st.debts:
        if st.debts[0].debtor == seat:
            return money.settle_debt(st, t, seat)
        if trade is not None and trade.target == seat:
            return deals.answer(st, r, seat, assets.reserve(st, r, seat))
        return None
    if st.lift is not None:
        if st.lift.seat == seat:
            return money.lift_inherited(st, t, seat, style)
        if trade is not None and trade.target == seat:
            return deals.answer(st, r, seat, assets.reserve(st, r, seat))
        return None
    if trade is not None and trade.target == seat:
        return deals.answer(st, r, seat, assets.reserve(st, r, seat))
    if st.auction is not None:
        return assets.bid_or_pass(st, r, seat) if seat in st.auction.active else None
    if seat != st.current:
        return None
    phase = st.phase
    if phase == "roll":
        if st.seats[seat].jailed:
            return jail_move(st, t, seat, assets.jail_policy(st, r, seat))  # type: ignore[operator]
        return Action(kind="roll", seat=seat)
    if phase == "customs":
        return Action(kind="roll", seat=seat)
    if phase == "buy":
        return assets.buy_or_decline(st, r, seat)
    if phase == "end":
        return _end_of_turn(st, t, seat, style)
    return None


def _end_of_turn(st: State, t: Table, seat: int, style: Style) -> Action:
    if st.trade is not None and st.trade.proposer == seat:
        return None  # type: ignore[return-value]
    r = returns(t)
    keep = assets.reserve(st, r, seat)
    action = assets.build(st, r, seat, keep) or assets.mortgage_to_build(st, r, seat, keep)
    if action is None and not st.ending and money.loan_block(st, t, seat, style):
        action = money.loan_to_build(st, t, seat, style, money.loan_block(st, t, seat, style), keep)
    if action is None and st.trade is None and not st.ending and deals.may_propose(st, seat):
        action = deals.proposal(st, r, seat, keep)
    if action is None:
        action = assets.unmortgage(st, r, seat, keep + int(0.1 * t.ed.economy.start_cash))
    return action or Action(kind="end_turn", seat=seat)

"""Computer players: a move for every decision the engine waits for, chosen among the legal actions.

    action = choose(state, seat, level="normal", jail="short")

`choose` works from any state: the seat's own turn, an open auction, a debt, a trade offer addressed to it.
It returns None when the game waits for nothing from that seat (another seat's turn, or the seat leads the
auction). The same state always gives the same move: the only chance used is a draw keyed on the game's seed
and the state's version, so games replay exactly. Two levels play differently (`facil`, `normal`, see
`engine.ai.levels`); `jail` is `short` (leave at once by card or fine) or `long` (stay, rolling for doubles).
"""

from __future__ import annotations

from engine.actions import Action
from engine.ai import buying, money, trades
from engine.ai.levels import DEFAULT_LEVEL, LEVELS, Style, style_of
from engine.ai.view import Table, start_cash, table, worst_rent
from engine.legal import legal_actions, refusal
from engine.state import State

JAIL_POLICIES = ("short", "long")

# When a planned move is refused (it should not happen), the first of these legal kinds is taken instead.
_SAFE_KINDS = ("roll", "end_turn", "decline", "pass_bid", "reject_trade", "cancel_trade", "bankrupt")


def choose(state: State, seat: int, level: str = DEFAULT_LEVEL, jail: str = "short") -> Action | None:
    """The move of computer player `seat` now, or None when the game waits for nothing from it."""
    if state.phase == "over" or not 0 <= seat < len(state.seats) or state.seats[seat].out:
        return None
    t = table(state.edition)
    action = _decide(state, t, seat, style_of(level), jail)
    if action is None or refusal(state, t.ed, action) is None:
        return action
    return _safe(state, t, seat)


def _decide(st: State, t: Table, seat: int, style: Style, jail: str) -> Action | None:
    if st.debts:
        if st.debts[0].debtor == seat:
            return money.settle_debt(st, t, seat)
        if st.trade is not None and st.trade.target == seat:
            return trades.answer(st, t, seat, style)
        return None
    if st.trade is not None and st.trade.target == seat:
        return trades.answer(st, t, seat, style)
    if st.auction is not None:
        if seat in st.auction.active:
            return buying.bid_or_pass(st, t, seat, style, _reserve(st, t, seat, style))
        return None
    if seat != st.current:
        return None
    phase = st.phase
    me = st.seats[seat]
    if phase == "roll":
        if me.jailed and jail != "long":
            if me.jail_cards:
                return Action(kind="use_card", seat=seat)
            if me.cash >= t.ed.economy.jail_fine:
                return Action(kind="pay_fine", seat=seat)
        return Action(kind="roll", seat=seat)
    if phase == "customs":
        return Action(kind="roll", seat=seat)
    if phase == "buy":
        return buying.buy_or_decline(st, t, seat, style, _reserve(st, t, seat, style))
    if phase == "end":
        return _end_of_turn(st, t, seat, style)
    return None


def _end_of_turn(st: State, t: Table, seat: int, style: Style) -> Action:
    """Before ending the turn: withdraw an unanswered offer, lift mortgages, build, propose a trade."""
    if st.trade is not None and st.trade.proposer == seat:
        return Action(kind="cancel_trade", seat=seat)
    reserve = _reserve(st, t, seat, style)
    build_reserve = max(reserve, int(style.build_reserve * start_cash(st, t)))
    action = (
        money.unmortgage(st, t, seat, style, build_reserve)
        or money.build(st, t, seat, style, build_reserve)
        or (trades.proposal(st, t, seat, style, reserve) if st.trade is None and not st.ending else None)
    )
    return action or Action(kind="end_turn", seat=seat)


def _reserve(st: State, t: Table, seat: int, style: Style) -> int:
    """Cash kept back from buying: a share of the starting cash, and for watchful levels at least the worst
    rent an opponent can charge now."""
    base = int(style.buy_reserve * start_cash(st, t))
    if style.watch_rents:
        return max(base, worst_rent(st, t, seat))
    return base


def _safe(st: State, t: Table, seat: int) -> Action | None:
    legal = legal_actions(st, t.ed, seat)
    for kind in _SAFE_KINDS:
        for a in legal:
            if a.kind == kind:
                return a
    return None


__all__ = ["JAIL_POLICIES", "LEVELS", "choose"]

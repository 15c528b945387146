"""What a computer seat does: `engine.ai` when it is there, else a careful order of preferences."""

from __future__ import annotations

import importlib
from collections.abc import Callable

from engine import Action, State, edition_of, legal_actions, legal_kinds

Chooser = Callable[..., Action]


def _engine_ai() -> Chooser | None:
    try:
        module = importlib.import_module("engine.ai")
    except ImportError:
        return None
    return getattr(module, "choose", None)


def fallback(state: State, seat: int, level: str = "normal") -> Action | None:
    """A safe move from the legal ones: settle debts by selling and mortgaging, buy what leaves a reserve,
    never overbid, and keep the turn moving."""
    legal = legal_actions(state, seat)
    by_kind: dict[str, list[Action]] = {}
    for action in legal:
        by_kind.setdefault(action.kind, []).append(action)
    if state.trade is not None and state.trade.target == seat:
        return by_kind.get("reject_trade", [None])[0]
    if state.debts and state.debts[0].debtor == seat:
        for kind in ("sell", "sell_title", "mortgage", "title_to_bank", "bankrupt"):
            if kind in by_kind:
                return by_kind[kind][0]
    if state.lift is not None and state.lift.seat == seat:
        return by_kind.get("keep_mortgaged", [None])[0]
    if state.auction is not None and seat in state.auction.active:
        auction = state.auction
        if auction.bidder == seat:
            return None
        price = edition_of(state).squares[auction.square].price if auction.item == "title" else auction.minimum
        cash = state.seats[seat].cash
        bids = [a for a in by_kind.get("bid", []) if a.amount <= price * 3 // 4 and a.amount * 3 <= cash]
        if bids:
            return bids[0]
        return by_kind.get("pass_bid", [None])[0]
    if seat != state.current:
        return None
    if "buy" in by_kind:
        price = edition_of(state).squares[state.seats[seat].pos].price
        if state.seats[seat].cash - price >= edition_of(state).economy.salary:
            return by_kind["buy"][0]
    for kind in ("decline", "use_card", "pay_fine", "roll", "end_turn"):
        if kind in by_kind:
            if kind == "pay_fine" and state.seats[seat].cash < 3 * edition_of(state).economy.jail_fine:
                continue
            return by_kind[kind][0]
    return None


def choose(state: State, seat: int, level: str = "normal") -> Action | None:
    """The computer's move for `seat` now, or None when it has nothing to do (e.g. it leads the auction)."""
    if state.auction is not None and state.auction.bidder == seat and not state.debts:
        return None
    ai = _engine_ai()
    if ai is not None:
        action = ai(state, seat, level or "normal")
        if action is not None:
            return action
    return fallback(state, seat, level)


def ends_by_itself(state: State) -> Action | None:
    """The end of a person's turn when ending it is all they could do (a lost turn in Oceanía, say): no
    building, mortgaging, trading or anything else is open to them, so nobody waits for a click."""
    if state.phase != "end" or state.debts or state.auction is not None or state.trade is not None \
            or state.lift is not None:
        return None
    seat = state.current
    kinds = legal_kinds(state, seat) - {"withdraw"}
    return Action(kind="end_turn", seat=seat) if kinds == {"end_turn"} else None

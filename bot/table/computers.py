"""What a computer seat does: the engine's computer players (`engine.choose`), and a person's turn that ends by
itself."""

from __future__ import annotations

from engine import Action, State, legal_kinds
from engine import choose as engine_choose


def choose(state: State, seat: int, level: str = "normal") -> Action | None:
    """The computer's move for `seat` now, or None when it has nothing to do (e.g. it leads the auction)."""
    if state.auction is not None and state.auction.bidder == seat and not state.debts:
        return None
    return engine_choose(state, seat, level or "normal")


def ends_by_itself(state: State) -> Action | None:
    """The end of a person's turn when ending it is all they could do (a lost turn in Oceanía, say): no
    building, mortgaging, trading or anything else is open to them, so nobody waits for a click."""
    if state.phase != "end" or state.debts or state.auction is not None or state.trade is not None \
            or state.lift is not None:
        return None
    seat = state.current
    kinds = legal_kinds(state, seat) - {"withdraw"}
    return Action(kind="end_turn", seat=seat) if kinds == {"end_turn"} else None

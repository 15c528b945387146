"""A correspondence game's reminders: when they fall due on a decision's clock, and which is owed now.

A decision's clock runs `timeout` seconds up to its `deadline`; the person it waits for is reminded when half and
three quarters of it have gone (`SHARES`). The store keeps one moment per game, when the latest reminder sent
was due (`reminded`): a reminder due at or before it was sent. The reminders of a later decision fall due later,
so that one moment is enough to send none twice across restarts, and nothing needs resetting between decisions.
"""

from __future__ import annotations

from engine import State

SHARES = (0.5, 0.75)  # of a decision's clock gone, when its person is reminded


def due_times(deadline: float, timeout: float) -> list[float]:
    """When the reminders of a clock of `timeout` seconds that runs out at `deadline` fall due (unix times)."""
    started = deadline - timeout
    return [started + share * timeout for share in SHARES]


def pending(deadline: float, timeout: float, reminded: float | None) -> list[float]:
    """The due times of the reminders not sent yet, soonest first."""
    return [due for due in due_times(deadline, timeout) if reminded is None or due > reminded]


def owed(deadline: float, timeout: float, reminded: float | None, now: float) -> float | None:
    """The due time of the reminder to send now: the latest one due and not sent (a process that was down
    through both sends one, not two), or None. Once the clock has run out no reminder is owed."""
    if now >= deadline:
        return None
    due = [d for d in pending(deadline, timeout, reminded) if d <= now]
    return due[-1] if due else None


def waiting_seats(state: State) -> list[int]:
    """The seats whose decision the game waits for: those to act, or the one a trade offer is addressed to."""
    if state.trade is not None and not state.debts and state.lift is None and state.auction is None:
        return [state.trade.target]
    seats = state.seat_to_act()
    if state.auction is not None:
        seats = [s for s in seats if s != state.auction.bidder]
    return seats


def waiting_for(state: State, seat: int) -> str:
    """What the game waits for `seat` to do, in one word the face names: a debt, inherited mortgages, a bid,
    an answer to a trade offer, or the turn."""
    if state.debts and state.debts[0].debtor == seat:
        return "debt"
    if state.lift is not None and state.lift.seat == seat:
        return "lift"
    if state.auction is not None and seat in state.auction.active:
        return "auction"
    if state.trade is not None and state.trade.target == seat:
        return "offer"
    return "turn"

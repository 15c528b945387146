"""Computer players: a move for every decision the engine waits for, chosen among the legal actions.

    action = choose(state, seat, level="normal", jail="short")

`choose` works from any state: the seat's own turn, an open auction, a debt, a trade offer addressed to it.
It returns None when the game waits for nothing from that seat: another seat's turn, the seat leads the
auction, or its own trade offer waits for the partner's answer. The same state always gives the same move:
the only chance used is a draw keyed on the game's seed and the state's version, so games replay exactly.
Three levels play differently (`facil`, `normal`, `dificil`, see `engine.ai.levels`; `dificil` is
`engine.ai.hard`); `jail` is `short` (leave at once by card or fine) or `long` (stay, rolling for doubles),
and `dificil` picks its own by the stage of the game.
"""

from __future__ import annotations

from engine.actions import Action, Trade
from engine.ai import buying, hard, money, trades
from engine.ai.levels import DEFAULT_LEVEL, LEVELS, Style, style_of
from engine.ai.view import Rents, Reserve, Table, start_cash, table
from engine.legal import open_actions, refused
from engine.state import Seat, State

JAIL_POLICIES = ("short", "long")

# When a planned move is refused (it should not happen), the first of these legal kinds is taken instead.
# The same move of the same seat is the same (frozen) action: made once.
ROLL = tuple(Action(kind="roll", seat=s) for s in range(6))
END_TURN = tuple(Action(kind="end_turn", seat=s) for s in range(6))

_SAFE_KINDS = ("roll", "end_turn", "decline", "pass_bid", "reject_trade", "cancel_trade", "keep_mortgaged", "bankrupt")


def choose(state: State, seat: int, level: str = DEFAULT_LEVEL, jail: str = "short") -> Action | None:
    """The move of computer player `seat` now, or None when the game waits for nothing from it."""
    action = plan(state, seat, level, jail)
    if action is None or refused(state, table(state.edition).ed, action) is None:
        return action
    return _safe(state, table(state.edition), seat)


class Look:
    """The fields of the state that every decision reads, each read once: compiled, a read of a field of the
    state is the costliest step of a decision. Valid until the state next changes; a loop that asks for
    several moves of the same state (the simulator's) reads them once for all (`plan`'s `look`). `rents`: the
    game's `Rents`, when the caller plays a whole game and keeps one."""

    __slots__ = ("phase", "seats", "current", "debts", "auction", "trade", "lift", "rents")

    def __init__(self, st: State, rents: Rents | None = None) -> None:
        self.phase = st.phase
        self.seats = st.seats
        self.current = st.current
        self.debts = st.debts
        self.auction = st.auction
        self.trade = st.trade
        self.lift = st.lift
        self.rents = rents


def plan(
    state: State, seat: int, level: str = DEFAULT_LEVEL, jail: str = "short", look: Look | None = None
) -> Action | None:
    """The move `choose` makes, without checking it against the rules a second time: for loops that hand
    it straight to `apply_inplace`, which checks it anyway (and may fall back on `choose`). `look`: the
    state's fields as read since its last change, if the caller has them."""
    if look is None:
        look = Look(state)
    phase = look.phase
    seats = look.seats
    current = look.current
    debts = look.debts
    auction = look.auction
    trade = look.trade
    lift = look.lift
    if (
        phase == "roll"
        and seat == current
        and not debts
        and auction is None
        and trade is None
        and lift is None
        and not seats[seat].jailed
    ):
        return ROLL[seat]  # every level rolls here: the commonest decision, answered first
    if phase == "over" or not 0 <= seat < len(seats) or seats[seat].out:
        return None
    t = table(state.edition)
    style = style_of(level)
    if style.hard:
        return hard.decide(state, t, seat, style, _jail)
    st = state
    if debts:
        if debts[0].debtor == seat:
            return money.settle_debt(st, t, seat)
        if trade is not None and trade.target == seat:
            return trades.answer(st, t, seat, style)
        return None
    if lift is not None:
        if lift.seat == seat:
            return money.lift_inherited(st, t, seat, style, look.rents)
        if trade is not None and trade.target == seat:
            return trades.answer(st, t, seat, style)
        return None
    if trade is not None and trade.target == seat:
        return trades.answer(st, t, seat, style)
    if auction is not None:
        if seat in auction.active:
            return buying.bid_or_pass(st, t, seat, style, Reserve(st, t, seat, style, look.rents))
        return None
    if seat != current:
        return None
    me = seats[seat]
    if phase == "roll":
        if me.jailed:
            return _jail(st, t, seat, jail)
        return Action(kind="roll", seat=seat)
    if phase == "customs":
        return Action(kind="roll", seat=seat)
    if phase == "buy":
        return buying.buy_or_decline(st, t, seat, style, Reserve(st, t, seat, style, look.rents))
    if phase == "end":
        return _end_of_turn(st, t, seat, style, me, trade, look.rents)
    return None


def _jail(st: State, t: Table, seat: int, jail: str) -> Action:
    """`short` leaves at once, by card or fine; `long` rolls for doubles, and on the last turn before the fine
    would be forced spends a card if it holds one (the card goes back to its deck, the fine is saved)."""
    me = st.seats[seat]
    last_turn = me.jail_turns + 1 >= t.ed.rules.jail_max_turns and t.ed.rules.jail_forced_fine
    if jail == "long" and not last_turn:
        return Action(kind="roll", seat=seat)
    if me.jail_cards:
        return Action(kind="use_card", seat=seat)
    if jail != "long" and me.cash >= t.ed.economy.jail_fine:
        return Action(kind="pay_fine", seat=seat)
    return Action(kind="roll", seat=seat)


def _end_of_turn(
    st: State, t: Table, seat: int, style: Style, me: Seat, trade: Trade | None, rents: Rents | None
) -> Action | None:
    """Before ending the turn: lift mortgages, build (borrowing from the club when that pays), propose a
    trade. While its own offer waits for an answer the seat waits too (None); the engine cancels an offer
    still open when its proposer's turn ends. `me` and `trade`: the seat and the state's trade, at hand;
    `rents`: the game's `Rents`, if kept."""
    if trade is not None and trade.proposer == seat:
        return None
    cash = me.cash
    start = start_cash(st, t)
    # Cheap tests first: lifting needs more cash than the level's floor for it, building more than the floor
    # plus the cheapest building; only then is the exact reserve (the worst rent on the board) looked up.
    build_floor = int(style.build_reserve * start)
    may_lift = cash > style.unmortgage_reserve * start and money.has_mortgaged(st, t, seat)
    cheapest = money.cheapest_build(st, t, seat, style)
    may_build = cheapest > 0 and cash - cheapest >= build_floor
    # Borrow from the club only to build what cash alone cannot pay for.
    ending = st.ending
    may_borrow = cheapest > 0 and not may_build and style.club_loans and me.club and not ending
    may_trade = trade is None and not ending and trades.may_propose(st, t, seat, style)
    loan_block = money.loan_block(st, t, seat, style) if may_borrow else ""
    if may_lift or may_build or loan_block or may_trade:
        reserve = Reserve(st, t, seat, style, rents).exact()
        build_reserve = max(reserve, build_floor)
        action = (
            (money.unmortgage(st, t, seat, style, build_reserve) if may_lift else None)
            or (money.build(st, t, seat, style, build_reserve) if may_build else None)
            or (money.loan_to_build(st, t, seat, style, loan_block, build_reserve) if loan_block else None)
            or (trades.proposal(st, t, seat, style, reserve) if may_trade else None)
        )
        if action is not None:
            return action
    return END_TURN[seat]


def _safe(st: State, t: Table, seat: int) -> Action | None:
    legal = open_actions(st, t.ed, seat)
    for kind in _SAFE_KINDS:
        for a in legal:
            if a.kind == kind:
                return a
    return None


__all__ = ["JAIL_POLICIES", "LEVELS", "Look", "Rents", "choose", "plan"]

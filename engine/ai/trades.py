"""Trades: judging an offer by value, and proposing deals that complete a block.

A deal is judged by what it gains the seat (cash and titles, blocks counted at their worth) less part of
what it gains the partner: helping a rival complete a block costs more than its price. A seat never breaks
up a block it holds unless it receives a complete block in return.
"""

from __future__ import annotations

from engine import rng
from engine.actions import Action, Offer, Trade
from engine.ai.levels import LEVELS, Style, style_of
from engine.ai.value import complete_blocks, holdings
from engine.ai.view import Table, start_cash
from engine.legal import trade_refusal
from engine.state import BANK, State

# Offers to a person are judged by the `normal` standard and made a little sweeter.
PERSON_MARGIN = 0.05


def _after(st: State, trade: Trade) -> list[int]:
    owner = list(st.owner)
    for sq in trade.give.titles:
        owner[sq] = trade.target
    for sq in trade.take.titles:
        owner[sq] = trade.proposer
    return owner


def _gains(st: State, t: Table, trade: Trade, seat: int, style: Style, owner_after: list[int]) -> float:
    cash = trade.take.cash - trade.give.cash if seat == trade.proposer else trade.give.cash - trade.take.cash
    before = holdings(t, style, st.owner, st.mortgaged, seat)
    after = holdings(t, style, owner_after, st.mortgaged, seat)
    return cash + after - before


def acceptable(st: State, t: Table, trade: Trade, seat: int, style: Style, margin: float = 0.0) -> bool:
    """Whether `seat` (either side of `trade`) finds it worth doing."""
    other = trade.target if seat == trade.proposer else trade.proposer
    owner_after = _after(st, trade)
    if complete_blocks(t, owner_after, seat) < complete_blocks(t, st.owner, seat):
        return False
    mine = _gains(st, t, trade, seat, style, owner_after)
    theirs = _gains(st, t, trade, other, style, owner_after)
    floor = (style.trade_margin + margin) * start_cash(st, t)
    return mine - style.envy * max(theirs, 0.0) >= floor


def answer(st: State, t: Table, seat: int, style: Style) -> Action:
    trade = st.trade
    assert trade is not None
    ok = acceptable(st, t, trade, seat, style) and trade_refusal(st, t.ed, trade) is None
    # Paying cash must not leave the seat unable to meet an ordinary rent.
    if ok and trade.take.cash and st.seats[seat].cash - trade.take.cash < 0.1 * start_cash(st, t):
        ok = False
    return Action(kind="accept_trade" if ok else "reject_trade", seat=seat)


def _partner_standard(st: State, partner: int) -> tuple[Style, float]:
    level = st.seats[partner].computer
    if level in LEVELS:
        return LEVELS[level], 0.0
    return style_of(""), PERSON_MARGIN


def _may_propose_now(st: State, seat: int) -> bool:
    """Proposals are spread out: a draw keyed on the state's version lets a seat propose at about one
    decision in four, so an offer that is turned down is not made again at once and the turn always ends."""
    return rng.draw(st.seed, st.version * 7 + seat) % 4 == 0


def proposal(st: State, t: Table, seat: int, style: Style, reserve: int) -> Action | None:
    """A trade that completes one of the seat's blocks and that the partner should accept, or None."""
    if not style.proposes_trades or not _may_propose_now(st, seat):
        return None
    owner = st.owner
    seats = st.seats
    best: tuple[float, Trade] | None = None
    for members in t.blocks:
        missing = -1
        for j in members:
            if owner[j] != seat:
                if missing >= 0:
                    missing = -2
                    break
                missing = j
        if missing < 0:
            continue
        partner = owner[missing]
        if partner == BANK or seats[partner].out:
            continue
        for trade in _offers(st, t, seat, partner, missing, style, reserve):
            gain = _gains(st, t, trade, seat, style, _after(st, trade))
            if best is None or gain > best[0]:
                best = (gain, trade)
    if best is None:
        return None
    return Action(kind="propose_trade", seat=seat, trade=best[1])


def _offers(st: State, t: Table, seat: int, partner: int, wanted: int, style: Style, reserve: int) -> list[Trade]:
    """Cash for `wanted`, and a swap for a title that completes one of the partner's blocks; each priced at
    the least the partner should accept, and kept only if still worth it to `seat`."""
    owner = st.owner
    swaps: list[tuple[int, ...]] = [()]
    for members in t.blocks:
        if wanted in members:
            continue
        mine = [j for j in members if owner[j] == seat]
        if len(mine) == 1 and all(owner[j] == partner for j in members if j != mine[0]):
            swaps.append((mine[0],))
    their_style, their_margin = _partner_standard(st, partner)
    unit = t.ed.economy.bid_steps[0]
    cash = st.seats[seat].cash
    out: list[Trade] = []
    for give in swaps:
        base = Trade(proposer=seat, target=partner, give=Offer(titles=give), take=Offer(titles=(wanted,)))
        owner_after = _after(st, base)
        theirs = _gains(st, t, base, partner, their_style, owner_after)
        mine = _gains(st, t, base, seat, their_style, owner_after)
        floor = (their_style.trade_margin + their_margin) * start_cash(st, t)
        envy = their_style.envy
        # The least cash c with  c + theirs - envy * (mine - c) >= floor.
        needed = (floor - theirs + envy * max(mine, 0.0)) / (1.0 + envy)
        amount = int(-(-needed // unit) * unit) if needed > 0 else 0
        if amount > cash - reserve:
            continue
        trade = Trade(proposer=seat, target=partner, give=Offer(titles=give, cash=amount), take=base.take)
        if not acceptable(st, t, trade, seat, style):
            continue
        if not acceptable(st, t, trade, partner, their_style, their_margin):
            continue
        if trade_refusal(st, t.ed, trade) is None:
            out.append(trade)
    return out

"""Trades: judging an offer by value, and proposing deals that complete a block.

A deal is judged by what it gains the seat (cash and titles, blocks counted at their worth) less part of
what it gains the partner: helping a rival complete a block costs more than its price. A seat never breaks
up a block it holds unless it receives a complete block in return.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from engine import rng
from engine.actions import Action, Offer, Trade
from engine.ai.levels import LEVELS, Style, style_of
from engine.ai.value import holdings_change
from engine.ai.view import Table, owns_all, start_cash
from engine.legal import trade_refused, window_allows
from engine.state import BANK, State

# Offers to a person are judged by the `normal` standard and made a little sweeter.
PERSON_MARGIN: Final = 0.05


def _after(st: State, trade: Trade) -> list[int]:
    owner = list(st.owner)
    for sq in trade.give.titles:
        owner[sq] = trade.target
    for sq in trade.take.titles:
        owner[sq] = trade.proposer
    return owner


class _Deal:
    """The titles of a trade and what they change for each side, valued once per style (cash apart)."""

    __slots__ = ("st", "t", "owner_after", "moved", "_cache")

    def __init__(self, st: State, t: Table, trade: Trade) -> None:
        self.st, self.t = st, t
        self.owner_after = _after(st, trade)
        self.moved = trade.give.titles + trade.take.titles
        self._cache: dict[tuple[int, int], float] = {}

    def title_gain(self, seat: int, style: Style) -> float:
        key = (seat, id(style))
        gain = self._cache.get(key)
        if gain is None:
            st = self.st
            gain = self._cache[key] = holdings_change(
                self.t, style, st.owner, self.owner_after, st.mortgaged, self.moved, seat
            )
        return gain

    def breaks_a_block(self, seat: int) -> bool:
        """Whether `seat` holds fewer whole blocks after the trade; only the blocks of moved titles can change."""
        t, before, after = self.t, self.st.owner, self.owner_after
        seen: list[tuple[int, ...]] = []
        held_before = held_after = 0
        for j in self.moved:
            members = t.members[j]
            if not members or members in seen:
                continue
            seen.append(members)
            held_before += owns_all(before, members, seat)
            held_after += owns_all(after, members, seat)
        return held_after < held_before


def _cash_to(trade: Trade, seat: int, card_value: int) -> int:
    """Cash `seat` receives in `trade`, counting each keep-to-leave-jail card at `card_value`."""
    give = trade.give.cash + card_value * len(trade.give.cards)
    take = trade.take.cash + card_value * len(trade.take.cards)
    return take - give if seat == trade.proposer else give - take


def acceptable(
    st: State, t: Table, trade: Trade, seat: int, style: Style, margin: float = 0.0, deal: _Deal | None = None
) -> bool:
    """Whether `seat` (either side of `trade`) finds it worth doing."""
    deal = deal or _Deal(st, t, trade)
    if deal.breaks_a_block(seat):
        return False
    other = trade.target if seat == trade.proposer else trade.proposer
    card = t.ed.economy.jail_fine  # what a card saves
    mine = _cash_to(trade, seat, card) + deal.title_gain(seat, style)
    theirs = _cash_to(trade, other, card) + deal.title_gain(other, style)
    floor = (style.trade_margin + margin) * start_cash(st, t)
    return mine - style.envy * max(theirs, 0.0) >= floor


def answer(st: State, t: Table, seat: int, style: Style) -> Action:
    trade = st.trade
    assert trade is not None
    ok = acceptable(st, t, trade, seat, style) and trade_refused(st, t.ed, trade) is None
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
    """At most one proposal a turn (the state records it), and spread out: a draw keyed on the state's
    version lets a seat propose at about one decision in eight."""
    if st.seats[seat].offered_turn == st.turn:
        return False
    return rng.below(st.seed, st.version * 7 + seat, 8) == 0


def may_propose(st: State, t: Table, seat: int, style: Style) -> bool:
    """A quick look before any valuation: this level trades, the draw allows it now, so does the trading
    window (where there is one), and some block lacks only one or two titles, held by one opponent, that the
    seat can afford or swap for."""
    if not style.proposes_trades or not _may_propose_now(st, seat) or not window_allows(st, t.ed, seat):
        return False
    return any(True for _ in _wanted(st, t, seat))


def _wanted(st: State, t: Table, seat: int) -> Iterator[tuple[tuple[int, ...], int, list[tuple[int, ...]]]]:
    """The titles that would complete a block of `seat` (one or two, all held by the same opponent), each
    group with its holder and the seat's titles that would complete one of the holder's blocks in exchange;
    only groups the seat could pay list price for, or swap for."""
    owner = st.owner
    seats = st.seats
    cash = seats[seat].cash
    for members in t.blocks:
        missing: list[int] = []
        partner = -1
        for j in members:
            o = owner[j]
            if o == seat:
                continue
            if o == BANK or (missing and o != partner) or len(missing) == 2:
                break
            partner = o
            missing.append(j)
        else:
            if not missing or len(missing) == len(members) or seats[partner].out:
                continue
            wanted = tuple(missing)
            swaps = _swaps(t, owner, seat, partner, members)
            if swaps or cash >= sum(t.price[j] for j in wanted):
                yield wanted, partner, swaps


def _swaps(t: Table, owner: list[int], seat: int, partner: int, block: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The seat's titles that would complete a block of `partner` (one each), other than `block`."""
    out: list[tuple[int, ...]] = []
    for members in t.blocks:
        if members is block:
            continue
        mine = -1
        for j in members:
            o = owner[j]
            if o == seat:
                if mine >= 0:
                    mine = -2
                    break
                mine = j
            elif o != partner:
                mine = -2
                break
        if mine >= 0:
            out.append((mine,))
    return out


def proposal(st: State, t: Table, seat: int, style: Style, reserve: int) -> Action | None:
    """A trade that completes one of the seat's blocks and that the partner should accept, or None (ask
    `may_propose` first: it holds the draw that spreads proposals out)."""
    if not style.proposes_trades:
        return None
    best: tuple[float, Trade] | None = None
    for wanted, partner, swaps in _wanted(st, t, seat):
        for gain, trade in _offers(st, t, seat, partner, wanted, swaps, style, reserve):
            if best is None or gain > best[0]:
                best = (gain, trade)
    if best is None:
        return None
    return Action(kind="propose_trade", seat=seat, trade=best[1])


def _offers(
    st: State,
    t: Table,
    seat: int,
    partner: int,
    wanted: tuple[int, ...],
    swaps: list[tuple[int, ...]],
    style: Style,
    reserve: int,
) -> list[tuple[float, Trade]]:
    """Cash for the `wanted` titles, and swaps for titles that complete one of the partner's blocks; each
    priced at the least the partner should accept, and kept only if still worth it to `seat`."""
    their_style, their_margin = _partner_standard(st, partner)
    unit = t.ed.economy.bid_steps[0]
    cash = st.seats[seat].cash
    out: list[tuple[float, Trade]] = []
    for give in [(), *swaps]:
        base = Trade(proposer=seat, target=partner, give=Offer(titles=give), take=Offer(titles=wanted))
        deal = _Deal(st, t, base)
        theirs = deal.title_gain(partner, their_style)
        mine = deal.title_gain(seat, their_style)
        floor = (their_style.trade_margin + their_margin) * start_cash(st, t)
        envy = their_style.envy
        # The least cash c with  c + theirs - envy * (mine - c) >= floor.
        needed = (floor - theirs + envy * max(mine, 0.0)) / (1.0 + envy)
        amount = int(-(-needed // unit) * unit) if needed > 0 else 0
        if not give:
            amount = max(amount, unit)  # a title for nothing would be a gift, which the rules forbid
        if amount > cash - reserve:
            continue
        trade = Trade(proposer=seat, target=partner, give=Offer(titles=give, cash=amount), take=base.take)
        if not acceptable(st, t, trade, seat, style, deal=deal):
            continue
        if not acceptable(st, t, trade, partner, their_style, their_margin, deal=deal):
            continue
        if trade_refused(st, t.ed, trade) is None:
            out.append((deal.title_gain(seat, style) - amount, trade))
    return out

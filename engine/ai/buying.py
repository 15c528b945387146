"""Buying on landing and bidding at auctions."""

from __future__ import annotations

from engine.actions import Action
from engine.ai.levels import Style
from engine.ai.value import title_worth
from engine.ai.view import Reserve, Table, owns_all, start_cash
from engine.state import HOTEL, State


def buy_or_decline(st: State, t: Table, seat: int, style: Style, reserve: Reserve) -> Action:
    square = st.seats[seat].pos
    price = t.price[square]
    cash = st.seats[seat].cash
    if cash < price:
        return Action(kind="decline", seat=seat)
    left = cash - price
    if left >= reserve.at_most():
        return Action(kind="buy", seat=seat)
    # A title that completes a block (or spoils one) is worth going nearly broke for; debts can still be
    # met by mortgaging.
    if title_worth(st, t, style, seat, square) > price * 1.3 or left >= reserve.exact():
        return Action(kind="buy", seat=seat)
    return Action(kind="decline", seat=seat)


def bid_or_pass(st: State, t: Table, seat: int, style: Style, reserve: Reserve) -> Action | None:
    """Bid while the seat's estimate exceeds the current bid, never beyond its cash less a small cushion;
    None when it leads the auction and has nothing to do."""
    au = st.auction
    assert au is not None
    if au.bidder == seat:
        return None
    lowest = max(au.bid + 1, au.minimum)
    cash = st.seats[seat].cash
    step = t.ed.economy.bid_steps[0]
    if cash < max(au.bid, au.minimum - 1) + step:
        # Not even the smallest raise the table offers (what `legal_actions` lists) is affordable.
        return Action(kind="pass_bid", seat=seat)
    if au.item == "title":
        worth = title_worth(st, t, style, seat, au.square)
        ceiling = int(worth * style.bid_ceiling)
        limit = ceiling if cash - reserve.at_most() >= ceiling else min(ceiling, cash - min(reserve.exact(), cash // 4))
        if worth > t.price[au.square] * 1.3:
            limit = max(limit, min(worth, cash))
    else:
        limit = _building_limit(st, t, seat, style, reserve.exact(), au.item == "hotel")
    if limit < lowest:
        return Action(kind="pass_bid", seat=seat)
    return bid_up_to(seat, au.bid, lowest, limit, step)


def bid_up_to(seat: int, bid: int, lowest: int, limit: int, step: int) -> Action:
    """The next bid towards `limit`: halfway to it (at least one step) so auctions end in a few rounds, in
    round amounts as a person would bid (half the smallest step: $500 on the Turismundo table)."""
    amount = min(limit, max(lowest, bid + max(step, (limit - bid) // 2)))
    unit = max(1, step // 2)
    rounded = amount - amount % unit
    if rounded < lowest:
        rounded = lowest + (-lowest) % unit
    if rounded > limit:
        rounded = limit - limit % unit
    if rounded < lowest:
        return Action(kind="pass_bid", seat=seat)  # no round amount left between the bid and its limit
    return Action(kind="bid", seat=seat, amount=rounded)


def _building_limit(st: State, t: Table, seat: int, style: Style, reserve: int, hotel: bool) -> int:
    """What a building from a shortage auction is worth to `seat`: its price if the seat would build it now."""
    owner, level = st.owner, st.level
    cash = st.seats[seat].cash
    best = 0
    for members in t.blocks:
        if not owns_all(owner, members, seat) or any(st.mortgaged[j] for j in members):
            continue
        low = min(level[j] for j in members)
        if low >= style.max_level or (low == 4) != hotel:
            continue
        j = next(k for k in members if level[k] == low)
        cost = t.hotel_cost[j] if low + 1 == HOTEL else t.house_cost[j]
        best = max(best, int(cost * 1.25))
    cushion = max(reserve, int(0.05 * start_cash(st, t)))
    return min(best, cash - cushion)

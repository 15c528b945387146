"""The `dificil` player's money: the cash it keeps, buying, bidding, building, mortgages and jail."""

from __future__ import annotations

from typing import Final

from engine import board
from engine.actions import Action
from engine.ai.buying import bid_up_to
from engine.ai.hard.worth import HORIZON, Returns, best_level, danger, mortgage_loss, opponents_factor, title_gain
from engine.ai.view import start_cash
from engine.legal import build_plan, unmortgage_cost
from engine.state import BANK, HOTEL, State

# Cash always kept, as a share of the starting cash, on top of what the next roll may cost.
BASE_RESERVE: Final = 0.03
# Building beyond the third restaurant (or house) must return its cost within this share of the horizon;
# up to the third it only has to pay within the horizon.
HIGH_BUILD_PAYBACK: Final = 0.6
# An opponent's gain from a title counts this much when bidding to keep it from them.
DENIAL: Final = 0.6


def reserve(st: State, r: Returns, seat: int) -> int:
    """The cash to keep: the worst rent (or tax) the next roll may land on, and a small cushion."""
    return max(int(BASE_RESERVE * start_cash(st, r.t)), danger(st, r, seat))


def buy_or_decline(st: State, r: Returns, seat: int) -> Action:
    me = st.seats[seat]
    square = me.pos
    price = r.t.price[square]
    if me.cash < price:
        return Action(kind="decline", seat=seat)
    left = me.cash - price
    keep = reserve(st, r, seat)
    if left >= keep:
        return Action(kind="buy", seat=seat)
    # Short of the reserve: still buy what completes a block or keeps one from an opponent, if mortgaging
    # the seat's loose titles would cover the next rent.
    k = opponents_factor(st, r, seat)
    gain = title_gain(st, r, seat, square, k)
    if gain > 1.5 * price and left + loose_mortgages(st, r, seat) >= keep:
        return Action(kind="buy", seat=seat)
    if _denial(st, r, seat, square, k) > 1.5 * price and left + loose_mortgages(st, r, seat) >= keep:
        return Action(kind="buy", seat=seat)
    return Action(kind="decline", seat=seat)


def _denial(st: State, r: Returns, seat: int, square: int, k: float) -> float:
    """The most any opponent still playing would gain from the bank's title `square`."""
    best = 0.0
    for o, s in enumerate(st.seats):
        if o != seat and not s.out:
            best = max(best, title_gain(st, r, o, square, k))
    return best


def loose_mortgages(st: State, r: Returns, seat: int) -> int:
    """What mortgaging the seat's titles outside complete blocks would raise."""
    t = r.t
    owner, mortgaged = st.owner, st.mortgaged
    total = 0
    for j in t.titles:
        if owner[j] == seat and not mortgaged[j]:
            members = t.members[j]
            if members and all(owner[m] == seat for m in members):
                continue
            total += t.mortgage[j]
    return total


def bid_or_pass(st: State, r: Returns, seat: int) -> Action | None:
    au = st.auction
    assert au is not None
    if au.bidder == seat:
        return None
    t = r.t
    cash = st.seats[seat].cash
    step = t.ed.economy.bid_steps[0]
    lowest = max(au.bid + 1, au.minimum)
    if cash < max(au.bid, au.minimum - 1) + step:
        return Action(kind="pass_bid", seat=seat)
    keep = reserve(st, r, seat)
    if au.item == "title":
        k = opponents_factor(st, r, seat)
        mine = title_gain(st, r, seat, au.square, k)
        worth = max(mine, DENIAL * _denial(st, r, seat, au.square, k))
        # A block of its own is worth going down to what mortgages would cover.
        floor = keep - loose_mortgages(st, r, seat) if mine > 1.5 * t.price[au.square] else keep
        limit = int(min(worth, cash - max(floor, 0)))
    else:
        limit = _building_limit(st, r, seat, au.item == "hotel", cash - keep)
    if limit < lowest:
        return Action(kind="pass_bid", seat=seat)
    return bid_up_to(seat, au.bid, lowest, limit, step)


def _building_limit(st: State, r: Returns, seat: int, hotel: bool, spare: int) -> int:
    """A building from a shortage auction, when the seat would build one now: worth the rent it adds over
    the horizon, and at least a quarter above its price (the seat asked for it), up to the spare cash."""
    step = _best_step(st, r, seat, hotel_only=hotel)
    if step is None:
        return 0
    _, _, per_building, square = step
    t = r.t
    price = t.hotel_cost[square] if hotel else t.house_cost[square]
    return int(min(max(per_building, 1.25 * price), spare))


def _best_step(st: State, r: Returns, seat: int, hotel_only: bool | None = None) -> tuple[int, int, float, int] | None:
    """The next level of building that pays best: (block index, buildings to place for the level, worth of
    one of them over the horizon, a square of the block at the lowest level), or None. Up to the third
    level a step pays if it returns its cost within the horizon; above it, within part of the horizon."""
    t = r.t
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    k = opponents_factor(st, r, seat)
    best: tuple[tuple[bool, float], tuple[int, int, float, int]] | None = None
    for b, members in enumerate(t.blocks):
        if owner[members[0]] != seat:
            continue
        low = HOTEL
        at = -1
        for j in members:
            if owner[j] != seat or mortgaged[j]:
                at = -2
                break
            if level[j] < low:
                low, at = level[j], j
        if at < 0 or low >= HOTEL:
            continue
        if hotel_only is not None and (low == 4) != hotel_only:
            continue
        if (st.bank_hotels if low == 4 else st.bank_houses) < 1:
            continue  # the bank has none of the next building left
        _, target = best_level(r, b, low, k)
        if target <= low:
            continue
        # Up to the third level first, on the blocks where it pays best; higher only when it pays soon.
        nxt = min(target, 3) if low < 3 else target
        rate, cost = r.block_rate[b], r.block_cost[b]
        gain = k * (rate[nxt] - rate[low]) * HORIZON
        spend = cost[nxt] - cost[low]
        if nxt > 3 and gain * HIGH_BUILD_PAYBACK < spend:
            continue
        count = sum(1 for j in members if level[j] == low)
        key = (nxt > 3, -gain / spend)
        if best is None or key < best[0]:
            best = (key, (b, count, gain / (len(members) * (nxt - low)), at))
    return None if best is None else best[1]


def build(st: State, r: Returns, seat: int, keep: int) -> Action | None:
    """The buildings of the step that pays best, as many of them as the cash above `keep` allows."""
    step = _best_step(st, r, seat)
    if step is None:
        return None
    _, count, _, square = step
    if not board.rules(st, r.t.ed).even_building:
        count = 1  # one at a time on the lowest title: the block still grows evenly
    plan = build_plan(st, r.t.ed, seat, square, count)
    t = r.t
    spend = 0
    placed = 0
    levels = {j: st.level[j] for j in t.members[square]}
    cash = st.seats[seat].cash
    for j in plan:
        lv = levels[j] + 1
        cost = t.hotel_cost[j] if lv == HOTEL else t.house_cost[j]
        if cash - spend - cost < keep:
            break
        spend += cost
        levels[j] = lv
        placed += 1
    if not placed:
        return None
    return Action(kind="build", seat=seat, square=square, count=placed)


def mortgage_to_build(st: State, r: Returns, seat: int, keep: int) -> Action | None:
    """Mortgage a loose title when that pays for the next step of building up to the third level, and the
    title earns less over the horizon than the step would."""
    step = _best_step(st, r, seat)
    if step is None:
        return None
    b, count, per_building, square = step
    t = r.t
    if st.level[square] >= 3:
        return None
    cost = count * (t.hotel_cost[square] if st.level[square] == 4 else t.house_cost[square])
    cash = st.seats[seat].cash
    need = cost + keep - cash
    if need <= 0:
        return None
    k = opponents_factor(st, r, seat)
    owner, mortgaged = st.owner, st.mortgaged
    options: list[tuple[float, int]] = []
    raisable = 0
    for j in t.titles:
        if owner[j] != seat or mortgaged[j] or st.level[j]:
            continue
        members = t.members[j]
        if members and all(owner[m] == seat for m in members):
            continue
        lost = mortgage_loss(st, r, seat, j, k)
        options.append((lost - t.mortgage[j], j))
        raisable += t.mortgage[j]
    if raisable < need or not options:
        return None
    lost_total = sum(x for x, _ in options)
    if lost_total > per_building * count:
        return None
    return Action(kind="mortgage", seat=seat, square=min(options)[1])


def unmortgage(st: State, r: Returns, seat: int, keep: int) -> Action | None:
    """Lift the mortgage that gives back most worth for its cost, keeping `keep` in cash."""
    t = r.t
    owner, mortgaged = st.owner, st.mortgaged
    cash = st.seats[seat].cash
    k = opponents_factor(st, r, seat)
    best: tuple[float, int] | None = None
    for j in t.titles:
        if owner[j] != seat or not mortgaged[j]:
            continue
        cost = unmortgage_cost(st, j)
        if cash - cost < keep:
            continue
        gain = -mortgage_loss(st, r, seat, j, k)
        key = (-gain / max(cost, 1), j)
        if best is None or key < best:
            best = key
    if best is None:
        return None
    return Action(kind="unmortgage", seat=seat, square=best[1])


def jail_policy(st: State, r: Returns, seat: int) -> str:
    """`short` (leave at once) while titles are still for sale or the board is cheap; `long` (stay, rolling
    for doubles) once the opponents' rents make a walk round the board cost more than the fine."""
    t = r.t
    owner = st.owner
    for_sale = sum(1 for j in t.titles if owner[j] == BANK)
    if for_sale * 4 > len(t.titles):
        return "short"
    # The rent a roll costs on average, over the opponents' titles.
    expected = 0.0
    p = r.p
    for j in t.titles:
        o = owner[j]
        if o < 0 or o == seat or st.mortgaged[j]:
            continue
        expected += p[j] * board.rent(st, j, 7)  # utilities at a roll of 7, the likeliest total
    return "long" if expected * 3 > t.ed.economy.jail_fine else "short"

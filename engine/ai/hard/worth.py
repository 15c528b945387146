"""What titles earn on this board: the `dificil` player's measure of a holding, in money.

A title earns its rent each time an opponent lands on it. The landing probabilities per roll are the ones
the simulator measures for the edition (`engine.ai.landing`), so a block's worth is what it would earn over
a horizon of rounds (each opponent taking one turn) at the level of building that pays best there, less
what those buildings cost. A title also keeps the cash it could raise (its mortgage), and a block held in
part is worth a share of what completing it would bring.
"""

from __future__ import annotations

from typing import Final

from engine import board
from engine.ai.landing import landing
from engine.ai.view import Table
from engine.state import BANK, HOTEL, State

# The rents expected over this many rounds make a title's worth; the game's money turns over fast
# enough that later rounds weigh little (a block bought now pays for its buildings in a few rounds).
HORIZON: Final = 14.0
# A block held in part: this share of (held share)² of what the whole block would be worth.
OPTION: Final = 0.35
LEVELS = range(HOTEL + 1)
MIN_OPPONENTS: Final = 3


class Returns:
    """Per edition: landing-weighted rents per group of titles and level of building, and building costs."""

    __slots__ = ("t", "p", "rpt", "group_of", "groups", "block_rate", "block_cost", "single_rate", "jail")

    def __init__(self, t: Table) -> None:
        self.t = t
        data = landing(t.ed.id)
        p = data.square["short"]
        self.p = p
        self.rpt = data.rolls_per_turn["short"]
        self.jail = t.ed.rules.jail_square
        rents = t.rents
        # Groups: each block (in `t.blocks` order), then the airlines, then the utilities.
        self.groups: list[tuple[int, ...]] = [*t.blocks, t.airlines, t.utilities]
        self.group_of = [-1] * len(t.kind)
        for g, members in enumerate(self.groups):
            for j in members:
                self.group_of[j] = g
        # Per block, per uniform level: expected rent per landing-roll of all its titles (level 0: the
        # double rent of a whole block), and the cost of building every title up to that level.
        self.block_rate: list[list[float]] = []
        self.block_cost: list[list[int]] = []
        for members in t.blocks:
            rate = [sum(p[j] * rents[j][0] * 2 for j in members)]
            rate += [sum(p[j] * rents[j][lv] for j in members) for lv in range(1, HOTEL + 1)]
            cost = [sum(_cost_to(t, j, lv) for j in members) for lv in LEVELS]
            self.block_rate.append(rate)
            self.block_cost.append(cost)
        # Per title and count of its group held: expected rent per roll of one title (countries: unbuilt,
        # block incomplete; airlines by the count held; utilities at the mean roll of 7).
        mult = t.ed.economy.utility_multipliers
        self.single_rate: list[tuple[float, ...]] = []
        for j, kind in enumerate(t.kind):
            if kind == "country":
                self.single_rate.append((p[j] * rents[j][0],))
            elif kind == "airline":
                self.single_rate.append(tuple(p[j] * r for r in rents[j]))
            elif kind == "utility":
                self.single_rate.append(tuple(p[j] * 7 * m for m in mult))
            else:
                self.single_rate.append(())


def _cost_to(t: Table, j: int, level: int) -> int:
    if level == HOTEL:
        return 4 * t.house_cost[j] + t.hotel_cost[j]
    return level * t.house_cost[j]


_RETURNS: dict[str, Returns] = {}


def returns(t: Table) -> Returns:
    r = _RETURNS.get(t.ed.id)
    if r is None:
        r = _RETURNS[t.ed.id] = Returns(t)
    return r


def opponents_factor(st: State, r: Returns, seat: int) -> float:
    """Landing rolls of the opponents per round: rolls per turn times the opponents still playing, counting
    at least three (games with fewer seats last more rounds, so the horizon stretches in rounds)."""
    others = sum(1 for k, s in enumerate(st.seats) if not s.out and k != seat)
    return r.rpt * max(others, MIN_OPPONENTS)


def best_level(r: Returns, block: int, low: int, k: float, cap: int = HOTEL) -> tuple[float, int]:
    """(worth, level): the uniform level at or above `low` that earns most over the horizon, less the
    buildings still to pay for; `k` is `opponents_factor`."""
    rate, cost = r.block_rate[block], r.block_cost[block]
    best, at = HORIZON * k * rate[low], low
    for lv in range(low + 1, cap + 1):
        v = HORIZON * k * rate[lv] - (cost[lv] - cost[low])
        if v > best:
            best, at = v, lv
    return best, at


def group_value(
    r: Returns, g: int, owner: list[int], mortgaged: list[bool], level: list[int], seat: int, k: float
) -> float:
    """What the titles `seat` holds in group `g` are worth to it under `owner` (see the module doc)."""
    t = r.t
    members = r.groups[g]
    held = 0
    cash_in = 0.0  # mortgages that could still be raised, less the cost of lifting those already taken
    lone = 0.0
    for j in members:
        if owner[j] == seat:
            held += 1
            if mortgaged[j]:
                cash_in -= 0.1 * t.mortgage[j]
            else:
                cash_in += t.mortgage[j]
    if not held:
        return 0.0
    rates = r.single_rate
    if g >= len(t.blocks):
        # Airlines or utilities: rent by the count held.
        for j in members:
            if owner[j] == seat and not mortgaged[j]:
                row = rates[j]
                lone += row[min(held, len(row)) - 1]
        return cash_in + HORIZON * k * lone
    if held == len(members):
        low = min(level[j] for j in members)
        worth, _ = best_level(r, g, low, k)
        return cash_in + worth
    for j in members:
        if owner[j] == seat and not mortgaged[j]:
            lone += rates[j][0]
    share = held / len(members)
    whole, _ = best_level(r, g, 0, k)
    return cash_in + HORIZON * k * lone + OPTION * share * share * whole


def change(
    r: Returns,
    before: list[int],
    after: list[int],
    mortgaged: list[bool],
    level: list[int],
    moved: tuple[int, ...],
    seat: int,
    k: float,
) -> float:
    """How much the worth of `seat`'s titles changes from ownership `before` to `after`, looking only at the
    groups of the `moved` titles."""
    seen: list[int] = []
    total = 0.0
    for j in moved:
        g = r.group_of[j]
        if g in seen:
            continue
        seen.append(g)
        total += group_value(r, g, after, mortgaged, level, seat, k)
        total -= group_value(r, g, before, mortgaged, level, seat, k)
    return total


def title_gain(st: State, r: Returns, seat: int, square: int, k: float) -> float:
    """What the bank's title `square` would add to `seat`'s worth (it arrives unmortgaged)."""
    owner = st.owner
    if owner[square] != BANK:
        return 0.0
    after = list(owner)
    after[square] = seat
    return change(r, owner, after, st.mortgaged, st.level, (square,), seat, k)


def mortgage_loss(st: State, r: Returns, seat: int, square: int, k: float) -> float:
    """What flipping the mortgage of `square` (taking it, or lifting it: then negative) takes from the
    seat's worth, the cash that moves apart."""
    g = r.group_of[square]
    before = group_value(r, g, st.owner, st.mortgaged, st.level, seat, k)
    flipped = list(st.mortgaged)
    flipped[square] = not flipped[square]
    return before - group_value(r, g, st.owner, flipped, st.level, seat, k)


def danger(st: State, r: Returns, seat: int) -> int:
    """The highest rent an opponent could charge `seat` on its next roll (the squares 2 to 12 ahead), and
    the tax squares among them."""
    t = r.t
    ed = t.ed
    rules = board.rules(st, ed)
    owner = st.owner
    pos = st.seats[seat].pos
    if st.seats[seat].jailed:
        pos = r.jail
    worst = 0
    squares = ed.squares
    for d in range(2, 13):
        j = (pos + d) % 40
        if t.kind[j] == "tax":
            rent = squares[j].amount
        elif owner[j] == seat:
            continue
        else:
            rent = board.rent(st, j, d, rules)  # none for the bank's squares and mortgaged titles
        if rent > worst:
            worst = rent
    return worst

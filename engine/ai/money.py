"""Money decisions: raising cash for a debt at the least loss, building evenly, lifting mortgages."""

from __future__ import annotations

from engine.actions import Action
from engine.ai.levels import Style
from engine.ai.view import Table, owns_all, raisable, start_cash
from engine.legal import build_plan, unmortgage_cost
from engine.state import HOTEL, State


def settle_debt(st: State, t: Table, seat: int) -> Action:
    """One step towards paying what `seat` owes, or bankruptcy when even selling everything falls short.

    The cheapest loss goes first: mortgage titles that earn little alone (a title outside a complete block,
    lowest rent first), then sell buildings (half their cost back; the least profitable block first, evenly),
    then mortgage titles of complete blocks, and, where the bank buys titles back, sell them last.
    """
    owed = sum(d.amount for d in st.debts if d.debtor == seat)
    cash = st.seats[seat].cash
    if cash + raisable(st, t, seat) < owed:
        return Action(kind="bankrupt", seat=seat)
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    lone: list[tuple[int, int]] = []
    in_block: list[tuple[int, int]] = []
    built: list[tuple[int, int]] = []
    for i in t.titles:
        if owner[i] != seat:
            continue
        members = t.members[i]
        if level[i]:
            # Sell where a building earns least: compare the rent the top building adds.
            top = max(level[j] for j in members)
            if level[i] == top:
                built.append((t.rents[i][top] - t.rents[i][top - 1], i))
            continue
        if mortgaged[i] or (members and any(level[j] for j in members)):
            continue
        whole = bool(members) and owns_all(owner, members, seat)
        (in_block if whole else lone).append((t.rents[i][0] if t.rents[i] else 0, i))
    if lone:
        return Action(kind="mortgage", seat=seat, square=min(lone)[1])
    if built:
        return Action(kind="sell", seat=seat, square=min(built)[1])
    if in_block:
        return Action(kind="mortgage", seat=seat, square=min(in_block)[1])
    if t.ed.rules.bank_buys_titles:
        for i in t.titles:
            if owner[i] == seat:
                return Action(kind="sell_title", seat=seat, square=i)
    return Action(kind="bankrupt", seat=seat)


def build(st: State, t: Table, seat: int, style: Style, reserve: int) -> Action | None:
    """The next buildings on a complete block, evenly, keeping `reserve` in cash; the block whose lowest
    square is least built goes first, so several blocks grow together."""
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    cash = st.seats[seat].cash
    best: tuple[int, int, int] | None = None
    for members in t.blocks:
        if owner[members[0]] != seat or not owns_all(owner, members, seat):
            continue
        low = HOTEL
        at = -1
        for j in members:
            if mortgaged[j]:
                at = -1
                break
            if level[j] < low:
                low, at = level[j], j
        if at < 0 or low >= style.max_level:
            continue
        cost = t.hotel_cost[at] if low + 1 == HOTEL else t.house_cost[at]
        if cash - cost < reserve:
            continue
        key = (low, cost, at)
        if best is None or key < best:
            best = key
    if best is None:
        return None
    square = best[2]
    members = t.members[square]
    # As many as the reserve allows up to the level cap, in one action (the engine takes at most five).
    cap = min(HOTEL, sum(max(0, style.max_level - level[j]) for j in members))
    plan = build_plan(st, t.ed, seat, square, cap)
    spend = 0
    count = 0
    levels = {j: level[j] for j in members}
    for j in plan:
        lv = levels[j] + 1
        cost = t.hotel_cost[j] if lv == HOTEL else t.house_cost[j]
        if cash - spend - cost < reserve or lv > style.max_level:
            break
        spend += cost
        levels[j] = lv
        count += 1
    if not count:
        return None
    return Action(kind="build", seat=seat, square=square, count=count)


def unmortgage(st: State, t: Table, seat: int, style: Style, reserve: int) -> Action | None:
    """Lift a mortgage when rich: titles of complete blocks first (they can then be built on), dearest rent
    first."""
    owner, mortgaged = st.owner, st.mortgaged
    cash = st.seats[seat].cash
    keep = max(reserve, int(style.unmortgage_reserve * start_cash(st, t)))
    best: tuple[int, int, int] | None = None
    for i in t.titles:
        if owner[i] != seat or not mortgaged[i]:
            continue
        cost = unmortgage_cost(st, t.ed, i)
        if cash - cost < keep:
            continue
        members = t.members[i]
        whole = bool(members) and owns_all(owner, members, seat)
        key = (0 if whole else 1, -t.price[i], i)
        if best is None or key < best:
            best = key
    if best is None:
        return None
    return Action(kind="unmortgage", seat=seat, square=best[2])

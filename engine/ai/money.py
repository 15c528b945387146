"""Money decisions: raising cash for a debt at the least loss, building evenly, club loans, lifting mortgages."""

from __future__ import annotations

from engine import board
from engine.actions import Action
from engine.ai.levels import Style
from engine.ai.view import Rents, Reserve, Table, owns_all, start_cash
from engine.legal import build_plan, unmortgage_cost
from engine.state import HOTEL, State


def settle_debt(st: State, t: Table, seat: int) -> Action:
    """One step towards paying what `seat` owes, or bankruptcy when even selling everything falls short.

    The cheapest loss goes first: mortgage titles that earn little alone (a title outside a complete block,
    lowest rent first), then sell buildings (half their cost back; the least profitable block first, evenly),
    then mortgage titles of complete blocks, and, where the bank buys titles back, sell them last; where it
    takes mortgaged titles in payment, hand those over last of all.
    """
    owed = sum(d.amount for d in st.debts if d.debtor == seat)
    cash = st.seats[seat].cash
    if cash + board.raisable(st, seat, enough=owed - cash) < owed:
        return Action(kind="bankrupt", seat=seat)
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    lone: list[tuple[int, int]] = []
    in_block: list[tuple[int, int]] = []
    built: list[tuple[bool, int, int]] = []
    # Selling a hotel back while the bank lacks four houses takes down every hotel of the block: last resort.
    hotels_collapse = st.bank_houses < 4
    # The highest building of each block (in `t.blocks` order), worked out once.
    tops = _block_tops(t, level)
    for i in t.titles:
        if owner[i] != seat:
            continue
        b = t.block_of[i]
        top = tops[b] if b >= 0 else 0
        lv = level[i]
        if lv:
            # Sell where a building earns least: compare the rent the top building adds.
            if lv == top:
                built.append((top == HOTEL and hotels_collapse, t.rents[i][top] - t.rents[i][top - 1], i))
            continue
        if mortgaged[i] or top:
            continue
        members = t.members[i]
        whole = bool(members) and owns_all(owner, members, seat)
        (in_block if whole else lone).append((t.rents[i][0] if t.rents[i] else 0, i))
    if lone:
        return Action(kind="mortgage", seat=seat, square=min(lone)[1])
    if built:
        return Action(kind="sell", seat=seat, square=min(built)[2])
    if in_block:
        return Action(kind="mortgage", seat=seat, square=min(in_block)[1])
    rules = board.rules(st, t.ed)
    if rules.bank_buys_titles:
        for i in t.titles:
            if owner[i] == seat:
                return Action(kind="sell_title", seat=seat, square=i)
    if rules.mortgaged_title_to_bank:
        handed = [(t.price[i], i) for i in t.titles if owner[i] == seat and mortgaged[i]]
        if handed:
            return Action(kind="title_to_bank", seat=seat, square=min(handed)[1])
    return Action(kind="bankrupt", seat=seat)


def _block_tops(t: Table, level: list[int]) -> list[int]:
    """Per block (in `t.blocks` order): its highest building level."""
    tops: list[int] = []
    for members in t.blocks:
        top = 0
        for j in members:
            if level[j] > top:
                top = level[j]
        tops.append(top)
    return tops


def lift_inherited(st: State, t: Table, seat: int, style: Style, rents: Rents | None = None) -> Action:
    """A creditor's one chance to lift inherited mortgages for the mortgage alone: lift while the cash left
    covers the worst rent on the board (titles of complete blocks first, dearest first), keep the rest.
    `rents`: the game's `Rents`, if kept."""
    lift = st.lift
    assert lift is not None
    owner = st.owner
    cash = st.seats[seat].cash
    keep = Reserve(st, t, seat, style, rents).exact()
    best: tuple[int, int, int] | None = None
    for i in lift.squares:
        cost = unmortgage_cost(st, i)
        if cash - cost < keep:
            continue
        members = t.members[i]
        key = (0 if members and owns_all(owner, members, seat) else 1, -t.price[i], i)
        if best is None or key < best:
            best = key
    if best is None:
        return Action(kind="keep_mortgaged", seat=seat)
    return Action(kind="unmortgage", seat=seat, square=best[2])


def cheapest_build(st: State, t: Table, seat: int, style: Style) -> int:
    """The cost of the cheapest next building `seat` may place (on a whole block, none of it mortgaged, below
    the level's cap), or 0 when there is none."""
    owner = st.owner
    # Levels and mortgages are read only once a whole block is found (most seats hold none).
    level: list[int] | None = None
    mortgaged: list[bool] = []
    cap = style.max_level
    cheapest = 0
    for members in t.blocks:
        if owner[members[0]] != seat or not owns_all(owner, members, seat):
            continue
        if level is None:
            level, mortgaged = st.level, st.mortgaged
        low = HOTEL
        for j in members:
            if mortgaged[j]:
                low = -1
                break
            if level[j] < low:
                low = level[j]
        if low < 0 or low >= cap:
            continue
        j = members[0]
        cost = t.hotel_cost[j] if low + 1 == HOTEL else t.house_cost[j]
        if not cheapest or cost < cheapest:
            cheapest = cost
    return cheapest


def has_mortgaged(st: State, t: Table, seat: int) -> bool:
    mortgaged = st.mortgaged
    if True not in mortgaged:  # most of a game: nothing mortgaged anywhere, found by one scan in C
        return False
    owner = st.owner
    # A plain loop over the mortgaged flags (only titles are ever mortgaged): faster than any() here.
    for i, m in enumerate(mortgaged):  # noqa: SIM110
        if m and owner[i] == seat:
            return True
    return False


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
    room = 0
    for j in members:
        if level[j] < style.max_level:
            room += style.max_level - level[j]
    cap = room if room < HOTEL else HOTEL
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


def loan_block(st: State, t: Table, seat: int, style: Style) -> str:
    """The block a Club Tarjeta Platino loan could be taken for: the one the seat would build on next, if
    loans are on, the seat is a member and that block has none yet ("" otherwise)."""
    ed = t.ed
    if not style.club_loans or not st.seats[seat].club or not board.club_loans(st, ed):
        return ""
    target = _next_block(st, t, seat, style)
    if target is None:
        return ""
    block = ed.squares[t.blocks[target][0]].block
    if block not in ed.economy.club_loans or any(ln.block == block for ln in st.loans):
        return ""
    return block


def loan_to_build(st: State, t: Table, seat: int, style: Style, block: str, reserve: int) -> Action | None:
    """The loan for `block` when the buildings it pays for bring the block to a rent that two landings (the
    loan's term) would repay; otherwise the bank would seize buildings, which makes it a bad bargain."""
    ed = t.ed
    members = board.blocks(ed)[block]
    amount = ed.economy.club_loans[block]
    budget = st.seats[seat].cash + amount - reserve
    levels = [st.level[j] for j in members]
    houses = 0
    while True:
        k = levels.index(min(levels))
        lv = levels[k] + 1
        if lv > style.max_level:
            break
        cost = t.hotel_cost[members[k]] if lv == HOTEL else t.house_cost[members[k]]
        if budget < cost:
            break
        budget -= cost
        levels[k] = lv
        houses += 1
    low = min(levels)
    if not houses or not low or houses > st.bank_houses:
        return None
    if 2 * min(t.rents[j][low] for j in members) < amount:
        return None
    return Action(kind="take_loan", seat=seat, block=block)


def _next_block(st: State, t: Table, seat: int, style: Style) -> int | None:
    """The index (in `t.blocks`) of the block `build` would grow next, money aside."""
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    best: tuple[int, int, int] | None = None
    for k, members in enumerate(t.blocks):
        if owner[members[0]] != seat or not owns_all(owner, members, seat) or any(mortgaged[j] for j in members):
            continue
        low = min(level[j] for j in members)
        if low >= style.max_level:
            continue
        j = members[0]
        key = (low, t.hotel_cost[j] if low + 1 == HOTEL else t.house_cost[j], k)
        if best is None or key < best:
            best = key
    return None if best is None else best[2]


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
        cost = unmortgage_cost(st, i)
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

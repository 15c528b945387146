"""What titles are worth to a seat: for buying and bidding one title, and for judging a whole trade."""

from __future__ import annotations

from engine.ai.levels import Style
from engine.ai.view import Table, others_in_block
from engine.state import State


def title_worth(st: State, t: Table, style: Style, seat: int, square: int) -> int:
    """What the bank's title `square` is worth to `seat`: its price, more if it completes (or starts to
    complete) a block of the seat's, or keeps an opponent from completing one."""
    price = t.price[square]
    kind = t.kind[square]
    owner = st.owner
    if kind == "country":
        members = t.members[square]
        mine, bank, rival = others_in_block(owner, members, seat)
        if mine == len(members) - 1:
            factor = 1.0 + style.block_premium
        elif rival >= 0 and bank == 1 and mine == 0:
            factor = 1.0 + style.spoiler_premium
        else:
            factor = 1.0 + 0.15 * mine
    elif kind == "airline":
        factor = 1.0 + 0.25 * sum(1 for j in t.airlines if owner[j] == seat)
    else:
        factor = 0.8 + 0.3 * sum(1 for j in t.utilities if owner[j] == seat)
    return int(price * factor)


def holdings(t: Table, style: Style, owner: list[int], mortgaged: list[bool], seat: int) -> float:
    """The worth of every title `seat` holds under the ownership `owner`: complete blocks count far more
    than their prices, and a mortgaged title counts less what lifting it costs."""
    total = sum(_group_value(t, style, owner, members, "country", seat) for members in t.blocks)
    total += _group_value(t, style, owner, t.airlines, "airline", seat)
    total += _group_value(t, style, owner, t.utilities, "utility", seat)
    for j in t.titles:
        if owner[j] == seat and mortgaged[j]:
            total -= t.mortgage[j] * 1.1
    return total


def _group_value(t: Table, style: Style, owner: list[int], group: tuple[int, ...], kind: str, seat: int) -> float:
    """The part of `holdings` that one block, the airlines or the utilities contribute (mortgages apart)."""
    n = 0
    value = 0
    price = t.price
    for j in group:
        if owner[j] == seat:
            n += 1
            value += price[j]
    if not n:
        return 0.0
    if kind == "country":
        return value * (1.0 + style.block_premium) if n == len(group) else value * (1.0 + 0.15 * (n - 1))
    if kind == "airline":
        return value * (1.0 + 0.25 * (n - 1))
    return value * (0.8 + 0.3 * (n - 1))


def holdings_change(
    t: Table,
    style: Style,
    before: list[int],
    after: list[int],
    mortgaged: list[bool],
    moved: tuple[int, ...],
    seat: int,
) -> float:
    """`holdings(after) - holdings(before)` for `seat`, looking only at the groups of the `moved` titles."""
    groups: list[tuple[tuple[int, ...], str]] = []
    change = 0.0
    for j in moved:
        kind = t.kind[j]
        group = t.members[j] if kind == "country" else (t.airlines if kind == "airline" else t.utilities)
        if all(g is not group for g, _ in groups):
            groups.append((group, kind))
        if mortgaged[j]:
            # A mortgaged title counts less what lifting it costs (see `holdings`).
            change += t.mortgage[j] * 1.1 * ((before[j] == seat) - (after[j] == seat))
    for group, kind in groups:
        change += _group_value(t, style, after, group, kind, seat) - _group_value(t, style, before, group, kind, seat)
    return change


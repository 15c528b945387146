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
    total = 0.0
    price = t.price
    for members in t.blocks:
        mine = 0
        value = 0
        for j in members:
            if owner[j] == seat:
                mine += 1
                value += price[j]
        if not mine:
            continue
        if mine == len(members):
            total += value * (1.0 + style.block_premium)
        else:
            total += value * (1.0 + 0.15 * (mine - 1))
    n = 0
    value = 0
    for j in t.airlines:
        if owner[j] == seat:
            n += 1
            value += price[j]
    if n:
        total += value * (1.0 + 0.25 * (n - 1))
    n = 0
    value = 0
    for j in t.utilities:
        if owner[j] == seat:
            n += 1
            value += price[j]
    if n:
        total += value * (0.8 + 0.3 * (n - 1))
    for j in t.titles:
        if owner[j] == seat and mortgaged[j]:
            total -= t.mortgage[j] * 1.1
    return total


def complete_blocks(t: Table, owner: list[int], seat: int) -> int:
    count = 0
    for members in t.blocks:
        for j in members:
            if owner[j] != seat:
                break
        else:
            count += 1
    return count

"""What a computer player reads off the board: static tables per edition and quick questions on a state.

Everything here is read-only and cheap: the computer players answer on every action of a simulation, so
the tables are built once per edition and the questions avoid building lists they do not need.
"""

from __future__ import annotations

from engine.edition import TITLE_KINDS, Edition, load
from engine.state import BANK, HOTEL, State


class Table:
    """Per-edition facts in flat lists indexed by square."""

    __slots__ = (
        "ed",
        "titles",
        "kind",
        "price",
        "mortgage",
        "house_cost",
        "hotel_cost",
        "rents",
        "members",
        "blocks",
        "airlines",
        "utilities",
        "utility_top",
    )

    def __init__(self, ed: Edition) -> None:
        self.ed = ed
        squares = ed.squares
        self.titles = [sq.index for sq in squares if sq.kind in TITLE_KINDS]
        self.kind = [sq.kind for sq in squares]
        self.price = [sq.price for sq in squares]
        self.mortgage = [sq.mortgage for sq in squares]
        self.house_cost = [sq.house_cost for sq in squares]
        self.hotel_cost = [sq.hotel_cost for sq in squares]
        self.rents = [sq.rents for sq in squares]
        self.blocks = list(ed.blocks.values())
        self.members = [ed.blocks[sq.block] if sq.kind == "country" else () for sq in squares]
        self.airlines = tuple(sq.index for sq in squares if sq.kind == "airline")
        self.utilities = tuple(sq.index for sq in squares if sq.kind == "utility")
        # A utility's rent with a roll of 7, the most likely total: what a visitor should expect to pay.
        self.utility_top = max(ed.economy.utility_multipliers, default=0) * 7


_TABLES: dict[str, Table] = {}


def table(edition_id: str) -> Table:
    t = _TABLES.get(edition_id)
    if t is None:
        t = _TABLES[edition_id] = Table(load(edition_id))
    return t


def start_cash(st: State, t: Table) -> int:
    return st.settings.start_cash or t.ed.economy.start_cash


def owns_all(owner: list[int], members: tuple[int, ...], seat: int) -> bool:
    # A plain loop: about three times faster than all() over a generator on this hot path.
    for j in members:  # noqa: SIM110
        if owner[j] != seat:
            return False
    return True


def worst_rent(st: State, t: Table, seat: int) -> int:
    """The highest rent an opponent could charge `seat` on one landing now (utilities at a roll of 7)."""
    owner, level, mortgaged, kind, rents = st.owner, st.level, st.mortgaged, t.kind, t.rents
    worst = 0
    for i in t.titles:
        o = owner[i]
        if o < 0 or o == seat or mortgaged[i]:
            continue
        k = kind[i]
        if k == "country":
            lv = level[i]
            r = rents[i][lv] if lv else rents[i][0] * (2 if owns_all(owner, t.members[i], o) else 1)
        elif k == "airline":
            n = sum(1 for j in t.airlines if owner[j] == o)
            r = rents[i][min(n, len(rents[i])) - 1]
        else:
            r = t.utility_top
        if r > worst:
            worst = r
    return worst


def building_count(st: State, seat: int) -> int:
    owner, level = st.owner, st.level
    return sum(level[i] for i in range(len(owner)) if owner[i] == seat)


def raisable(st: State, t: Table, seat: int) -> int:
    """The cash `seat` could raise from the bank by selling every building and mortgaging (or, where the
    bank buys titles, selling) every title."""
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    bank_buys = t.ed.rules.bank_buys_titles
    total = 0
    for i in t.titles:
        if owner[i] != seat:
            continue
        lv = level[i]
        if lv:
            houses = 4 if lv == HOTEL else lv
            total += (houses * t.house_cost[i] + (t.hotel_cost[i] if lv == HOTEL else 0)) // 2
        if bank_buys:
            total += t.price[i] // 2 if mortgaged[i] else t.price[i]
        elif not mortgaged[i]:
            total += t.mortgage[i]
    return total


def others_in_block(owner: list[int], members: tuple[int, ...], seat: int) -> tuple[int, int, int]:
    """(titles of the block `seat` owns, titles the bank still holds, the one opponent holding the rest
    or -1 when the rest is split or nobody's)."""
    mine = bank = 0
    rival = -2
    for j in members:
        o = owner[j]
        if o == seat:
            mine += 1
        elif o == BANK:
            bank += 1
        elif rival == -2:
            rival = o
        elif rival != o:
            rival = -1
    return mine, bank, rival if rival >= 0 else -1

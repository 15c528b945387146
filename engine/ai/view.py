"""What a computer player reads off the board: static tables per edition and quick questions on a state.

Everything here is read-only and cheap: the computer players answer on every action of a simulation, so
the tables are built once per edition and the questions avoid building lists they do not need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from engine.edition import TITLE_KINDS, Edition, load
from engine.state import BANK, Settings, State

if TYPE_CHECKING:
    from engine.ai.levels import Style


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
        "block_of",
        "blocks",
        "airlines",
        "utilities",
        "utility_top",
        "unbuilt_rent_bound",
        "rent_bound",
        "start_cash",
        "_settings",
        "_start",
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
        # Per square: the index of its block in `blocks`, -1 for squares outside any block.
        self.block_of = [self.blocks.index(m) if m else -1 for m in self.members]
        self.airlines = tuple(sq.index for sq in squares if sq.kind == "airline")
        self.utilities = tuple(sq.index for sq in squares if sq.kind == "utility")
        # A utility's rent with a roll of 7, the most likely total: what a visitor should expect to pay.
        self.utility_top = max(ed.economy.utility_multipliers, default=0) * 7
        # Upper bounds of any one rent: with no building on the board, and at all.
        country = [sq.rents for sq in squares if sq.kind == "country"]
        airline = [max(sq.rents) for sq in squares if sq.kind == "airline"]
        base = max([2 * r[0] for r in country] + airline + [self.utility_top])
        self.unbuilt_rent_bound = base
        self.rent_bound = max([base] + [max(r) for r in country])
        self.start_cash = ed.economy.start_cash
        # The starting cash of the last game's settings asked about (`start_cash`): settings are frozen.
        self._settings: Settings | None = None
        self._start = 0


_TABLES: Final[dict[str, Table]] = {}


def table(edition_id: str) -> Table:
    t = _TABLES.get(edition_id)
    if t is None:
        t = _TABLES[edition_id] = Table(load(edition_id))
    return t


def start_cash(st: State, t: Table) -> int:
    settings = st.settings
    if settings is not t._settings:
        t._settings = settings
        t._start = settings.start_cash or t.start_cash
    return t._start


def owns_all(owner: list[int], members: tuple[int, ...], seat: int) -> bool:
    # A plain loop: about three times faster than all() over a generator on this hot path.
    for j in members:  # noqa: SIM110
        if owner[j] != seat:
            return False
    return True


def rent_bound(st: State, t: Table) -> int:
    """A quick upper bound of `worst_rent`: spares its scan when cash is plentiful anyway."""
    # any() over a generator: compiled, a loop in place (over a list, a call into Python).
    return t.rent_bound if any(lv for lv in st.level) else t.unbuilt_rent_bound


# Whether this module runs compiled (see setup.py).
NATIVE: Final = not __file__.endswith(".py")


class _LastBoard:
    """The board the top rents were last worked out for."""

    __slots__ = ("edition", "owner", "level", "mortgaged", "tops")

    def __init__(self) -> None:
        self.edition = ""
        self.owner: list[int] = []
        self.level: list[int] = []
        self.mortgaged: list[bool] = []
        self.tops: list[int] = []


# Every seat asks about the same board, and during an auction each bidder asks about it in turn: remember the
# last board's top rents, with a copy of the board to compare (comparing three short lists costs far less
# than hashing them for a dictionary).
_LAST: Final = _LastBoard()


def worst_rent(st: State, t: Table, seat: int) -> int:
    """The highest rent an opponent could charge `seat` on one landing now (utilities at a roll of 7)."""
    # Compiled, one pass over the opponents' titles costs less than comparing the board with the last one; in
    # Python the comparison is the cheaper. Both give the same rent (tests/test_ai.py, and CI compares the
    # games the compiled engine plays with those of the sources).
    if NATIVE:
        return _worst_rent_afresh(st, t, seat)
    worst = 0
    for o, r in enumerate(_last_top_rents(st, t)):
        if o != seat and r > worst:
            worst = r
    return worst


def _worst_rent_afresh(st: State, t: Table, seat: int) -> int:
    """`worst_rent` in one pass over the opponents' titles."""
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    rents_of = t.rents
    worst = 0
    for members in t.blocks:
        whole = -1  # whether one seat holds the whole block: -1 until needed, then 0 or 1
        for i in members:
            o = owner[i]
            if o < 0 or o == seat or mortgaged[i]:
                continue
            lv = level[i]
            rents = rents_of[i]
            if lv:
                r = rents[lv]
            else:
                if whole < 0:
                    whole = 1 if owns_all(owner, members, o) else 0
                r = rents[0] * 2 if whole else rents[0]
            if r > worst:
                worst = r
    airlines = t.airlines
    for i in airlines:
        o = owner[i]
        if o < 0 or o == seat or mortgaged[i]:
            continue
        held = 0  # the airlines `o` holds, mortgaged or not
        for j in airlines:
            if owner[j] == o:
                held += 1
        rents = rents_of[i]
        r = rents[(held if held < len(rents) else len(rents)) - 1]
        if r > worst:
            worst = r
    for i in t.utilities:
        o = owner[i]
        if o >= 0 and o != seat and not mortgaged[i] and t.utility_top > worst:
            worst = t.utility_top
    return worst


def _last_top_rents(st: State, t: Table) -> list[int]:
    """`top_rents`, remembered for the last board asked about."""
    last = _LAST
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    if owner != last.owner or level != last.level or mortgaged != last.mortgaged or t.ed.id != last.edition:
        last.tops = top_rents(st, t)
        last.edition = t.ed.id
        last.owner, last.level, last.mortgaged = list(owner), list(level), list(mortgaged)
    return last.tops


def top_rents(st: State, t: Table) -> list[int]:
    """Per seat (by index, six places), the highest rent one of its titles charges now."""
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    rents_of = t.rents
    tops = [0] * 6
    # Countries block by block: an unbuilt title's rent doubles when one seat holds its whole block.
    for members in t.blocks:
        whole = -1  # whether one seat holds the whole block: -1 until needed, then 0 or 1
        for i in members:
            o = owner[i]
            if o < 0 or mortgaged[i]:
                continue
            lv = level[i]
            rents = rents_of[i]
            if lv:
                r = rents[lv]
            else:
                if whole < 0:
                    whole = 1 if owns_all(owner, members, o) else 0
                r = rents[0] * 2 if whole else rents[0]
            if r > tops[o]:
                tops[o] = r
    airlines = t.airlines
    for i in airlines:
        o = owner[i]
        if o < 0 or mortgaged[i]:
            continue
        held = 0  # the airlines `o` holds, mortgaged or not
        for j in airlines:
            if owner[j] == o:
                held += 1
        rents = rents_of[i]
        r = rents[(held if held < len(rents) else len(rents)) - 1]
        if r > tops[o]:
            tops[o] = r
    for i in t.utilities:
        o = owner[i]
        if o >= 0 and not mortgaged[i] and t.utility_top > tops[o]:
            tops[o] = t.utility_top
    return tops


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


class Reserve:
    """Cash kept back from buying: a share of the starting cash, and for watchful levels at least the worst
    rent an opponent can charge now. The worst rent is only looked up when a quick bound does not settle
    the question."""

    __slots__ = ("st", "t", "seat", "base", "watch", "_exact")

    def __init__(self, st: State, t: Table, seat: int, style: Style) -> None:
        self.st, self.t, self.seat = st, t, seat
        self.base = int(style.buy_reserve * start_cash(st, t))
        self.watch = style.watch_rents
        self._exact = -1

    def at_most(self) -> int:
        return max(self.base, rent_bound(self.st, self.t)) if self.watch else self.base

    def exact(self) -> int:
        if self._exact < 0:
            self._exact = max(self.base, worst_rent(self.st, self.t, self.seat)) if self.watch else self.base
        return self._exact

"""What a computer player reads off the board: static tables per edition and quick questions on a state.

Everything here is read-only and cheap: the computer players answer on every action of a simulation, so
the tables are built once per edition and the questions avoid building lists they do not need.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from engine import board
from engine.edition import TITLE_KINDS, Edition, load
from engine.state import BANK, HOTEL, State

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
        "rent_caps",
        "dearest_first",
        "start_cash",
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
        # Per square and building level (0 to 5): the most its title can charge, with the whole block for an
        # unbuilt country, every airline, and the top multiplier for a utility. The titles, the dearest first.
        self.rent_caps: list[tuple[int, ...]] = []
        for sq in squares:
            if sq.kind == "country":
                self.rent_caps.append((2 * sq.rents[0], *sq.rents[1:]))
            elif sq.kind == "airline":
                self.rent_caps.append((max(sq.rents),) * (HOTEL + 1))
            else:
                self.rent_caps.append((self.utility_top if sq.kind == "utility" else 0,) * (HOTEL + 1))
        self.dearest_first = sorted(self.titles, key=lambda i: (-max(self.rent_caps[i]), i))
        self.start_cash = ed.economy.start_cash


_TABLES: Final[dict[str, Table]] = {}


def table(edition_id: str) -> Table:
    t = _TABLES.get(edition_id)
    if t is None:
        t = _TABLES[edition_id] = Table(load(edition_id))
    return t


def start_cash(st: State, t: Table) -> int:
    return st.settings.start_cash or t.start_cash


def owns_all(owner: list[int], members: tuple[int, ...], seat: int) -> bool:
    # A plain loop: about three times faster than all() over a generator on this hot path.
    for j in members:  # noqa: SIM110
        if owner[j] != seat:
            return False
    return True


def rent_bound(st: State, t: Table) -> int:
    """A quick upper bound of `worst_rent`: spares its scan when cash is plentiful anyway."""
    return t.rent_bound if any(st.level) else t.unbuilt_rent_bound


def top_rents(st: State, t: Table) -> list[int]:
    """Per seat (by index, six places), the highest rent one of its titles charges now (`board.rent`; utilities
    at their top multiplier and a roll of 7, the likeliest total: what one landing may cost)."""
    tops = [0] * 6
    owner, level, mortgaged = st.owner, st.level, st.mortgaged
    caps, kind, utility_top = t.rent_caps, t.kind, t.utility_top
    # The dearest titles first: the rent of a title whose cap its owner's top already reaches is not asked.
    for i in t.dearest_first:
        o = owner[i]
        if o < 0 or mortgaged[i] or caps[i][level[i]] <= tops[o]:
            continue
        r = utility_top if kind[i] == "utility" else board.rent(st, i, 7)
        if r > tops[o]:
            tops[o] = r
    return tops


class Rents:
    """`top_rents` for the board of one game, worked out again only when the board changes: the seats ask about
    the same board on most actions (bidders in turn, and turn after turn while nobody buys, builds or
    mortgages). One per game being played (`engine.driver.play`), never shared between games."""

    __slots__ = ("owner", "level", "mortgaged", "tops")

    def __init__(self) -> None:
        self.owner: list[int] = []
        self.level: list[int] = []
        self.mortgaged: list[bool] = []
        self.tops: list[int] = []

    def of(self, st: State, t: Table) -> list[int]:
        owner, level, mortgaged = st.owner, st.level, st.mortgaged
        # Comparing three short lists costs far less than working the rents out.
        if owner != self.owner or level != self.level or mortgaged != self.mortgaged:
            self.tops = top_rents(st, t)
            self.owner, self.level, self.mortgaged = list(owner), list(level), list(mortgaged)
        return self.tops


def worst_rent(st: State, t: Table, seat: int, rents: Rents | None = None) -> int:
    """The highest rent an opponent could charge `seat` on one landing now (utilities at a roll of 7); `rents`:
    the game's `Rents`, when the caller keeps one."""
    worst = 0
    for o, r in enumerate(rents.of(st, t) if rents is not None else top_rents(st, t)):
        if o != seat and r > worst:
            worst = r
    return worst


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

    __slots__ = ("st", "t", "seat", "base", "watch", "rents", "_exact")

    def __init__(self, st: State, t: Table, seat: int, style: Style, rents: Rents | None = None) -> None:
        self.st, self.t, self.seat, self.rents = st, t, seat, rents
        self.base = int(style.buy_reserve * start_cash(st, t))
        self.watch = style.watch_rents
        self._exact = -1

    def at_most(self) -> int:
        return max(self.base, rent_bound(self.st, self.t)) if self.watch else self.base

    def exact(self) -> int:
        if self._exact < 0:
            worst = worst_rent(self.st, self.t, self.seat, self.rents) if self.watch else 0
            self._exact = max(self.base, worst)
        return self._exact

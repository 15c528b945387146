"""Read-only questions about a state: rents, blocks, what may be built or sold, net worth.

Both the rules (`engine.rules`) and their legality checks (`engine.legal`) ask these; nothing here changes
the state.
"""

from __future__ import annotations

from typing import Final

from engine.edition import TITLE_KINDS, Card, Edition, Rules, Square, load
from engine.rulebook import in_force
from engine.state import BANK, HOTEL, State

BOARD_SIZE: Final = 40


def rules(st: State, ed: Edition) -> Rules:
    """The rules this game plays by: the edition's, house rules and the rulebook it began under applied."""
    return in_force(ed.id, st.settings)


def trading_window(st: State, ed: Edition) -> bool:
    return rules(st, ed).trading_window


def club_loans(st: State, ed: Edition) -> bool:
    return rules(st, ed).club_loans


def interest(ed: Edition, square: Square) -> int:
    """The printed 10 % (rounded up) on top of a mortgage: what lifting it costs besides the mortgage."""
    return -(-square.mortgage * ed.economy.mortgage_interest_pct // 100)


def interest_due(st: State, square: int) -> int:
    """The 10 % this game charges on `square`'s mortgage (none when the house rules lift at the mortgage alone)."""
    if not in_force(st.edition, st.settings).mortgage_interest:
        return 0
    lay = layout(st.edition)
    return -(-lay.mortgage[square] * lay.interest_pct // 100)  # `interest`, read from the layout


class Layout:
    """An edition's board in flat lists indexed by square, with its blocks and cards by id: what the questions
    below read of an edition. Compiled, reading a field of an edition's struct is a lookup by name; reading
    these is an index."""

    __slots__ = (
        "kind", "rents", "members", "price", "mortgage", "house_cost", "hotel_cost", "blocks", "cards", "of_kind",
        "multipliers", "interest_pct",
    )  # fmt: skip

    def __init__(self, ed: Edition) -> None:
        squares = ed.squares
        self.kind = [sq.kind for sq in squares]
        self.rents = [sq.rents for sq in squares]
        self.blocks: dict[str, tuple[int, ...]] = ed.blocks
        # Per square: the squares of its block (countries), or of its kind (airlines, utilities: their rent
        # counts those held); empty for the others.
        self.of_kind: dict[str, tuple[int, ...]] = {}
        for sq in squares:
            self.of_kind[sq.kind] = (*self.of_kind.get(sq.kind, ()), sq.index)
        self.members = [
            self.blocks[sq.block] if sq.kind == "country" else self.of_kind[sq.kind] if sq.kind in TITLE_KINDS else ()
            for sq in squares
        ]
        self.price = [sq.price for sq in squares]
        self.mortgage = [sq.mortgage for sq in squares]
        self.house_cost = [sq.house_cost for sq in squares]
        self.hotel_cost = [sq.hotel_cost for sq in squares]
        self.cards: dict[str, Card] = {c.id: c for d in ed.decks for c in d.cards}
        self.multipliers = ed.economy.utility_multipliers
        self.interest_pct = ed.economy.mortgage_interest_pct


# Editions are loaded once per id (`engine.edition.load`), so their layouts are kept by id.
_LAYOUTS: Final[dict[str, Layout]] = {}


def layout(edition_id: str) -> Layout:
    """The layout of the edition `edition_id` (a state's `edition`)."""
    found = _LAYOUTS.get(edition_id)
    if found is None:
        found = _LAYOUTS[edition_id] = Layout(load(edition_id))
    return found


def blocks(ed: Edition) -> dict[str, tuple[int, ...]]:
    """`ed.blocks`: block id -> its squares."""
    return layout(ed.id).blocks


def card(ed: Edition, card_id: str) -> Card:
    """`ed.card(card_id)`."""
    return layout(ed.id).cards[card_id]


def owns_block(st: State, ed: Edition, seat: int, block: str) -> bool:
    return all(st.owner[j] == seat for j in blocks(ed)[block])


def block_has_buildings(st: State, ed: Edition, square: int) -> bool:
    sq = ed.squares[square]
    if sq.kind != "country":
        return False
    return any(st.level[j] for j in blocks(ed)[sq.block])


def count_owned(st: State, ed: Edition, seat: int, kind: str) -> int:
    # Mortgaged airlines and utilities still count (rules 004 FAQ, rules 001).
    owner = st.owner
    n = 0
    for i in squares_of_kind(ed, kind):
        if owner[i] == seat:
            n += 1
    return n


def squares_of_kind(ed: Edition, kind: str) -> tuple[int, ...]:
    """The squares of one kind on the edition's board."""
    return layout(ed.id).of_kind.get(kind, ())


def rent(st: State, square: int, dice_total: int, game_rules: Rules | None = None) -> int:
    """What a visitor owes the owner of `square` (0 for the bank's or a mortgaged title) after a roll of
    `dice_total`; `game_rules`: the game's rules when the caller has them at hand."""
    owners = st.owner
    owner = owners[square]
    if owner == BANK or st.mortgaged[square]:
        return 0
    lay = _LAYOUTS.get(st.edition) or layout(st.edition)  # `layout`, without a call on the commonest path
    kind = lay.kind[square]
    rents = lay.rents[square]
    # A country's block; the airlines or the utilities for those.
    members = lay.members[square]
    if kind == "country":
        level = st.level[square]
        if level:
            return rents[level]
        for j in members:
            if owners[j] != owner:
                return rents[0]
        # A whole block doubles the rent, with a mortgaged title in it only where the rules say so.
        if (game_rules or in_force(st.edition, st.settings)).double_rent_with_mortgaged:
            return rents[0] * 2
        mortgaged = st.mortgaged
        for j in members:
            if mortgaged[j]:
                return rents[0]
        return rents[0] * 2
    # Airlines and utilities by how many of them the owner holds, mortgaged or not (rules 004 FAQ, rules 001).
    held = 0
    for j in members:
        if owners[j] == owner:
            held += 1
    if kind == "airline":
        return rents[min(held, len(rents)) - 1]
    mult = lay.multipliers
    return mult[min(held, len(mult)) - 1] * dice_total


def building_cost(sq: Square, level_after: int) -> int:
    return sq.hotel_cost if level_after == HOTEL else sq.house_cost


def buildings_value(sq: Square, level: int) -> int:
    """What the buildings on a square cost to put there."""
    if level == HOTEL:
        return 4 * sq.house_cost + sq.hotel_cost
    return level * sq.house_cost


def build_blocker(st: State, ed: Edition, seat: int, square: int) -> str:
    """Why one more building cannot go on `square` now ("" if it can, money and supply aside)."""
    sq = ed.squares[square]
    if sq.kind != "country":
        return "not_buildable"
    owner = st.owner
    if owner[square] != seat:
        return "not_owner"
    block = blocks(ed)[sq.block]
    if not all(owner[j] == seat for j in block):
        return "block_incomplete"
    mortgaged = st.mortgaged
    if any(mortgaged[j] for j in block):
        return "block_mortgaged"
    levels = st.level
    level = levels[square]
    if level >= HOTEL:
        return "max_buildings"
    if any(levels[j] < level for j in block) and rules(st, ed).even_building:
        return "build_evenly"
    return ""


def sell_blocker(st: State, ed: Edition, seat: int, square: int) -> str:
    sq = ed.squares[square]
    if sq.kind != "country" or st.owner[square] != seat:
        return "not_owner"
    level = st.level[square]
    if level == 0:
        return "no_buildings"
    if level < max(st.level[j] for j in blocks(ed)[sq.block]) and rules(st, ed).even_building:
        return "sell_evenly"
    return ""


def mortgage_blocked(st: State, ed: Edition, square: int) -> bool:
    """Whether buildings stand in the way of mortgaging `square`: on the title itself (rules 000 §10, 002), or
    anywhere on its block where the edition says so (rules 001)."""
    if rules(st, ed).mortgage_bare_block:
        return block_has_buildings(st, ed, square)
    return st.level[square] > 0


def raisable(st: State, seat: int, enough: int = 1 << 62) -> int:
    """The cash `seat` can still get from the bank: every building sold back, every title mortgaged (or, where
    the bank buys titles, sold to it; where it takes mortgaged titles in payment, handed over). A floor: each
    building is counted as sold one at a time, which never pays more than any other way of selling it.
    Counting stops once the total reaches `enough`, for a caller that only asks whether that much is there."""
    r = in_force(st.edition, st.settings)
    buys, hands_over = r.bank_buys_titles, r.mortgaged_title_to_bank
    # The 10 % as `interest_due` charges it, worked out here once rather than per title.
    lay = layout(st.edition)
    pct = lay.interest_pct if r.mortgage_interest else 0
    price, mortgage, house_cost, hotel_cost = lay.price, lay.mortgage, lay.house_cost, lay.hotel_cost
    level, mortgaged = st.level, st.mortgaged
    total = 0
    for i, o in enumerate(st.owner):
        if o != seat:
            continue
        if total >= enough:
            break
        lv = level[i]
        if lv == HOTEL:
            total += hotel_cost[i] // 2 + 4 * (house_cost[i] // 2)
        elif lv:
            total += lv * (house_cost[i] // 2)
        if buys:
            total += price[i] // 2 if mortgaged[i] else price[i]  # title_value
            continue
        if not mortgaged[i]:
            total += mortgage[i]
        if hands_over:
            total += max(0, price[i] - mortgage[i] + (mortgage[i] * pct // -100))  # title_to_bank_value
    return total


def title_to_bank_value(st: State, square: int) -> int:
    """What the bank credits for a mortgaged title handed to it in payment (rules 001): the title's price less
    the mortgage it lent on it and its 10 % interest."""
    lay = layout(st.edition)
    return max(0, lay.price[square] - lay.mortgage[square] - interest_due(st, square))


def can_build_any(st: State, ed: Edition, seat: int, hotel: bool) -> bool:
    """Whether `seat` could place a house (or a hotel) somewhere now, money and supply aside."""
    for sq in ed.squares:
        i = sq.index
        if st.owner[i] != seat or (st.level[i] == 4) != hotel or build_blocker(st, ed, seat, i):
            continue
        if st.seats[seat].cash >= building_cost(sq, st.level[i] + 1):
            return True
    return False


def title_value(st: State, square: int) -> int:
    """What the bank pays for a title (where it buys them): its price, half of it mortgaged."""
    price = layout(st.edition).price[square]
    return price // 2 if st.mortgaged[square] else price


def net_worth(st: State, seat: int) -> tuple[int, int, int]:
    """(total, titles, buildings): cash + titles (mortgaged at half) + buildings at cost, less club loans."""
    titles = buildings = 0
    squares, level = load(st.edition).squares, st.level
    for i, o in enumerate(st.owner):
        if o == seat:
            titles += title_value(st, i)
            buildings += buildings_value(squares[i], level[i])
    blocks = layout(st.edition).blocks
    loans = sum(ln.balance for ln in st.loans if st.owner[blocks[ln.block][0]] == seat)
    return st.seats[seat].cash + titles + buildings - loans, titles, buildings


def titles_of(st: State, seat: int) -> list[int]:
    return [i for i, o in enumerate(st.owner) if o == seat]


def active_seats(st: State) -> list[int]:
    return [s for s in st.order if not st.seats[s].out]

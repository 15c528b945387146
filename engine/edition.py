"""Editions: the board, the decks, the economy and the rule switches of one printed game, read from TOML."""

from __future__ import annotations

import tomllib
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Final

import msgspec


def _data_dir() -> Path:
    """The data files, found through the installed package `turista_data` (the repository's data/
    folder), never through the working directory."""
    root = resources.files("turista_data")
    if not isinstance(root, Path):  # pip unpacks wheels; only a zipped install would land here
        raise RuntimeError(f"the turista_data package must be installed as plain files, not {root!r}")
    return root


DATA_DIR = _data_dir()
EDITIONS_DIR = DATA_DIR / "editions"

# Square kinds. Titles are the squares a seat can own.
TITLE_KINDS: Final = frozenset({"country", "airline", "utility"})
SQUARE_KINDS = TITLE_KINDS | {
    "go",  # salary on passing or landing
    "tax",  # pay `amount` to the bank (or to the pot with the free-parking house rule)
    "card",  # draw from `deck`
    "jail",  # the jail corner: a visit when reached by the dice
    "go_to_jail",  # sends the seat to the jail corner without salary
    "free",  # rest
    "lose_turns",  # rest for `turns` turns unless a double is rolled (Oceanía in `mundial`)
    "customs",  # roll 6, 7 or 8 with the dice or pay `amount`
    "club",  # Club Tarjeta Platino: membership and account fee
}

# Card effects: the small vocabulary the decks of the edition files are written in (docs/rules.md).
CARD_EFFECTS = frozenset(
    {
        "collect",  # bank pays `amount`
        "pay",  # pay `amount` to the bank
        "pay_each",  # pay `amount` to every other solvent seat
        "collect_each",  # every other solvent seat pays `amount`
        "move_to",  # move forward to `square`, salary if passing start
        "move_by",  # move `steps` (negative: backwards, no salary)
        "go_to_jail",
        "jail_free",  # keep until used or traded
        "repairs",  # pay `amount` per restaurant/house and `amount2` per hotel
        "nearest",  # move forward to the nearest square of `kind` (airline/utility); pay `multiplier`× rent
    }
)


class Square(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    index: int
    kind: str
    id: str  # text id in the catalogue: square.<edition>.<id>
    block: str = ""
    price: int = 0
    rents: tuple[int, ...] = ()  # countries: base, 1..4 buildings, hotel; airlines: by count owned
    house_cost: int = 0
    hotel_cost: int = 0
    mortgage: int = 0
    amount: int = 0  # tax / customs / club membership
    amount2: int = 0  # club account fee
    deck: str = ""
    turns: int = 0
    estimated: bool = False  # the value was derived, not read off a printed board


class Card(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str  # text id in the catalogue: card.<edition>.<id>
    effect: str
    amount: int = 0
    amount2: int = 0
    square: int = -1
    steps: int = 0
    kind: str = ""
    multiplier: int = 1


class Deck(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str  # text id: deck.<edition>.<id>
    cards: tuple[Card, ...]


class Economy(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    start_cash: int
    salary: int
    jail_fine: int
    houses: int  # the bank's supply of restaurants / houses
    hotels: int
    utility_multipliers: tuple[int, ...]  # dice × this, by number of utilities owned (1, 2)
    mortgage_interest_pct: int = 10
    bid_steps: tuple[int, ...] = (1000, 5000, 10000)  # auction buttons, scaled to the edition
    club_loans: dict[str, int] = {}  # Club Tarjeta Platino construction loan per block


class Rules(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    jail_square: int
    double_rent_with_mortgaged: bool = True  # full block with a mortgaged title still doubles
    jail_doubles_release: bool = True  # a double in jail frees the seat and moves it
    jail_forced_fine: bool = True  # after the third failed turn the fine is paid; else the seat just leaves
    jail_max_turns: int = 3
    bank_buys_titles: bool = False  # `mundial`: the bank buys titles back (full price, half if mortgaged)
    trading_window: bool = False  # `mundial`: trades only on your turn once all titles are sold, no block held
    club_loans: bool = False  # Club Tarjeta Platino construction loans
    withdrawal: bool = True  # a seat may leave the game voluntarily (its assets go to the bank)
    # Rules 000 and 001 have all five; rules 002 none of them. House rules switch each one (engine.rulebook).
    doubles_roll_again: bool = True  # a double earns another roll
    three_doubles_jail: bool = True  # the third double in a row sends the seat to jail
    auction_on_decline: bool = True  # a title declined on landing is auctioned by the bank
    mortgage_interest: bool = True  # lifting a mortgage costs the mortgage plus 10 %
    even_building: bool = True  # build and sell evenly across a block; a hotel needs four houses on each title
    interest_on_transfer: bool = False  # the receiver of a mortgaged title pays the 10 % at once (rules 001)
    mortgage_bare_block: bool = False  # mortgaging needs the whole block bare (rules 001), not just the title
    no_lending: bool = True  # no gifts or loans between seats: each side of a trade gives something, not only cash
    mortgaged_title_to_bank: bool = False  # a debtor may hand a mortgaged title to the bank in payment (rules 001)
    bankruptcy_last_resort: bool = True  # bankruptcy only when selling and mortgaging everything cannot pay
    creditor_lifts: bool = True  # a creditor receiving mortgaged titles may lift them at once for the mortgage
    # A creditor's decision on inherited mortgages names only the titles it still holds mortgaged: one traded or
    # sold meanwhile leaves the decision (engine.rulebook: from rulebook 2).
    lift_follows_titles: bool = True


class Edition(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    id: str
    currency: str = "$"
    follows: str = ""  # which seed each rule follows, for humans
    economy: Economy
    rules: Rules
    squares: tuple[Square, ...]
    decks: tuple[Deck, ...]
    colors: dict[str, str] = {}  # block id -> "#rrggbb" close to the printed board

    @property
    def blocks(self) -> dict[str, tuple[int, ...]]:
        return _blocks(self)

    def deck(self, deck_id: str) -> Deck:
        for d in self.decks:
            if d.id == deck_id:
                return d
        raise KeyError(deck_id)

    def card(self, card_id: str) -> Card:
        return _cards(self)[card_id]


# Editions are loaded once per id (see `load`), so their derived tables are cached by id.
_BLOCKS: dict[str, dict[str, tuple[int, ...]]] = {}
_CARDS: dict[str, dict[str, Card]] = {}


def _blocks(edition: Edition) -> dict[str, tuple[int, ...]]:
    found = _BLOCKS.get(edition.id)  # one lookup: the rules ask for the blocks on most actions
    if found is None:
        out: dict[str, list[int]] = {}
        for sq in edition.squares:
            if sq.kind == "country":
                out.setdefault(sq.block, []).append(sq.index)
        found = _BLOCKS[edition.id] = {k: tuple(v) for k, v in out.items()}
    return found


def _cards(edition: Edition) -> dict[str, Card]:
    if edition.id not in _CARDS:
        _CARDS[edition.id] = {c.id: c for d in edition.decks for c in d.cards}
    return _CARDS[edition.id]


def available() -> list[str]:
    return sorted(p.stem for p in EDITIONS_DIR.glob("*.toml"))


@cache
def load(edition_id: str) -> Edition:
    path = EDITIONS_DIR / f"{edition_id}.toml"
    if not path.is_file():
        raise KeyError(edition_id)
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    return msgspec.convert(raw, Edition)

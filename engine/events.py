"""The events an action produces: the closed list of their codes, each with its fields and their types.

`apply` returns its events as JSON-ready dicts, `{"code": ..., <field>: <value>, ...}`, and the bot stores
them as they are: games logged by every rulebook replay into the very same objects (tests/test_old_games.py,
`turista store verify`), so their form never changes. The structs below declare that form: `CODES` maps
every code the engine emits to the struct of its fields, and `typed` reads an event into it (checking every
field). tests/test_events.py holds the engine to this list (every code it emits, with the fields declared)
and holds the narration and both catalogues to it (a sentence for every code).

A new event: a struct here with its code as tag, the `emit` in the rules, and its sentence in
data/i18n/*/events.toml (or its code in the narration's silent events).
"""

from __future__ import annotations

from typing import Literal, get_args

import msgspec

from engine.actions import Offer
from engine.state import Standing

# What an auction sells.
Item = Literal["title", "house", "hotel"]
# Why money moves (`transfer`) or is owed (`debt`).
Reason = Literal[
    "auction", "bankruptcy", "build", "buy", "card", "club_fee", "club_loan", "club_membership", "customs",
    "dealt_title", "fine", "interest", "loan_repayment", "mortgage", "pot", "rent", "repairs", "salary",
    "sell_building", "sell_title", "tax", "title_to_bank", "trade", "unmortgage",
]  # fmt: skip
# How a seat left jail.
JailExit = Literal["doubles", "forced_fine", "served", "fine", "card"]
# Why a game ended.
Ending = Literal["bankruptcy", "turn_limit", "time_limit"]

REASONS: tuple[str, ...] = get_args(Reason)
JAIL_EXITS: tuple[str, ...] = get_args(JailExit)
ITEMS: tuple[str, ...] = get_args(Item)
ENDINGS: tuple[str, ...] = get_args(Ending)


class Event(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, tag_field="code"):
    """An event's fields; its code is the struct's tag. `seat` fields name a seat by index; `creditor`, `to`
    and `from` may also be the bank (-1) or the pot (-2); squares are board indices."""


# -- the game and its turns -----------------------------------------------------------------------
class GameStarted(Event, tag="game_started"):
    edition: str
    seats: int


class OrderRoll(Event, tag="order_roll"):
    seat: int
    value: int


class OrderDecided(Event, tag="order_decided"):
    order: list[int]


class OrderShuffled(Event, tag="order_shuffled"):
    order: list[int]


class TurnStarted(Event, tag="turn_started"):
    seat: int
    turn: int


class TimeUp(Event, tag="time_up"):
    pass


class GameOver(Event, tag="game_over"):
    reason: Ending
    winner: int
    standings: list[Standing]


# -- dice and movement ----------------------------------------------------------------------------
class Rolled(Event, tag="rolled"):
    seat: int
    dice: tuple[int, int]


class ThreeDoubles(Event, tag="three_doubles"):
    seat: int


class Moved(Event, tag="moved"):
    seat: int
    frm: int
    to: int


class RolledForRent(Event, tag="rolled_for_rent"):
    seat: int
    dice: tuple[int, int]


class CardDrawn(Event, tag="card"):
    seat: int
    deck: str
    card: str


class Customs(Event, tag="customs"):
    seat: int
    square: int
    amount: int


class CustomsRoll(Event, tag="customs_roll"):
    seat: int
    dice: tuple[int, int]


class JoinedClub(Event, tag="joined_club"):
    seat: int


class Resting(Event, tag="resting"):
    seat: int
    turns: int


class LostTurn(Event, tag="lost_turn"):
    seat: int
    left: int


class LeftRest(Event, tag="left_rest"):
    seat: int


# -- jail -----------------------------------------------------------------------------------------
class SentToJail(Event, tag="sent_to_jail"):
    seat: int


class JailStay(Event, tag="jail_stay"):
    seat: int
    turns: int


class LeftJail(Event, tag="left_jail"):
    seat: int
    how: JailExit


# -- titles, rents, buildings ---------------------------------------------------------------------
class MayBuy(Event, tag="may_buy"):
    seat: int
    square: int
    price: int


class Declined(Event, tag="declined"):
    seat: int
    square: int


class NoRentMortgaged(Event, tag="no_rent_mortgaged"):
    seat: int
    square: int


class NoRentInJail(Event, tag="no_rent_in_jail"):
    seat: int
    square: int
    owner: int | None = None  # from rulebook 1


class Built(Event, tag="built"):
    seat: int
    square: int
    level: int


class SoldBuilding(Event, tag="sold_building"):
    seat: int
    square: int
    level: int


class TitleToBank(Event, tag="title_to_bank"):
    seat: int
    square: int


class KeptMortgaged(Event, tag="kept_mortgaged"):
    seat: int


class MayLift(Event, tag="may_lift"):
    seat: int


class LoanRepaid(Event, tag="loan_repaid"):
    block: str


class LoanSeized(Event, tag="loan_seized"):
    block: str
    buildings: int


# -- auctions -------------------------------------------------------------------------------------
class AuctionOpened(Event, tag="auction_opened"):
    item: Item
    square: int
    shortage: int | None = None  # a building auction: the buildings the bank has left


class Bid(Event, tag="bid"):
    seat: int
    amount: int
    item: Item
    square: int


class PassedBid(Event, tag="passed_bid"):
    seat: int


class AuctionWon(Event, tag="auction_won"):
    seat: int
    item: Item
    square: int
    amount: int


class AuctionUnsold(Event, tag="auction_unsold"):
    item: Item
    square: int


# -- money ----------------------------------------------------------------------------------------
class Transfer(Event, tag="transfer"):
    payer: int = msgspec.field(name="from")
    payee: int = msgspec.field(name="to")
    amount: int
    reason: Reason
    # What the money is for, where there is one.
    square: int | None = None
    card: str | None = None
    block: str | None = None


class DebtOwed(Event, tag="debt"):
    seat: int
    creditor: int
    amount: int
    reason: Reason


class DebtPaid(Event, tag="debt_paid"):
    seat: int


class Bankrupt(Event, tag="bankrupt"):
    seat: int
    creditor: int


class Withdrew(Event, tag="withdrew"):
    seat: int


class SeatTaken(Event, tag="seat_taken"):
    """A person sat down in the computer's seat `seat`, called `was` (the state's name for it, which stays)."""

    seat: int
    was: str


class SeatLeft(Event, tag="seat_left"):
    """The person playing `seat` left it to a computer."""

    seat: int


class TakenBack(Event, tag="taken_back"):
    """A seat took back its last `count` moves (their kinds, oldest first), with everyone's consent."""

    seat: int
    count: int
    kinds: list[str]


# -- trades ---------------------------------------------------------------------------------------
class TradeProposed(Event, tag="trade_proposed"):
    seat: int
    target: int


class TradeDone(Event, tag="trade_done"):
    seat: int
    target: int
    # What changed hands (from rulebook 1): `give` from the proposer `seat`, `take` from the `target`.
    give: Offer | None = None
    take: Offer | None = None


class TradeRejected(Event, tag="trade_rejected"):
    seat: int


class TradeCancelled(Event, tag="trade_cancelled"):
    seat: int  # -1: cancelled by the time limit


ANY_EVENT = (
    GameStarted | OrderRoll | OrderDecided | OrderShuffled | TurnStarted | TimeUp | GameOver
    | Rolled | ThreeDoubles | Moved | RolledForRent | CardDrawn | Customs | CustomsRoll | JoinedClub | Resting
    | LostTurn | LeftRest | SentToJail | JailStay | LeftJail
    | MayBuy | Declined | NoRentMortgaged | NoRentInJail | Built | SoldBuilding | TitleToBank | KeptMortgaged
    | MayLift | LoanRepaid | LoanSeized
    | AuctionOpened | Bid | PassedBid | AuctionWon | AuctionUnsold
    | Transfer | DebtOwed | DebtPaid | Bankrupt | Withdrew | TakenBack | SeatTaken | SeatLeft
    | TradeProposed | TradeDone | TradeRejected | TradeCancelled
)
# Every event code, and the struct of its fields.
CODES: dict[str, type[Event]] = {kind.__struct_config__.tag: kind for kind in get_args(ANY_EVENT)}  # type: ignore[misc]


def typed(event: dict) -> Event:
    """`event` as its struct; raises msgspec.ValidationError for an unknown code, a missing or unknown field,
    or a value of the wrong type."""
    return msgspec.convert(event, ANY_EVENT)  # type: ignore[arg-type]

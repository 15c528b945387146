"""The game state: plain data that holds everything, round-trips through JSON and replays exactly."""

from __future__ import annotations

from typing import Final

import msgspec

from engine.actions import Trade

BANK: Final = -1  # owner / payer / payee: the bank
POT: Final = -2  # payee: the free-parking pot (house rule)
HOTEL: Final = 5  # building level of a hotel; 1..4 are restaurants / houses


class Settings(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True, cache_hash=True):
    """Variants of the seeds and house rules chosen in the lobby; None means "as the edition says"."""

    time_limit: int = 0  # minutes; 0 is the long game. The bot sends `time_up` when it is reached.
    deal_titles: int = 0  # titles dealt (and paid) to each seat at the start: the time-limit variant of 001
    end_at_bankruptcy: int = 0  # 2: the game ends at the second bankruptcy, ranked by net worth
    staggered_start: bool = False  # each seat starts on a different corner
    auction_only: bool = False  # nobody buys by landing: every unowned title goes to auction
    auction_on_decline: bool | None = None  # off: a declined title simply stays with the bank
    free_parking_pot: bool = False  # taxes and fines go to a pot that the rest corner collects
    no_rent_in_jail: bool = False  # an owner in jail collects nothing
    start_cash: int = 0  # 0: the edition's
    random_order: bool = False  # turn order shuffled instead of the die roll
    double_rent_with_mortgaged: bool | None = None
    trading_window: bool | None = None
    club_loans: bool | None = None
    doubles_roll_again: bool | None = None
    three_doubles_jail: bool | None = None
    mortgage_interest: bool | None = None
    even_building: bool | None = None
    max_turns: int = 0  # the game ends by net worth after this many turns (0: no cap)
    # The reading of the rule texts the game began under (engine.rulebook); 0: a game stored before there was one.
    rulebook: int = 0


class Seat(msgspec.Struct, kw_only=True, omit_defaults=True):
    name: str
    cash: int
    pos: int = 0
    jailed: bool = False
    jail_turns: int = 0  # failed turns in jail so far
    lost_turns: int = 0  # turns still to lose (Oceanía in `mundial`)
    jail_cards: list[str] = []
    out: bool = False  # bankrupt or withdrawn
    computer: str = ""  # "" for a person, else the level of the computer player
    club: bool = False  # member of Club Tarjeta Platino
    offered_turn: int = 0  # the turn of this seat's last trade proposal (computers propose once a turn)


class Auction(msgspec.Struct, kw_only=True, omit_defaults=True):
    item: str  # "title", "house" or "hotel"
    square: int  # the title; for buildings, the square the requester asked for
    active: list[int]  # seats still bidding
    bid: int = 0
    bidder: int = -1
    minimum: int = 1
    requester: int = -1  # building auctions: who asked to build
    bids: list[tuple[int, int]] = []  # (seat, amount), rising: a leaving seat's bids are struck out


class Debt(msgspec.Struct, kw_only=True, omit_defaults=True):
    debtor: int
    creditor: int  # a seat or BANK / POT
    amount: int
    reason: str
    square: int = -1  # the square the debt arose on (rent, tax…), for the transfer that settles it


class Lift(msgspec.Struct, kw_only=True):
    """A creditor who just received mortgaged titles in a bankruptcy and paid their 10 % decides at once which to
    lift for the mortgage alone (rules 000 §12); the others keep their mortgage, to be lifted later at +10 %."""

    seat: int
    squares: list[int]


class Loan(msgspec.Struct, kw_only=True):
    block: str
    balance: int
    landings: int  # landings on the block still to repay the loan from their rent


class Standing(msgspec.Struct, kw_only=True):
    seat: int
    rank: int
    net_worth: int
    cash: int
    titles: int
    buildings: int
    out: bool


class State(msgspec.Struct, kw_only=True, omit_defaults=True):
    edition: str
    seed: int
    seats: list[Seat]
    order: list[int]  # seats in playing order
    owner: list[int]  # per square: a seat or BANK
    level: list[int]  # per square: 0..4 buildings, 5 hotel
    mortgaged: list[bool]
    decks: dict[str, list[str]]  # card ids, top first
    bank_houses: int
    bank_hotels: int
    settings: Settings = Settings()
    draws: int = 0  # random numbers used so far
    version: int = 0
    current: int = 0
    phase: str = "roll"  # roll, buy, customs, end, next, over
    doubles: int = 0
    dice: list[int] = []
    rigged_dice: list[int] = []  # tests: values used before the generator
    interest_paid: list[int] = []  # squares whose 10 % was just paid by a receiver, this turn only
    auction: Auction | None = None
    lift: Lift | None = None  # a creditor's decision to lift inherited mortgages, before play goes on
    auction_queue: list[int] = []  # titles the bank must auction (bankruptcy to the bank)
    debts: list[Debt] = []
    trade: Trade | None = None
    loans: list[Loan] = []
    pot: int = 0
    turn: int = 1
    ending: bool = False  # time is up: the game ends when the turn in progress does
    bankruptcies: int = 0
    eliminated: list[int] = []  # seats out of the game, in the order they left
    winner: int = -1
    standings: list[Standing] = []

    def seat_to_act(self) -> list[int]:
        """The seats whose decision the game waits for now."""
        if self.phase == "over":
            return []
        if self.debts:
            return [self.debts[0].debtor]
        if self.lift is not None:
            return [self.lift.seat]
        if self.auction is not None:
            return list(self.auction.active)
        return [self.current]


_encoder = msgspec.json.Encoder()
_decoder = msgspec.json.Decoder(State)


def to_json(state: State) -> bytes:
    return _encoder.encode(state)


def from_json(data: bytes | str) -> State:
    return _decoder.decode(data)


def clone(state: State) -> State:
    return _decoder.decode(_encoder.encode(state))

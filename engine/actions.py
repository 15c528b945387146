"""Actions a seat (or the bot, as seat -1) may send, and the error an illegal one raises."""

from __future__ import annotations

from typing import Final

import msgspec

SYSTEM: Final = -1  # actions sent by the bot itself: a quiet auction closing, the time limit

# Every action kind the engine knows.
KINDS = frozenset(
    {
        "roll",  # roll the dice: move, try a double in jail, or the customs roll
        "buy",
        "decline",  # the bank auctions the title
        "bid",  # `amount`: the new highest bid
        "pass_bid",  # leave the auction
        "close_auction",  # SYSTEM: the quiet period ended, the highest bid wins
        "build",  # one restaurant/house (or the hotel) on `square`, `count` times
        "sell",  # sell `count` buildings of `square` back to the bank
        "mortgage",
        "unmortgage",
        "sell_title",  # `mundial`: the bank buys the title back
        "take_loan",  # Club Tarjeta Platino construction loan for `block`
        "pay_fine",
        "use_card",
        "end_turn",
        "bankrupt",  # give up while in debt, when even selling everything cannot pay
        "keep_mortgaged",  # a creditor keeps the inherited mortgages not lifted yet (see State.lift)
        "title_to_bank",  # `monopolio`: a debtor hands a mortgaged title to the bank in payment
        "withdraw",  # leave the game voluntarily
        "propose_trade",
        "accept_trade",
        "reject_trade",
        "cancel_trade",
        "time_up",  # SYSTEM: the time limit was reached; the turn in progress completes
    }
)


class Offer(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    """One side's titles, cash and keep-to-leave-jail cards; a trade is what each side gives."""

    titles: tuple[int, ...] = ()
    cash: int = 0
    cards: tuple[str, ...] = ()


class Trade(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    proposer: int
    target: int
    give: Offer = Offer()  # from proposer to target
    take: Offer = Offer()  # from target to proposer


class Action(msgspec.Struct, frozen=True, kw_only=True, omit_defaults=True):
    kind: str
    seat: int = SYSTEM
    square: int = -1
    amount: int = 0
    count: int = 1
    block: str = ""
    trade: Trade | None = None


class IllegalAction(Exception):
    """Raised by `apply` for an action the rules forbid now; the state is left untouched.

    `code` is a catalogue id (`error.<code>`), `params` fill its text: never a sentence here.
    """

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params

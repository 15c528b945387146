"""Legality, kept apart from applying: why an action is refused now, and what a seat may do.

`refused` answers with an error code and its parameters (or None); `open_actions` lists concrete
actions built from the same checks, so the bot's buttons, the computer players and the fuzzers all agree
with `apply`.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Final

from engine import board
from engine.actions import SYSTEM, Action, IllegalAction, Offer, Trade
from engine.edition import TITLE_KINDS, Edition
from engine.state import BANK, HOTEL, State

Refusal = tuple[str, dict] | None

BASE_ACTIONS: Final = frozenset({"roll", "buy", "decline", "end_turn", "pay_fine", "use_card"})
ASSET_ACTIONS: Final = frozenset(
    {"build", "sell", "mortgage", "unmortgage", "sell_title", "take_loan", "title_to_bank"}
)


def _no(code: str, **params: object) -> Refusal:
    return code, params


def refused(st: State, ed: Edition, a: Action) -> Refusal:
    """Why `a` is illegal in `st`, or None if `apply` would accept it."""
    if st.phase == "over":
        return _no("game_over")
    kind = a.kind
    if kind in ("time_up", "close_auction"):
        if a.seat != SYSTEM:
            return _no("system_only")
        if kind == "close_auction" and st.auction is None:
            return _no("no_auction")
        if kind == "time_up" and st.ending:
            return _no("already_ending")
        return None
    s = a.seat
    seats = st.seats
    if not 0 <= s < len(seats):
        return _no("not_a_seat")
    seat = seats[s]
    if seat.out:
        return _no("seat_out")
    if kind in BASE_ACTIONS:
        return _base_refusal(st, ed, a)
    if kind in ASSET_ACTIONS:
        return _asset_refusal(st, ed, a)
    if kind in ("bid", "pass_bid"):
        return _auction_refusal(st, a)
    if kind == "bankrupt":
        return _bankrupt_refusal(st, ed, s)
    if kind == "keep_mortgaged":
        if st.lift is None or st.lift.seat != s:
            return _no("nothing_to_lift")
        return _no("debt_pending") if st.debts else None
    if kind == "withdraw":
        if not ed.rules.withdrawal:
            return _no("withdrawal_not_allowed")
        if any(d.debtor == s for d in st.debts):
            return _no("in_debt")
        return None
    if kind in ("propose_trade", "accept_trade", "reject_trade", "cancel_trade"):
        return _trade_refusal(st, ed, a)
    return _no("unknown_action", kind=kind)


def _bankrupt_refusal(st: State, ed: Edition, seat: int) -> Refusal:
    if not st.debts or st.debts[0].debtor != seat:
        return _no("not_in_debt")
    if board.rules(st, ed).bankruptcy_last_resort:
        # Rules 000 §12, 001, 002: bankrupt is who cannot gather the sum even selling and mortgaging everything.
        owed = sum(d.amount for d in st.debts if d.debtor == seat)
        short = owed - st.seats[seat].cash
        raisable = board.raisable(st, seat)
        if raisable >= short:
            return _no("debt_can_be_raised", amount=raisable)
    return None


def _base_refusal(st: State, ed: Edition, a: Action) -> Refusal:
    s = a.seat
    if s != st.current:
        return _no("not_your_turn")
    if st.debts:
        return _no("debt_pending")
    if st.lift is not None:
        return _no("lift_pending")
    if st.auction is not None:
        return _no("auction_pending")
    seat = st.seats[s]
    kind, phase = a.kind, st.phase
    if kind == "roll":
        return None if phase in ("roll", "customs") else _no("cannot_roll")
    if kind in ("buy", "decline"):
        if phase != "buy":
            return _no("nothing_to_buy")
        if kind == "buy" and seat.cash < ed.squares[seat.pos].price:
            return _no("not_enough_cash", amount=ed.squares[seat.pos].price)
        return None
    if kind == "end_turn":
        return None if phase == "end" else _no("cannot_end_turn")
    # pay_fine / use_card: leave jail at the start of a turn in jail.
    if not seat.jailed:
        return _no("not_in_jail")
    if phase != "roll":
        return _no("not_now")
    if kind == "pay_fine":
        fine = ed.economy.jail_fine
        return None if seat.cash >= fine else _no("not_enough_cash", amount=fine)
    return None if seat.jail_cards else _no("no_jail_card")


def _asset_refusal(st: State, ed: Edition, a: Action) -> Refusal:
    # The action's fields read once: compiled, each read of a struct's field is a lookup.
    kind, s, square, count = a.kind, a.seat, a.square, a.count
    debts = st.debts
    in_debt = bool(debts) and any(d.debtor == s for d in debts)
    seat = st.seats[s]
    if kind == "take_loan":
        return _loan_refusal(st, ed, a, in_debt)
    if kind == "title_to_bank" and not board.rules(st, ed).mortgaged_title_to_bank:
        return _no("bank_takes_no_titles")
    if not 0 <= square < board.BOARD_SIZE:
        return _no("not_a_title")
    sq = ed.squares[square]
    if sq.kind not in TITLE_KINDS:
        return _no("not_a_title")
    if st.owner[square] != s:
        return _no("not_owner", square=square)
    if count < 1 or count > HOTEL:
        return _no("bad_count")
    if kind == "build":
        if in_debt:
            return _no("in_debt")
        if st.auction is not None:
            # Building now would bypass the shortage auction or take the building it is selling.
            return _no("auction_pending")
        why = board.build_blocker(st, ed, s, square)
        if why:
            return _no(why, square=square)
        level = st.level[square]
        cost = board.building_cost(sq, level + 1)
        if seat.cash < cost:
            return _no("not_enough_cash", amount=cost)
        if level + 1 == HOTEL and st.bank_hotels < 1:
            return _no("no_hotels_left")
        if level + 1 < HOTEL and st.bank_houses < 1:
            return _no("no_houses_left")
        if count > 1 and count > len(build_plan(st, ed, s, square, count)):
            return _no("cannot_build_that_many", square=square)
        return None
    if kind == "sell":
        why = board.sell_blocker(st, ed, s, square)
        if why:
            return _no(why, square=square)
        if count > st.level[square]:
            return _no("cannot_sell_that_many", square=square)
        return None
    if kind == "mortgage":
        if st.mortgaged[square]:
            return _no("already_mortgaged", square=square)
        if board.mortgage_blocked(st, ed, square):
            bare_block = board.rules(st, ed).mortgage_bare_block
            return _no("sell_buildings_first" if bare_block else "has_buildings", square=square)
        return None
    if kind == "title_to_bank":
        if not in_debt:
            return _no("not_in_debt")
        return None if st.mortgaged[square] else _no("not_mortgaged", square=square)
    if kind == "unmortgage":
        if in_debt:
            return _no("in_debt")
        if not st.mortgaged[square]:
            return _no("not_mortgaged", square=square)
        cost = unmortgage_cost(st, square)
        return None if seat.cash >= cost else _no("not_enough_cash", amount=cost)
    # sell_title
    if not ed.rules.bank_buys_titles:
        return _no("bank_does_not_buy")
    if board.block_has_buildings(st, ed, square):
        return _no("sell_buildings_first", square=square)
    return None


def _loan_refusal(st: State, ed: Edition, a: Action, in_debt: bool) -> Refusal:
    if not board.club_loans(st, ed):
        return _no("loans_off")
    if not st.seats[a.seat].club:
        return _no("not_a_member")
    if a.block not in ed.economy.club_loans or a.block not in board.blocks(ed):
        return _no("no_loan_for_block")
    if not board.owns_block(st, ed, a.seat, a.block):
        return _no("loan_needs_block", block=a.block)
    if any(ln.block == a.block for ln in st.loans):
        return _no("loan_exists", block=a.block)
    if in_debt:
        return _no("in_debt")
    return None


def unmortgage_cost(st: State, square: int) -> int:
    """What lifting the mortgage of `square` costs: the mortgage, plus its 10 % unless the owner just paid that
    on receiving the title."""
    mortgage = board.layout(st.edition).mortgage[square]
    lift = st.lift
    if square in st.interest_paid or (lift is not None and square in lift.squares and st.owner[square] == lift.seat):
        return mortgage
    return mortgage + board.interest_due(st, square)


def build_plan(st: State, ed: Edition, seat: int, square: int, count: int) -> list[int]:
    """The squares of `square`'s block that `count` even builds starting on `square` would use."""
    squares = ed.squares
    block = board.blocks(ed)[squares[square].block]
    level = st.level
    # The block's levels as the builds go on, in the block's order (a list: the commonest check of a build).
    levels = [level[j] for j in block]
    even = board.rules(st, ed).even_building
    cash = st.seats[seat].cash
    houses, hotels = st.bank_houses, st.bank_hotels
    plan: list[int] = []
    asked = block.index(square)
    k = asked
    for _ in range(count):
        lvl = levels[k]
        if lvl >= HOTEL or (even and lvl > _lowest(levels)):
            break
        target = block[k]
        sq = squares[target]
        cost = sq.hotel_cost if lvl + 1 == HOTEL else sq.house_cost  # board.building_cost
        if cash < cost:
            break
        if lvl + 1 == HOTEL:
            if hotels < 1:
                break
            hotels -= 1
            houses += 4
        else:
            if houses < 1:
                break
            houses -= 1
        cash -= cost
        levels[k] = lvl + 1
        plan.append(target)
        if even:
            # Later builds go where the block is lowest, the asked square first.
            low = _lowest(levels)
            k = asked if levels[asked] == low else levels.index(low)
    return plan


def _lowest(levels: list[int]) -> int:
    # A plain loop: compiled, min() over a list is a call into Python.
    low = levels[0]
    for lv in levels:
        if lv < low:
            low = lv
    return low


def _auction_refusal(st: State, a: Action) -> Refusal:
    au = st.auction
    if au is None:
        return _no("no_auction")
    if st.debts:
        return _no("debt_pending")
    if st.lift is not None:
        return _no("lift_pending")
    s = a.seat
    if s not in au.active:
        return _no("not_in_auction")
    if a.kind == "pass_bid":
        return _no("highest_bidder_cannot_pass") if s == au.bidder else None
    lowest = max(au.bid + 1, au.minimum)
    amount = a.amount
    if amount < lowest:
        return _no("bid_too_low", amount=lowest)
    if amount > st.seats[s].cash:
        return _no("not_enough_cash", amount=amount)
    return None


def _trade_refusal(st: State, ed: Edition, a: Action) -> Refusal:
    if a.kind == "propose_trade":
        if st.trade is not None:
            return _no("trade_open")
        t = a.trade
        if t is None or t.proposer != a.seat:
            return _no("bad_trade")
        return trade_refused(st, ed, t)
    t = st.trade
    if t is None:
        return _no("no_trade")
    if a.kind == "cancel_trade":
        return None if a.seat == t.proposer else _no("not_your_trade")
    if a.seat != t.target:
        return _no("not_your_trade")
    if a.kind == "reject_trade":
        return None
    return trade_refused(st, ed, t)


def trade_refused(st: State, ed: Edition, t: Trade) -> Refusal:
    """Whether the trade `t` could be carried out now."""
    if st.ending:
        return _no("no_trades_after_time")
    if t.proposer == t.target or not 0 <= t.target < len(st.seats) or st.seats[t.target].out:
        return _no("bad_trade_partner")
    gives, takes = _gives_something(t.give), _gives_something(t.take)
    if not (gives or takes):
        return _no("empty_trade")
    if board.rules(st, ed).no_lending:
        # Rules 000 and 001: no seat lends to or borrows from another, so no gifts and no cash for cash.
        if not (gives and takes):
            return _no("trade_is_a_gift")
        if not (t.give.titles or t.give.cards or t.take.titles or t.take.cards):
            return _no("trade_is_a_loan")
    why = window_refused(st, ed, t.proposer)
    if why is not None:
        return why
    for side, offer in ((t.proposer, t.give), (t.target, t.take)):
        if offer.cash < 0:
            return _no("bad_amount")
        if st.seats[side].cash < offer.cash:
            return _no("not_enough_cash", amount=offer.cash)
        if len(set(offer.titles)) != len(offer.titles):
            return _no("bad_trade")
        for sq in offer.titles:
            if not 0 <= sq < board.BOARD_SIZE or st.owner[sq] != side:
                return _no("not_owner", square=sq)
            if board.block_has_buildings(st, ed, sq):
                return _no("sell_buildings_first", square=sq)
        held = list(st.seats[side].jail_cards)
        for card in offer.cards:
            if card not in held:
                return _no("no_jail_card")
            held.remove(card)
    if not board.rules(st, ed).interest_on_transfer:
        return None
    # Rules 001: each side must be able to pay the 10 % on the mortgaged titles it receives, at once.
    for side, gets, pays in ((t.proposer, t.take, t.give), (t.target, t.give, t.take)):
        due = sum(board.interest_due(st, sq) for sq in gets.titles if st.mortgaged[sq])
        if st.seats[side].cash - pays.cash + gets.cash < due:
            return _no("cannot_pay_interest", amount=due)
    return None


def window_refused(st: State, ed: Edition, seat: int) -> Refusal:
    """Why `seat` may propose no trade at all now, whatever it would contain: time is up, or (rules 002)
    it is not its turn or the trading window is still closed."""
    if st.ending:
        return _no("no_trades_after_time")
    if board.trading_window(st, ed):
        if st.current != seat:
            return _no("trade_only_on_your_turn")
        if not _window_open(st, ed):
            return _no("trade_window_closed")
    return None


def _gives_something(offer: Offer) -> bool:
    return bool(offer.titles or offer.cash or offer.cards)


def _window_open(st: State, ed: Edition) -> bool:
    """Rules 002: trading opens once every title is sold and nobody holds a whole block."""
    owner = st.owner
    for sq in ed.squares:
        if owner[sq.index] == BANK and sq.kind in TITLE_KINDS:
            return False
    # Every title is held by a seat now: a block is whole when one seat holds all of it.
    for members in board.blocks(ed).values():
        first = owner[members[0]]
        for j in members:
            if owner[j] != first:
                break
        else:
            return False
    return True


def window_allows(st: State, ed: Edition, seat: int) -> bool:
    """Whether the trading window (rules 002) lets `seat` propose a trade now; always without that rule."""
    return not board.trading_window(st, ed) or (seat == st.current and _window_open(st, ed))


def check(st: State, ed: Edition, a: Action) -> None:
    why = refused(st, ed, a)
    if why is not None:
        raise IllegalAction(why[0], **why[1])


def open_actions(st: State, ed: Edition, seat: int) -> list[Action]:
    """Every concrete action `seat` may send now, kind by kind (in `CANDIDATE_KINDS` order, then the open-ended
    ones). Trade proposals and bids are open-ended: one `propose_trade` template (trade=None) says a proposal
    is possible, and bids are listed at the edition's steps above the current bid."""
    if st.phase == "over" or not 0 <= seat < len(st.seats) or st.seats[seat].out:
        return []
    titles = board.titles_of(st, seat)
    candidates = [a for kind in _kinds_to_try(st, ed, seat, titles) for a in _candidates(st, ed, seat, kind, titles)]
    return [a for a in candidates if refused(st, ed, a) is None] + _open_ended(st, ed, seat)


def open_kinds(st: State, ed: Edition, seat: int, skip: frozenset[str] = frozenset()) -> set[str]:
    """The kinds of `open_actions(st, ed, seat)`, each found with its first accepted action: what a table's
    buttons need, at a fraction of the cost of listing every title's every action. Kinds in `skip` (known
    to be open to another seat already, say) are neither looked for nor listed."""
    if st.phase == "over" or not 0 <= seat < len(st.seats) or st.seats[seat].out:
        return set()
    titles = board.titles_of(st, seat)
    kinds: set[str] = set()
    for kind in _kinds_to_try(st, ed, seat, titles):
        if kind in skip:
            continue
        for a in _candidates(st, ed, seat, kind, titles):
            if refused(st, ed, a) is None:
                kinds.add(kind)
                break
    return kinds | {a.kind for a in _open_ended(st, ed, seat) if a.kind not in skip}


# The kinds of concrete actions, in the order `open_actions` lists them.
CANDIDATE_KINDS: Final = (
    "bankrupt", "keep_mortgaged", "bid", "pass_bid", "roll", "buy", "decline", "end_turn", "pay_fine", "use_card",
    "build", "sell", "mortgage", "unmortgage", "sell_title", "title_to_bank", "take_loan",
    "accept_trade", "reject_trade", "cancel_trade",
)  # fmt: skip
_TURN_KINDS: Final = ("roll", "buy", "decline", "end_turn", "pay_fine", "use_card")
_TITLE_KINDS: Final = ("build", "sell", "mortgage", "unmortgage")


def _kinds_to_try(st: State, ed: Edition, seat: int, titles: list[int]) -> list[str]:
    """The kinds `seat` might have an action of now, in `CANDIDATE_KINDS` order: those of a pending debt,
    lift, auction and trade offer that concern the seat, of its turn, of its titles, of the club's loans."""
    kinds: list[str] = []
    debts = st.debts
    if debts and debts[0].debtor == seat:
        kinds.append("bankrupt")
    if st.lift is not None and st.lift.seat == seat:
        kinds.append("keep_mortgaged")
    if st.auction is not None and seat in st.auction.active:
        kinds += ("bid", "pass_bid")
    if seat == st.current:
        kinds += _TURN_KINDS
    rules = board.rules(st, ed)
    if titles:
        kinds += _TITLE_KINDS
        if rules.bank_buys_titles:
            kinds.append("sell_title")
        if rules.mortgaged_title_to_bank and debts and any(d.debtor == seat for d in debts):
            kinds.append("title_to_bank")
    if rules.club_loans and st.seats[seat].club:
        kinds.append("take_loan")
    trade = st.trade
    if trade is not None:
        if trade.target == seat:
            kinds += ("accept_trade", "reject_trade")
        if trade.proposer == seat:
            kinds.append("cancel_trade")
    return kinds


def _candidates(st: State, ed: Edition, seat: int, kind: str, titles: list[int]) -> Iterable[Action]:
    """The actions of `kind` (one `_kinds_to_try` gave) that `seat` might send, before the rules are asked about
    each; `titles`: the seat's titles."""
    if kind in _MANY_KINDS:
        return _many(st, ed, seat, kind, titles)
    return (Action(kind=kind, seat=seat),)


_MANY_KINDS: Final = frozenset(
    {"build", "sell", "mortgage", "unmortgage", "title_to_bank", "sell_title", "take_loan", "bid"}
)


def _many(st: State, ed: Edition, seat: int, kind: str, titles: list[int]) -> Iterator[Action]:
    """`_candidates` of a kind a seat may have several actions of, made one at a time: a caller looking for the
    first one the rules accept makes no more. What a title's own state rules out (building where the block
    is not all the seat's, selling where nothing stands, lifting a mortgage there is not) is left out: the
    rules would refuse it, and a table asks this for every seat after every move."""
    if kind == "build":
        squares, owner, mortgaged = ed.squares, st.owner, st.mortgaged
        blocks = board.blocks(ed)
        for i in titles:
            sq = squares[i]
            if sq.kind == "country" and not mortgaged[i] and all(owner[j] == seat for j in blocks[sq.block]):
                yield Action(kind="build", seat=seat, square=i)
    elif kind == "sell":
        level = st.level
        for i in titles:
            if level[i]:  # only countries are built on
                yield Action(kind="sell", seat=seat, square=i)
    elif kind == "mortgage" or kind == "unmortgage" or kind == "title_to_bank":
        mortgaged = st.mortgaged
        wanted = kind != "mortgage"  # a mortgage is lifted, or a mortgaged title handed over
        for i in titles:
            if mortgaged[i] == wanted:
                yield Action(kind=kind, seat=seat, square=i)
    elif kind == "sell_title":
        for i in titles:
            yield Action(kind="sell_title", seat=seat, square=i)
    elif kind == "take_loan":
        for block in ed.economy.club_loans:
            yield Action(kind="take_loan", seat=seat, block=block)
    else:  # bid
        au = st.auction
        assert au is not None
        base = max(au.bid, au.minimum - 1)
        for step in ed.economy.bid_steps:
            yield Action(kind="bid", seat=seat, amount=base + step)


def _open_ended(st: State, ed: Edition, seat: int) -> list[Action]:
    """The templates of actions whose details the player chooses (a trade proposal) or that are always open."""
    out: list[Action] = []
    if st.trade is None and not st.ending and window_allows(st, ed, seat):
        out.append(Action(kind="propose_trade", seat=seat))
    if ed.rules.withdrawal and not any(d.debtor == seat for d in st.debts):
        out.append(Action(kind="withdraw", seat=seat))
    return out

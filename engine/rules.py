"""Applying actions: the turn state machine, money, movement, cards, auctions, debts and bankruptcy.

Every change of cash is a `transfer` event (from/to a seat, the bank or the pot), so money is auditable.
`apply_inplace` checks legality first (`engine.legal`) and only then mutates; `apply` works on a copy.
"""

from __future__ import annotations

from typing import Final

import msgspec

from engine import board, rng
from engine.actions import Action, IllegalAction, Trade
from engine.edition import TITLE_KINDS, Edition, load
from engine.legal import build_plan, check, unmortgage_cost
from engine.rulebook import in_force, settle
from engine.state import BANK, HOTEL, POT, Auction, Debt, Lift, Loan, Seat, Settings, Standing, State, clone

# An event as `apply` returns it and the bot stores it: a JSON object, its code and fields declared in
# engine.events.
Event = dict


class Game:
    """One application of an action: the state being changed, its edition and the events produced."""

    __slots__ = ("st", "ed", "ev", "rules", "told_in_full", "quiet", "max_turns")

    def __init__(self, st: State, ed: Edition, quiet: bool = False) -> None:
        self.st = st
        self.ed = ed
        self.ev: list[Event] = []
        # A quiet application (the simulator's) tells only how the game ended: the other events are not built.
        self.quiet = quiet
        settings = st.settings
        self.rules = in_force(ed.id, settings)
        # A game stored before rulebook 1 replays into the events it logged then: a bankruptcy, a withdrawal
        # and a settled trade told after what they move, without the trade's contents or the jailed owner.
        self.told_in_full = settings.rulebook > 0
        self.max_turns = settings.max_turns

    def emit(self, code: str, **params: object) -> None:
        """Log the event `code` (one of engine.events.CODES) with its fields."""
        if self.quiet and code != "game_over":
            return
        params["code"] = code
        self.ev.append(params)

    # -- randomness -------------------------------------------------------------------------------
    def die(self) -> int:
        st = self.st
        if st.rigged_dice:
            return st.rigged_dice.pop(0)
        n = st.draws
        st.draws = n + 1
        return rng.below(st.seed, n, 6) + 1

    def dice(self) -> tuple[int, int]:
        """Two dice, as two calls of `die` would draw them."""
        st = self.st
        if st.rigged_dice:
            return self.die(), self.die()
        n = st.draws
        st.draws = n + 2
        seed = st.seed
        return rng.below(seed, n, 6) + 1, rng.below(seed, n + 1, 6) + 1

    # -- money ------------------------------------------------------------------------------------
    def transfer(self, frm: int, to: int, amount: int, reason: str, **extra: object) -> None:
        if amount <= 0:
            return
        st = self.st
        if frm >= 0:
            payer = st.seats[frm]
            payer.cash = payer.cash - amount
        elif frm == POT:
            st.pot -= amount
        if to >= 0:
            payee = st.seats[to]
            payee.cash = payee.cash + amount
        elif to == POT:
            st.pot += amount
        if not self.quiet:
            self.ev.append({"from": frm, "to": to, "amount": amount, "reason": reason, **extra, "code": "transfer"})

    def charge(self, debtor: int, creditor: int, amount: int, reason: str, **extra: object) -> None:
        """`debtor` owes `amount`: paid at once if the cash is there, otherwise a debt to settle."""
        if amount <= 0:
            return
        st = self.st
        if creditor == BANK and st.settings.free_parking_pot and reason in POT_REASONS:
            creditor = POT
        if st.seats[debtor].cash >= amount and (not st.debts or not any(d.debtor == debtor for d in st.debts)):
            if self.quiet:
                self.transfer(debtor, creditor, amount, reason)  # no event: the details are not needed
            else:
                self.transfer(debtor, creditor, amount, reason, **extra)
            return
        square = extra.get("square")
        st.debts.append(
            Debt(
                debtor=debtor,
                creditor=creditor,
                amount=amount,
                reason=reason,
                square=square if isinstance(square, int) else -1,
            )
        )
        self.emit("debt", seat=debtor, creditor=creditor, amount=amount, reason=reason)


POT_REASONS: Final = frozenset({"tax", "fine", "card", "customs", "club_fee", "club_membership", "repairs"})


# -- setup ------------------------------------------------------------------------------------------
def new_game(
    edition_id: str,
    names: list[str],
    seed: int,
    settings: Settings | None = None,
    computers: list[str] | None = None,
) -> tuple[State, list[Event]]:
    """A game ready for its first roll: seats, cash, shuffled decks and the playing order."""
    try:
        ed = load(edition_id)
    except KeyError:
        raise IllegalAction("unknown_edition", edition=edition_id) from None
    if not 2 <= len(names) <= 6:
        raise IllegalAction("bad_seat_count", count=len(names))
    if not -(1 << 63) <= seed < 1 << 63:
        raise IllegalAction("bad_seed")  # the dice work on 64-bit words, and the store keeps seeds in one
    s = settle(ed, settings or Settings())
    titles = sum(1 for sq in ed.squares if sq.kind in TITLE_KINDS)
    if s.deal_titles < 0 or s.deal_titles * len(names) > titles:
        raise IllegalAction("too_many_titles", count=titles // len(names))
    cash = s.start_cash or ed.economy.start_cash
    comps = computers or [""] * len(names)
    seats = [Seat(name=n, cash=cash, computer=c) for n, c in zip(names, comps, strict=True)]
    n_sq = len(ed.squares)
    st = State(
        edition=ed.id,
        seed=seed,
        seats=seats,
        order=list(range(len(names))),
        owner=[BANK] * n_sq,
        level=[0] * n_sq,
        mortgaged=[False] * n_sq,
        decks={},
        bank_houses=ed.economy.houses,
        bank_hotels=ed.economy.hotels,
        settings=s,
    )
    g = Game(st, ed)
    for deck in ed.decks:
        order, st.draws = rng.shuffled(seed, st.draws, [c.id for c in deck.cards])
        st.decks[deck.id] = order
    g.emit("game_started", edition=ed.id, seats=len(names))
    _decide_order(g)
    if s.staggered_start:
        # Rules 001: each seat on a different corner; standing on a go-to-jail corner is no punishment.
        corners = [sq.index for sq in ed.squares if sq.index % 10 == 0]
        for i, seat in enumerate(st.order):
            st.seats[seat].pos = corners[i % len(corners)]
    if s.deal_titles:
        _deal_titles(g, s.deal_titles)
    st.current = st.order[0]
    g.emit("turn_started", seat=st.current, turn=st.turn)
    return st, g.ev


def _decide_order(g: Game) -> None:
    """Each seat rolls one die, the highest starts (ties roll again) and play goes on to the left."""
    st = g.st
    n = len(st.seats)
    if st.settings.random_order:
        st.order, st.draws = rng.shuffled(st.seed, st.draws, list(range(n)))
        g.emit("order_shuffled", order=list(st.order))
        return
    contenders = list(range(n))
    while len(contenders) > 1:
        rolls = {s: g.die() for s in contenders}
        for s, v in rolls.items():
            g.emit("order_roll", seat=s, value=v)
        top = max(rolls.values())
        contenders = [s for s in contenders if rolls[s] == top]
    first = contenders[0]
    st.order = [(first + i) % n for i in range(n)]
    g.emit("order_decided", order=list(st.order))


def _deal_titles(g: Game, per_seat: int) -> None:
    """Time-limit variant (rules 001): the titles are shuffled, each seat is dealt some and pays their price."""
    st, ed = g.st, g.ed
    titles = [sq.index for sq in ed.squares if sq.kind in TITLE_KINDS]
    deck, st.draws = rng.shuffled(st.seed, st.draws, titles)
    for _ in range(per_seat):
        for seat in st.order:
            sq = deck.pop(0)
            # A seat that cannot pay for the card dealt to it (a low starting cash) leaves it with the bank.
            if st.seats[seat].cash >= ed.squares[sq].price:
                st.owner[sq] = seat
                g.transfer(seat, BANK, ed.squares[sq].price, "dealt_title", square=sq)


# -- the contract ---------------------------------------------------------------------------------
def apply_inplace(st: State, action: Action) -> list[Event]:
    """Check `action` and apply it to `st` itself (the simulator's fast path). Raises IllegalAction first."""
    ed = load(st.edition)
    check(st, ed, action)
    return _carry_out(st, ed, action)


def apply(st: State, action: Action) -> tuple[State, list[Event]]:
    """The new state and the events of `action`; `st` itself is never changed."""
    ed = load(st.edition)
    check(st, ed, action)  # before copying, so a refused action costs no copy
    new = clone(st)
    return new, _carry_out(new, ed, action)


def quiet_game(st: State) -> Game:
    """The simulator's way to apply actions to `st` (with `apply_quietly`): one `Game` for all of them, and
    of the events only how the game ended is told (the others are not even built)."""
    return Game(st, load(st.edition), True)


def apply_quietly(g: Game, action: Action, checked: bool = False) -> list[Event]:
    """`apply_inplace` for a game from `quiet_game`. `checked`: the caller has established that the action is
    legal now, so the rules do not check it again."""
    if not checked:
        check(g.st, g.ed, action)
    return _perform(g, action)


def _carry_out(st: State, ed: Edition, action: Action) -> list[Event]:
    """Apply an action already checked against `st`."""
    return _perform(Game(st, ed), action)


def _perform(g: Game, action: Action) -> list[Event]:
    kind = action.kind
    # The commonest moves are called directly: compiled, a call through the table goes through Python's
    # calling convention.
    if kind == "roll":
        _roll(g, action)
    elif kind == "end_turn":
        _end_turn(g, action)
    elif kind == "bid":
        _bid(g, action)
    elif kind == "pass_bid":
        _pass_bid(g, action)
    else:
        HANDLERS[kind](g, action)
        if g.st.lift is not None and g.rules.lift_follows_titles:
            _lift_only_held(g.st)  # a trade, a sale or a payment may have taken titles from the creditor
    _flow(g)
    st = g.st
    st.version = st.version + 1
    return g.ev


# -- the turn ---------------------------------------------------------------------------------------
def _next_phase(g: Game) -> str:
    """Where the turn goes once a landing is resolved: another roll after a double, else its end."""
    st = g.st
    return _phase_after(g, st.seats[st.current])


def _phase_after(g: Game, seat: Seat) -> str:
    """`_next_phase` for the current seat `seat`, already at hand."""
    if seat.out:
        return "next"
    if g.st.doubles and not seat.jailed and g.rules.doubles_roll_again:
        return "roll"
    return "end"


def _roll(g: Game, a: Action) -> None:
    st = g.st
    s = a.seat
    if st.phase == "customs":
        _customs_roll(g, s)
        return
    d1, d2 = g.dice()
    st.dice = [d1, d2]
    total, double = d1 + d2, d1 == d2
    seat = st.seats[s]
    if not g.quiet:
        g.emit("rolled", seat=s, dice=[d1, d2])
    if seat.lost_turns:
        # Oceanía (`mundial`): only a double on the first lost turn frees the seat.
        if double:
            seat.lost_turns = 0
            st.doubles = 0
            g.emit("left_rest", seat=s)
            _move_forward(g, s, total)
            _after_landing(g)
        else:
            seat.lost_turns -= 1
            g.emit("lost_turn", seat=s, left=seat.lost_turns)
            st.phase = "end"
        return
    if seat.jailed:
        _jail_roll(g, s, total, double)
        return
    if double and g.rules.doubles_roll_again:
        doubles = st.doubles + 1
        st.doubles = doubles
        if doubles == 3 and g.rules.three_doubles_jail:
            g.emit("three_doubles", seat=s)
            _go_to_jail(g, s)
            return
    else:
        st.doubles = 0
    _move_forward(g, s, total)
    if st.phase == "roll":  # _after_landing, inlined on the commonest path (only the current seat rolls)
        st.phase = _phase_after(g, seat)


def _after_landing(g: Game) -> None:
    if g.st.phase == "roll":
        g.st.phase = _next_phase(g)


def _jail_roll(g: Game, s: int, total: int, double: bool) -> None:
    st, ed = g.st, g.ed
    seat = st.seats[s]
    rules = ed.rules
    if double and rules.jail_doubles_release:
        _release(g, s, "doubles")
        st.doubles = 0  # leaving jail by a double gives no extra roll
        _move_forward(g, s, total)
        _after_landing(g)
        return
    seat.jail_turns += 1
    if seat.jail_turns < rules.jail_max_turns:
        g.emit("jail_stay", seat=s, turns=seat.jail_turns)
        st.phase = "end"
        return
    if rules.jail_forced_fine:
        # Third failed turn: the fine is paid (or owed) and the seat moves by this roll.
        _release(g, s, "forced_fine")
        g.charge(s, BANK, ed.economy.jail_fine, "fine")
        st.doubles = 0
        _move_forward(g, s, total)
        _after_landing(g)
    else:
        _release(g, s, "served")
        st.phase = "end"


def _release(g: Game, s: int, how: str) -> None:
    seat = g.st.seats[s]
    seat.jailed = False
    seat.jail_turns = 0
    g.emit("left_jail", seat=s, how=how)


def _pay_fine(g: Game, a: Action) -> None:
    g.transfer(a.seat, POT if g.st.settings.free_parking_pot else BANK, g.ed.economy.jail_fine, "fine")
    _release(g, a.seat, "fine")


def _use_card(g: Game, a: Action) -> None:
    seat = g.st.seats[a.seat]
    card = seat.jail_cards.pop(0)
    _return_card(g, card)
    _release(g, a.seat, "card")


def _return_card(g: Game, card: str) -> None:
    for deck in g.ed.decks:
        if any(c.id == card for c in deck.cards):
            g.st.decks[deck.id].append(card)
            return


def _customs_roll(g: Game, s: int) -> None:
    st, ed = g.st, g.ed
    d1, d2 = g.dice()
    st.dice = [d1, d2]
    g.emit("customs_roll", seat=s, dice=[d1, d2])
    sq = ed.squares[st.seats[s].pos]
    st.phase = _next_phase(g)
    if d1 + d2 not in (6, 7, 8):
        g.charge(s, BANK, sq.amount, "customs")


def _end_turn(g: Game, a: Action) -> None:
    g.st.phase = "next"


def _start_next_turn(g: Game) -> None:
    st, ed = g.st, g.ed
    if st.ending:
        _finish(g, "time_limit")
        return
    # Each field read once: compiled, the state's fields are the costliest reads.
    max_turns = g.max_turns
    turn = st.turn
    if max_turns and turn >= max_turns:
        _finish(g, "turn_limit")
        return
    order, seats, current = st.order, st.seats, st.current
    n = len(order)
    i = order.index(current)
    for k in range(1, n + 1):
        nxt = order[(i + k) % n]
        if not seats[nxt].out:
            break
    if st.trade is not None and board.trading_window(st, ed):
        # Rules 002 trades happen on the proposer's own turn: an offer left open cannot be accepted any more.
        st.trade = None
        g.emit("trade_cancelled", seat=current)
    st.current = nxt
    turn += 1
    st.turn = turn
    st.doubles = 0
    if st.interest_paid:
        st.interest_paid = []
    st.phase = "roll"
    if not g.quiet:
        g.emit("turn_started", seat=nxt, turn=turn)
    seat = seats[nxt]
    lost = seat.lost_turns
    if lost and lost < _rest_turns(ed):
        seat.lost_turns = lost - 1
        g.emit("lost_turn", seat=nxt, left=lost - 1)
        st.phase = "end"


def _rest_turns(ed: Edition) -> int:
    return max((ed.squares[i].turns for i in board.squares_of_kind(ed, "lose_turns")), default=0)


# -- movement and landing --------------------------------------------------------------------------
def _move_forward(g: Game, s: int, steps: int) -> None:
    st, ed = g.st, g.ed
    seat = st.seats[s]
    start = seat.pos
    pos = (start + steps) % board.BOARD_SIZE
    seat.pos = pos
    if not g.quiet:
        g.emit("moved", seat=s, frm=start, to=pos)
    if start + steps >= board.BOARD_SIZE:
        g.transfer(BANK, s, ed.economy.salary, "salary")
    _land(g, s, pos=pos)


def _move_back(g: Game, s: int, steps: int) -> None:
    seat = g.st.seats[s]
    start = seat.pos
    seat.pos = (start - steps) % board.BOARD_SIZE
    g.emit("moved", seat=s, frm=start, to=seat.pos)
    _land(g, s)


def _go_to_jail(g: Game, s: int) -> None:
    st = g.st
    seat = st.seats[s]
    seat.pos = g.ed.rules.jail_square
    seat.jailed = True
    seat.jail_turns = 0
    st.doubles = 0
    g.emit("sent_to_jail", seat=s)
    if s == st.current:
        st.phase = "end"


def _land(g: Game, s: int, rent_factor: int = 1, card_amount: int = 0, pos: int = -1) -> None:
    """Seat `s` lands where it stands (`pos`, when the caller knows it)."""
    st, ed = g.st, g.ed
    if pos < 0:
        pos = st.seats[s].pos
    sq = ed.squares[pos]
    kind = sq.kind
    if kind in ("country", "airline", "utility"):
        owner = st.owner[pos]
        if owner == BANK:
            if st.settings.auction_only:
                _open_title_auction(g, pos)
            else:
                st.phase = "buy"
                g.emit("may_buy", seat=s, square=pos, price=sq.price)
        elif owner != s:
            if st.mortgaged[pos]:
                g.emit("no_rent_mortgaged", seat=s, square=pos)
                return
            if st.settings.no_rent_in_jail and st.seats[owner].jailed:
                if g.told_in_full:
                    g.emit("no_rent_in_jail", seat=s, square=pos, owner=owner)
                else:
                    g.emit("no_rent_in_jail", seat=s, square=pos)
                return
            if card_amount and kind == "utility":
                d1, d2 = g.dice()
                g.emit("rolled_for_rent", seat=s, dice=[d1, d2])
                amount = (d1 + d2) * card_amount
            else:
                amount = board.rent(st, pos, sum(st.dice), g.rules) * rent_factor
            _pay_rent(g, s, owner, pos, amount)
    elif kind == "tax":
        g.charge(s, BANK, sq.amount, "tax", square=pos)
    elif kind == "card":
        _draw_card(g, s, sq.deck)
    elif kind == "go_to_jail":
        _go_to_jail(g, s)
    elif kind in ("free", "lose_turns"):
        if st.pot:
            g.transfer(POT, s, st.pot, "pot")
        if kind == "lose_turns":
            st.seats[s].lost_turns = sq.turns
            st.doubles = 0
            g.emit("resting", seat=s, turns=sq.turns)
    elif kind == "customs":
        st.phase = "customs"
        g.emit("customs", seat=s, square=pos, amount=sq.amount)
    elif kind == "club":
        seat = st.seats[s]
        if seat.club:
            g.charge(s, BANK, sq.amount2, "club_fee", square=pos)
        else:
            seat.club = True
            g.emit("joined_club", seat=s)
            g.charge(s, BANK, sq.amount, "club_membership", square=pos)


def _pay_rent(g: Game, payer: int, owner: int, pos: int, amount: int) -> None:
    st, ed = g.st, g.ed
    sq = ed.squares[pos]
    loan = next((ln for ln in st.loans if sq.kind == "country" and ln.block == sq.block), None) if st.loans else None
    if loan is None:
        g.charge(payer, owner, amount, "rent", square=pos)
        return
    # Club Tarjeta Platino: the owner hands the rent of the first landings to the bank, up to the balance.
    # The visitor owes the owner as usual, so a bankruptcy on that rent goes to the owner.
    to_bank = min(amount, loan.balance)
    loan.balance -= to_bank
    loan.landings -= 1
    g.charge(payer, owner, amount, "rent", square=pos)
    g.charge(owner, BANK, to_bank, "loan_repayment", square=pos)
    if loan.balance == 0:
        st.loans.remove(loan)
        g.emit("loan_repaid", block=loan.block)
    elif loan.landings == 0:
        _seize_buildings(g, loan)


def _seize_buildings(g: Game, loan: Loan) -> None:
    """The loan was not repaid by the first two landings: the bank takes buildings of the block (each at half
    its cost, as when it buys them back) until the balance is covered; what is still owed after that, the
    owner of the block pays like any debt (a loan is never free money)."""
    st, ed = g.st, g.ed
    block = board.blocks(ed)[loan.block]
    seized = 0
    while loan.balance > 0 and any(st.level[j] for j in block):
        j = max(block, key=lambda k: st.level[k])
        sq = ed.squares[j]
        if st.level[j] == HOTEL and st.bank_houses < 4:
            taken = _break_hotels(g, j)
            loan.balance -= sum(value for _, value, _ in taken)
            seized += sum(count for _, _, count in taken)
            continue
        if st.level[j] == HOTEL:
            st.level[j] = 4
            st.bank_houses -= 4
            st.bank_hotels += 1
            value = sq.hotel_cost // 2
        else:
            st.level[j] -= 1
            st.bank_houses += 1
            value = sq.house_cost // 2
        loan.balance -= value
        seized += 1
    st.loans.remove(loan)
    g.emit("loan_seized", block=loan.block, buildings=seized)
    if loan.balance > 0:
        g.charge(st.owner[block[0]], BANK, loan.balance, "loan_repayment", square=block[0])


def _draw_card(g: Game, s: int, deck_id: str) -> None:
    st, ed = g.st, g.ed
    pile = st.decks[deck_id]
    card_id = pile.pop(0)
    card = board.card(ed, card_id)
    g.emit("card", seat=s, deck=deck_id, card=card_id)
    effect = card.effect
    if effect == "jail_free":
        st.seats[s].jail_cards.append(card_id)
        return
    pile.append(card_id)
    if effect == "collect":
        g.transfer(BANK, s, card.amount, "card", card=card_id)
    elif effect == "pay":
        g.charge(s, BANK, card.amount, "card", card=card_id)
    elif effect == "pay_each":
        for other in board.active_seats(st):
            if other != s:
                g.charge(s, other, card.amount, "card", card=card_id)
    elif effect == "collect_each":
        for other in board.active_seats(st):
            if other != s:
                g.charge(other, s, card.amount, "card", card=card_id)
    elif effect == "move_to":
        _move_forward(g, s, (card.square - st.seats[s].pos) % board.BOARD_SIZE or board.BOARD_SIZE)
    elif effect == "move_by":
        if card.steps >= 0:
            _move_forward(g, s, card.steps)
        else:
            _move_back(g, s, -card.steps)
    elif effect == "go_to_jail":
        _go_to_jail(g, s)
    elif effect == "repairs":
        houses = hotels = 0
        for i, o in enumerate(st.owner):
            if o == s:
                if st.level[i] == HOTEL:
                    hotels += 1
                else:
                    houses += st.level[i]
        g.charge(s, BANK, houses * card.amount + hotels * card.amount2, "repairs", card=card_id)
    elif effect == "nearest":
        pos = st.seats[s].pos
        steps = next(
            k for k in range(1, board.BOARD_SIZE + 1) if ed.squares[(pos + k) % board.BOARD_SIZE].kind == card.kind
        )
        start = st.seats[s].pos
        st.seats[s].pos = (start + steps) % board.BOARD_SIZE
        g.emit("moved", seat=s, frm=start, to=st.seats[s].pos)
        if start + steps >= board.BOARD_SIZE:
            g.transfer(BANK, s, ed.economy.salary, "salary")
        if card.kind == "utility":
            _land(g, s, card_amount=card.amount)
        else:
            _land(g, s, rent_factor=card.multiplier)


# -- buying and auctions ---------------------------------------------------------------------------
def _buy(g: Game, a: Action) -> None:
    st, ed = g.st, g.ed
    pos = st.seats[a.seat].pos
    g.transfer(a.seat, BANK, ed.squares[pos].price, "buy", square=pos)
    st.owner[pos] = a.seat
    st.phase = _next_phase(g)


def _decline(g: Game, a: Action) -> None:
    st = g.st
    pos = st.seats[a.seat].pos
    g.emit("declined", seat=a.seat, square=pos)
    st.phase = _next_phase(g)
    if g.rules.auction_on_decline:
        _open_title_auction(g, pos)


def _open_title_auction(g: Game, square: int) -> None:
    st = g.st
    st.auction = Auction(item="title", square=square, active=board.active_seats(st))
    g.emit("auction_opened", item="title", square=square)


def _bid(g: Game, a: Action) -> None:
    au = g.st.auction
    assert au is not None
    au.bid = a.amount
    au.bidder = a.seat
    au.bids.append((a.seat, a.amount))
    g.emit("bid", seat=a.seat, amount=a.amount, item=au.item, square=au.square)


def _pass_bid(g: Game, a: Action) -> None:
    au = g.st.auction
    assert au is not None
    au.active.remove(a.seat)
    g.emit("passed_bid", seat=a.seat)


def _close_auction(g: Game, a: Action | None = None) -> None:
    st = g.st
    au = st.auction
    assert au is not None
    st.auction = None
    winner = au.bidder
    if winner < 0:
        g.emit("auction_unsold", item=au.item, square=au.square)
        return
    # A bid binds: a winner who spent the cash behind it since owes it, like any debt.
    if au.item == "title":
        st.owner[au.square] = winner
        g.charge(winner, BANK, au.bid, "auction", square=au.square)
        g.emit("auction_won", seat=winner, item="title", square=au.square, amount=au.bid)
        return
    target = _building_target(g, winner, au)
    if target < 0:
        g.emit("auction_unsold", item=au.item, square=au.square)
        return
    _place_building(g, target)
    g.charge(winner, BANK, au.bid, "auction", square=target)
    g.emit("auction_won", seat=winner, item=au.item, square=target, amount=au.bid)


def _auction_done(au: Auction) -> bool:
    return not au.active or (au.bidder >= 0 and au.active == [au.bidder])


# -- buildings --------------------------------------------------------------------------------------
def _eligible_builders(g: Game, hotel: bool) -> list[int]:
    return [s for s in board.active_seats(g.st) if board.can_build_any(g.st, g.ed, s, hotel)]


def _build(g: Game, a: Action) -> None:
    st, ed = g.st, g.ed
    hotel = st.level[a.square] == 4
    supply = st.bank_hotels if hotel else st.bank_houses
    # Only seats in the game can want to build: with that much supply there is no shortage to look for.
    wanting = _eligible_builders(g, hotel) if supply < len(st.seats) else []
    if len(wanting) > 1 and supply < len(wanting) and st.auction is None:
        # Shortage (rules 000, 001): several seats could build and the bank cannot serve them all.
        # The bidding starts at the lowest building price among the seats involved (rules 001).
        minimum = min(
            board.building_cost(ed.squares[i], st.level[i] + 1)
            for s in wanting
            for i in board.titles_of(st, s)
            if not board.build_blocker(st, ed, s, i) and (st.level[i] == 4) == hotel
        )
        st.auction = Auction(
            item="hotel" if hotel else "house", square=a.square, active=wanting, minimum=minimum, requester=a.seat
        )
        g.emit("auction_opened", item=st.auction.item, square=a.square, shortage=supply)
        return
    for target in build_plan(st, ed, a.seat, a.square, a.count):
        g.transfer(a.seat, BANK, board.building_cost(ed.squares[target], st.level[target] + 1), "build", square=target)
        _place_building(g, target)


def _place_building(g: Game, square: int) -> None:
    st = g.st
    st.level[square] += 1
    if st.level[square] == HOTEL:
        st.bank_hotels -= 1
        st.bank_houses += 4
    else:
        st.bank_houses -= 1
    g.emit("built", seat=st.owner[square], square=square, level=st.level[square])


def _building_target(g: Game, winner: int, au: Auction) -> int:
    """Where a building won at auction goes: the requester's square, else the winner's first legal one."""
    st, ed = g.st, g.ed
    hotel = au.item == "hotel"
    squares = [au.square] if winner == au.requester else []
    squares += board.titles_of(st, winner)
    for i in squares:
        is_hotel_step = st.level[i] == 4
        if st.owner[i] == winner and is_hotel_step == hotel and not board.build_blocker(st, ed, winner, i):
            return i
    return -1


def _sell(g: Game, a: Action) -> None:
    st, ed = g.st, g.ed
    for _ in range(a.count):
        if board.sell_blocker(st, ed, a.seat, a.square):
            break
        _sell_one(g, a.seat, a.square)


def _sell_one(g: Game, s: int, square: int) -> None:
    st, ed = g.st, g.ed
    sq = ed.squares[square]
    if st.level[square] < HOTEL:
        st.level[square] -= 1
        st.bank_houses += 1
        g.transfer(BANK, s, sq.house_cost // 2, "sell_building", square=square)
        g.emit("sold_building", seat=s, square=square, level=st.level[square])
        return
    if st.bank_houses >= 4:
        st.level[square] = 4
        st.bank_houses -= 4
        st.bank_hotels += 1
        g.transfer(BANK, s, sq.hotel_cost // 2, "sell_building", square=square)
        g.emit("sold_building", seat=s, square=square, level=4)
        return
    for j, value, _ in _break_hotels(g, square):
        g.transfer(BANK, s, value, "sell_building", square=j)
        g.emit("sold_building", seat=s, square=j, level=st.level[j])


def _break_hotels(g: Game, square: int) -> list[tuple[int, int, int]]:
    """The bank cannot give four houses back for the hotel on `square`: with even building every hotel of the
    block goes back at once (rules 004), and squares still holding houses keep at most one, so that the block
    stays even (rules 000, 001); otherwise only that hotel goes back.
    Returns (square, value at half its cost, buildings taken) for each square stripped."""
    st, ed = g.st, g.ed
    block = board.blocks(ed)[ed.squares[square].block] if g.rules.even_building else (square,)
    taken: list[tuple[int, int, int]] = []
    for j in block:
        if st.level[j] == HOTEL:
            st.level[j] = 0
            st.bank_hotels += 1
            taken.append((j, board.buildings_value(ed.squares[j], HOTEL) // 2, 1))
    if taken:
        for j in block:
            if st.level[j] > 1:
                extra = st.level[j] - 1
                st.level[j] = 1
                st.bank_houses += extra
                taken.append((j, extra * ed.squares[j].house_cost // 2, extra))
    return taken


# -- mortgages, loans, bank buy-back ---------------------------------------------------------------
def _mortgage(g: Game, a: Action) -> None:
    g.st.mortgaged[a.square] = True
    g.transfer(BANK, a.seat, g.ed.squares[a.square].mortgage, "mortgage", square=a.square)


def _unmortgage(g: Game, a: Action) -> None:
    st = g.st
    cost = unmortgage_cost(st, a.square)
    st.mortgaged[a.square] = False
    if a.square in st.interest_paid:
        st.interest_paid.remove(a.square)
    g.transfer(a.seat, BANK, cost, "unmortgage", square=a.square)
    if st.lift is not None and a.seat == st.lift.seat:
        _lift_only_held(st)


def _lift_only_held(st: State) -> None:
    """The creditor's decision on inherited mortgages keeps the titles it still holds mortgaged; with none left,
    there is nothing to decide."""
    lift = st.lift
    assert lift is not None
    lift.squares = [i for i in lift.squares if st.owner[i] == lift.seat and st.mortgaged[i]]
    if not lift.squares:
        st.lift = None


def _keep_mortgaged(g: Game, a: Action) -> None:
    g.st.lift = None
    g.emit("kept_mortgaged", seat=a.seat)


def _title_to_bank(g: Game, a: Action) -> None:
    """Rules 001: the bank takes a mortgaged title in payment, keeps its 10 % and auctions the title at once
    (once the debts are settled: nothing is auctioned while a debt waits)."""
    st = g.st
    value = board.title_to_bank_value(st, a.square)
    st.owner[a.square] = BANK
    st.mortgaged[a.square] = False
    g.emit("title_to_bank", seat=a.seat, square=a.square)
    g.transfer(BANK, a.seat, value, "title_to_bank", square=a.square)
    st.auction_queue.append(a.square)


def _sell_title(g: Game, a: Action) -> None:
    st = g.st
    value = board.title_value(st, a.square)
    st.owner[a.square] = BANK
    st.mortgaged[a.square] = False
    g.transfer(BANK, a.seat, value, "sell_title", square=a.square)


def _take_loan(g: Game, a: Action) -> None:
    amount = g.ed.economy.club_loans[a.block]
    g.st.loans.append(Loan(block=a.block, balance=amount, landings=2))
    g.transfer(BANK, a.seat, amount, "club_loan", block=a.block)


# -- trades -----------------------------------------------------------------------------------------
def _propose_trade(g: Game, a: Action) -> None:
    g.st.trade = a.trade
    g.st.seats[a.seat].offered_turn = g.st.turn
    g.emit("trade_proposed", seat=a.seat, target=a.trade.target if a.trade else -1)


def _accept_trade(g: Game, a: Action) -> None:
    st = g.st
    t: Trade = st.trade  # type: ignore[assignment]
    st.trade = None
    # What changes hands is part of the event, so the settled trade can be told in full, before its
    # consequences (the 10 % on mortgaged titles received).
    if g.told_in_full:
        g.emit("trade_done", seat=t.proposer, target=t.target, give=msgspec.to_builtins(t.give),
               take=msgspec.to_builtins(t.take))
    g.transfer(t.proposer, t.target, t.give.cash, "trade")
    g.transfer(t.target, t.proposer, t.take.cash, "trade")
    for frm, to, offer in ((t.proposer, t.target, t.give), (t.target, t.proposer, t.take)):
        for card in offer.cards:
            st.seats[frm].jail_cards.remove(card)
            st.seats[to].jail_cards.append(card)
        for sq in offer.titles:
            if _hand_title(g, sq, to, g.rules.interest_on_transfer):
                st.interest_paid.append(sq)
    if not g.told_in_full:
        g.emit("trade_done", seat=t.proposer, target=t.target)


def _hand_title(g: Game, square: int, to: int, interest_now: bool) -> bool:
    """A title changes hands. A mortgaged one stays mortgaged; with `interest_now` the receiver pays its 10 % at
    once (rules 001 on any transfer, rules 000 §12 and 004 on a bankruptcy) and may then lift it for the
    mortgage alone. Returns whether that 10 % was charged."""
    st = g.st
    st.owner[square] = to
    due = board.interest_due(st, square) if st.mortgaged[square] and interest_now else 0
    if not due:
        return False
    g.charge(to, BANK, due, "interest", square=square)
    return True


def _reject_trade(g: Game, a: Action) -> None:
    g.st.trade = None
    g.emit("trade_rejected", seat=a.seat)


def _cancel_trade(g: Game, a: Action) -> None:
    g.st.trade = None
    g.emit("trade_cancelled", seat=a.seat)


# -- debts, bankruptcy, the end ----------------------------------------------------------------------
def _bankrupt(g: Game, a: Action) -> None:
    st = g.st
    # A debt to the pot is a debt to the bank, and the bank is who receives everything.
    creditor = st.debts[0].creditor if st.debts[0].creditor >= 0 else BANK
    # The bankruptcy is told first, then what it moves: the account reads in the order things happen.
    if g.told_in_full:
        g.emit("bankrupt", seat=a.seat, creditor=creditor)
    _liquidate(g, a.seat, creditor)
    if not g.told_in_full:
        g.emit("bankrupt", seat=a.seat, creditor=creditor)
    st.bankruptcies += 1
    if st.settings.end_at_bankruptcy and st.bankruptcies >= st.settings.end_at_bankruptcy:
        st.phase = "finish"
    elif st.lift is not None and st.lift.seat == creditor and st.phase != "finish":
        g.emit("may_lift", seat=creditor)


def _withdraw(g: Game, a: Action) -> None:
    if g.told_in_full:
        g.emit("withdrew", seat=a.seat)
    _liquidate(g, a.seat, BANK)
    if not g.told_in_full:
        g.emit("withdrew", seat=a.seat)


def _liquidate(g: Game, s: int, creditor: int) -> None:
    """The seat leaves the game: buildings go back to the bank at half, everything else to the creditor
    (a seat, which pays the 10 % on mortgaged titles) or to the bank (which auctions the titles)."""
    st, ed = g.st, g.ed
    seat = st.seats[s]
    for i in board.titles_of(st, s):
        level = st.level[i]
        if level:
            if level == HOTEL:
                st.bank_hotels += 1
            else:
                st.bank_houses += level
            st.level[i] = 0
            g.transfer(BANK, s, board.buildings_value(ed.squares[i], level) // 2, "sell_building", square=i)
    # What others still owe the leaving seat goes to its creditor with everything else.
    for d in st.debts:
        if d.creditor == s:
            d.creditor = creditor
    st.debts = [d for d in st.debts if d.debtor not in (s, d.creditor)]
    g.transfer(s, creditor, seat.cash, "bankruptcy")
    if creditor >= 0:
        for card in seat.jail_cards:
            st.seats[creditor].jail_cards.append(card)
        seat.jail_cards = []
        charged = [i for i in board.titles_of(st, s) if _hand_title(g, i, creditor, True)]
        _offer_lift(g, creditor, charged)
    else:
        for card in seat.jail_cards:
            _return_card(g, card)
        seat.jail_cards = []
        for i in board.titles_of(st, s):
            st.owner[i] = BANK
            st.mortgaged[i] = False
            st.auction_queue.append(i)
        st.loans = [ln for ln in st.loans if st.owner[board.blocks(ed)[ln.block][0]] != BANK]
    seat.out = True
    seat.jailed = False
    st.eliminated.append(s)
    if st.lift is not None and st.lift.seat == s:
        st.lift = None
    au = st.auction
    if au is not None:
        if s in au.active:
            au.active.remove(s)
        # The bids of a seat that left no longer stand: the best one left is the highest again.
        au.bids = [b for b in au.bids if b[0] != s]
        au.bidder, au.bid = au.bids[-1] if au.bids else (-1, 0)
    if st.trade is not None and s in (st.trade.proposer, st.trade.target):
        st.trade = None
        g.emit("trade_cancelled", seat=s)
    if s == st.current:
        st.phase = "next"
    if len(board.active_seats(st)) <= 1:
        st.phase = "finish"


def _offer_lift(g: Game, creditor: int, squares: list[int]) -> None:
    """The creditor paid the 10 % on these inherited mortgages: it may lift them for the mortgage alone "en ese
    mismo turno" (rules 000 §12), decided at once, before play goes on, so the right survives the turn ending."""
    st = g.st
    if not squares:
        return
    if not g.rules.creditor_lifts:
        st.interest_paid.extend(squares)  # rulebook 0: the right lasted to the end of the turn
    elif st.lift is None:
        st.lift = Lift(seat=creditor, squares=squares)
    elif st.lift.seat == creditor:
        st.lift.squares.extend(squares)
    else:
        st.interest_paid.extend(squares)  # another creditor decides first; this one has the rest of the turn


def _time_up(g: Game, a: Action) -> None:
    st = g.st
    st.ending = True
    g.emit("time_up")
    if st.trade is not None:
        st.trade = None
        g.emit("trade_cancelled", seat=-1)


def standings(st: State) -> list[Standing]:
    """The ranking as things stand: seats still playing by net worth (ties by turn order), then the
    bankrupt, the last one out first."""
    rows = []
    for s in range(len(st.seats)):
        worth, titles, buildings = board.net_worth(st, s)
        rows.append((s, worth, titles, buildings))
    alive = sorted((r for r in rows if not st.seats[r[0]].out), key=lambda r: (-r[1], st.order.index(r[0])))
    gone = [next(r for r in rows if r[0] == s) for s in reversed(st.eliminated)]
    return [
        Standing(
            seat=r[0],
            rank=k + 1,
            net_worth=r[1],
            cash=st.seats[r[0]].cash,
            titles=r[2],
            buildings=r[3],
            out=st.seats[r[0]].out,
        )
        for k, r in enumerate(alive + gone)
    ]


def _finish(g: Game, reason: str) -> None:
    st = g.st
    st.phase = "over"
    st.auction = None
    st.auction_queue = []
    st.debts = []
    st.trade = None
    st.lift = None
    st.standings = standings(st)
    st.winner = st.standings[0].seat
    g.emit(
        "game_over",
        reason=reason,
        winner=st.winner,
        standings=msgspec.to_builtins(st.standings),
    )


def _flow(g: Game) -> None:
    """After every action: settle what can be paid, run queued auctions, end finished auctions, and move
    the turn on when nothing is pending."""
    st = g.st
    while True:
        # Each field read once a round (after every action): the state's fields are the engine's costliest reads.
        debts = st.debts
        while debts and st.seats[debts[0].debtor].cash >= debts[0].amount:
            d = debts.pop(0)
            g.transfer(d.debtor, d.creditor, d.amount, d.reason, **({"square": d.square} if d.square >= 0 else {}))
            g.emit("debt_paid", seat=d.debtor)
        phase = st.phase
        if phase == "finish":
            _finish(g, "bankruptcy")
            return
        if phase == "over" or debts or st.lift is not None:
            return
        auction = st.auction
        if auction is not None:
            if _auction_done(auction):
                _close_auction(g)
                continue
            return
        if st.auction_queue:
            _open_title_auction(g, st.auction_queue.pop(0))
            continue
        if phase == "next":
            # Nothing is pending here, and a new turn creates no debt, auction or lift: done.
            _start_next_turn(g)
        return


HANDLERS: Final = {
    "roll": _roll,
    "buy": _buy,
    "decline": _decline,
    "bid": _bid,
    "pass_bid": _pass_bid,
    "close_auction": _close_auction,
    "build": _build,
    "sell": _sell,
    "mortgage": _mortgage,
    "unmortgage": _unmortgage,
    "sell_title": _sell_title,
    "take_loan": _take_loan,
    "pay_fine": _pay_fine,
    "use_card": _use_card,
    "end_turn": _end_turn,
    "bankrupt": _bankrupt,
    "keep_mortgaged": _keep_mortgaged,
    "title_to_bank": _title_to_bank,
    "withdraw": _withdraw,
    "propose_trade": _propose_trade,
    "accept_trade": _accept_trade,
    "reject_trade": _reject_trade,
    "cancel_trade": _cancel_trade,
    "time_up": _time_up,
}

"""The `dificil` player's trades: it takes and proposes only deals that leave it better off than its partner
by its own measure of what titles earn (`engine.ai.hard.worth`), and it prices its offers at what the
partner should accept: another computer by that computer's own rule, a person by the `normal` standard and
a margin, so that a person is never handed a block for nothing."""

from __future__ import annotations

from typing import Final

from engine import rng
from engine.actions import Action, Offer, Trade
from engine.ai.hard.assets import reserve
from engine.ai.hard.worth import Returns, change, opponents_factor
from engine.ai.levels import LEVELS, Style
from engine.ai.trades import PERSON_MARGIN, _Deal, acceptable
from engine.ai.view import start_cash, table
from engine.edition import load
from engine.legal import trade_refused, window_allows
from engine.state import BANK, State

# The seat must come out of a deal ahead of its partner by at least this share of the starting cash, and
# ahead of where it was by at least as much.
LEAD: Final = 0.01


def _owner_after(owner: list[int], trade: Trade) -> list[int]:
    after = list(owner)
    for sq in trade.give.titles:
        after[sq] = trade.target
    for sq in trade.take.titles:
        after[sq] = trade.proposer
    return after


def _title_gains(st: State, r: Returns, trade: Trade, k: float) -> tuple[float, float]:
    """(proposer's, target's) change of worth from the titles of `trade`, cash and cards apart."""
    after = _owner_after(st.owner, trade)
    moved = trade.give.titles + trade.take.titles
    args = (st.owner, after, st.mortgaged, st.level, moved)
    return change(r, *args, trade.proposer, k), change(r, *args, trade.target, k)


def _cash_to_target(trade: Trade, card: int) -> int:
    return trade.give.cash - trade.take.cash + card * (len(trade.give.cards) - len(trade.take.cards))


def answer(st: State, r: Returns, seat: int, keep: int) -> Action:
    trade = st.trade
    assert trade is not None
    ok = accepts(st, r, trade, seat, keep) and trade_refused(st, r.t.ed, trade) is None
    return Action(kind="accept_trade" if ok else "reject_trade", seat=seat)


def accepts(st: State, r: Returns, trade: Trade, seat: int, keep: int) -> bool:
    """Whether `seat`, the target of `trade`, comes out of it ahead of the proposer (see `answer`)."""
    k = opponents_factor(st, r, seat)
    prop_gain, targ_gain = _title_gains(st, r, trade, k)
    cash = _cash_to_target(trade, r.t.ed.economy.jail_fine)
    mine, theirs = targ_gain + cash, prop_gain - cash
    lead = LEAD * start_cash(st, r.t)
    # Ahead of the partner; a fellow `dificil` seat, which prices its offers by the same measure, may come
    # out a little ahead instead (otherwise two of them could never agree on a price).
    slack = 2 * lead if _is_hard(st, trade.proposer) else 0.0
    if mine < lead or mine - theirs < -slack:
        return False
    # Paying cash must leave the reserve the next roll asks for.
    return not (trade.take.cash and st.seats[seat].cash - trade.take.cash < keep)


def may_propose(st: State, seat: int) -> bool:
    """Once a turn at most, when the trading window (where there is one) allows; towards people only now and
    then (a draw keyed on the state's version)."""
    return st.seats[seat].offered_turn != st.turn and window_allows(st, load(st.edition), seat)


def proposal(st: State, r: Returns, seat: int, keep: int) -> Action | None:
    """The deal that gains the seat most among those its partner should accept, or None."""
    t = r.t
    k = opponents_factor(st, r, seat)
    lead = LEAD * start_cash(st, t)
    unit = t.ed.economy.bid_steps[0]
    best: tuple[float, Trade] | None = None
    for partner, give, take in _packages(st, r, seat):
        person = not st.seats[partner].computer
        if person and rng.below(st.seed, st.version * 7 + seat, 8):
            continue
        base = Trade(proposer=seat, target=partner, give=Offer(titles=give), take=Offer(titles=take))
        mine_t, theirs_t = _title_gains(st, r, base, k)
        # Cash c from the seat to the partner: mine = mine_t - c, theirs = theirs_t + c.
        if _is_hard(st, partner):
            # It accepts up to `2 * lead` behind the proposer (see `answer`); the seat stays ahead.
            most = min((mine_t - theirs_t) / 2, mine_t - lead)
            least: float | None = max((mine_t - theirs_t - 2 * lead) / 2, lead - theirs_t)
        else:
            most = min((mine_t - theirs_t - lead) / 2, mine_t - lead)
            least = _least_accepted(st, base, partner, person)
        if least is None:
            continue
        c = int(-((-least) // unit) * unit)  # rounded up to the table's smallest step
        # Each side gives something: titles for nothing would be a gift, which the rules forbid.
        if not give:
            c = max(c, unit)
        if not take:
            c = min(c, -unit)
        if c > most:
            continue
        if c > st.seats[seat].cash - keep:
            continue
        if c < 0 and st.seats[partner].cash + c < 0.1 * start_cash(st, t):
            continue
        trade = Trade(
            proposer=seat,
            target=partner,
            give=Offer(titles=give, cash=max(c, 0)),
            take=Offer(titles=take, cash=max(-c, 0)),
        )
        if not _partner_accepts(st, r, trade, partner, person):
            continue
        if trade_refused(st, t.ed, trade) is not None:
            continue
        gain = mine_t - c
        if best is None or gain > best[0]:
            best = (gain, trade)
    if best is None:
        return None
    return Action(kind="propose_trade", seat=seat, trade=best[1])


def _is_hard(st: State, seat: int) -> bool:
    level = st.seats[seat].computer
    return level in LEVELS and LEVELS[level].hard


def _standard(st: State, partner: int, person: bool) -> tuple[Style, float]:
    if person:
        return LEVELS["normal"], PERSON_MARGIN
    style = LEVELS.get(st.seats[partner].computer) or LEVELS["normal"]
    return style, 0.0


def _least_accepted(st: State, base: Trade, partner: int, person: bool) -> float | None:
    """The least cash the seat must add (negative: may ask for) so that the partner, judging by its
    standard, accepts `base`; None if no cash would do."""
    t = table(st.edition)
    style, margin = _standard(st, partner, person)
    deal = _Deal(st, t, base)
    if deal.breaks_a_block(partner):
        return None
    theirs = deal.title_gain(partner, style)
    mine = deal.title_gain(base.proposer, style)
    floor = (style.trade_margin + margin) * start_cash(st, t)
    envy = style.envy
    # The least c with  c + theirs - envy * max(mine - c, 0) >= floor.
    c = (floor - theirs + envy * mine) / (1.0 + envy)
    if mine - c <= 0:
        c = floor - theirs
    return c


def _partner_accepts(st: State, r: Returns, trade: Trade, partner: int, person: bool) -> bool:
    if _is_hard(st, partner):
        return accepts(st, r, trade, partner, reserve(st, r, partner))
    style, margin = _standard(st, partner, person)
    t = table(st.edition)
    if not acceptable(st, t, trade, partner, style, margin):
        return False
    # Computer partners refuse to pay cash that leaves them short (see `engine.ai.trades.answer`).
    return not (trade.take.cash and st.seats[partner].cash - trade.take.cash < 0.1 * start_cash(st, t))


def _packages(st: State, r: Returns, seat: int) -> list[tuple[int, tuple[int, ...], tuple[int, ...]]]:
    """(partner, titles the seat gives, titles it takes): the one or two titles that complete a block of the
    seat's, held by one partner, alone or against a title that completes a block of the partner's; and each
    title of the seat's that completes a partner's block, alone (sold for cash)."""
    t = r.t
    owner = st.owner
    wants: dict[int, list[tuple[int, ...]]] = {}  # partner -> titles that complete one of my blocks
    gives: dict[int, list[tuple[int, ...]]] = {}  # partner -> my titles that complete one of theirs
    for members in t.blocks:
        holders: dict[int, list[int]] = {}
        for j in members:
            holders.setdefault(owner[j], []).append(j)
        if BANK in holders or len(holders) != 2:
            continue
        (a, sa), (b, sb) = holders.items()
        for me_side, other, other_sq in ((a, b, sb), (b, a, sa)):
            if me_side == seat and len(other_sq) <= 2 and not st.seats[other].out:
                wants.setdefault(other, []).append(tuple(other_sq))
            if other == seat and len(other_sq) == 1 and not st.seats[me_side].out:
                gives.setdefault(me_side, []).append(tuple(other_sq))
    out: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = []
    for partner in sorted(set(wants) | set(gives)):
        w = wants.get(partner, [])
        g = gives.get(partner, [])
        for take in w:
            out.append((partner, (), take))
            for give in g:
                out.append((partner, give, take))
        for give in g:
            out.append((partner, give, ()))
    return out

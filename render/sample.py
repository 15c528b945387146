"""Sample games for pictures, golden tests and the benchmark: computer seats play a seeded game.

The engine's computer players (`engine.choose`) drive the seats; a test or a benchmark that wants plainer and
faster games passes `simple_choice` instead, a small deterministic policy that picks from
`engine.legal_actions` the way a table of cautious players would: buy, build, bid and go bankrupt.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from datetime import date

import engine
from engine import (
    SYSTEM,
    Action,
    Auction,
    Debt,
    Offer,
    State,
    Trade,
    building_cost,
    legal_actions,
    load,
    new_game,
    refusal,
)
from render.profile import BestGame, ProfileCard
from render.ranking import RankingRow

Chooser = Callable[[State, int], Action | None]
Step = tuple[Action, list[dict]]

SAMPLE_NAMES = ["Ana", "Beto", "Carmen", "Diego", "Elena", "Fer"]
# A cautious table keeps this share of the starting cash before buying or building.
RESERVE_SHARE = 0.15
# `simple_choice` never raises a bid beyond this share of the printed price, so auctions end.
MAX_BID_SHARE = 1.0


def simple_choice(st: State, seat: int) -> Action:
    """A deterministic, rule-abiding move for `seat` chosen from its legal actions."""
    ed = load(st.edition)
    actions = legal_actions(st, seat)
    by_kind: dict[str, list[Action]] = {}
    for a in actions:
        by_kind.setdefault(a.kind, []).append(a)
    cash = st.seats[seat].cash
    reserve = int(ed.economy.start_cash * RESERVE_SHARE)

    if st.debts and st.debts[0].debtor == seat:
        # Buildings and mortgages first; bankruptcy as soon as the engine allows it; titles sold (to a
        # player or back to the bank) only when it does not, since they are what a debtor has left.
        for kind in ("sell", "mortgage", "bankrupt", "sell_title", "title_to_bank"):
            if kind in by_kind:
                return by_kind[kind][0]
        return Action(kind="bankrupt", seat=seat)
    if st.lift is not None and st.lift.seat == seat and "keep_mortgaged" in by_kind:
        # A creditor's decision on inherited mortgages holds the game up: keep them (lifted later at +10 %).
        return by_kind["keep_mortgaged"][0]
    if st.auction is not None and seat in st.auction.active:
        au = st.auction
        ceiling = int(ed.squares[au.square].price * MAX_BID_SHARE) if au.item == "title" else reserve
        bids = [a for a in by_kind.get("bid", []) if a.amount <= ceiling and cash - a.amount >= reserve]
        return bids[0] if bids else Action(kind="pass_bid", seat=seat)
    if "accept_trade" in by_kind and st.trade is not None:
        return by_kind["accept_trade"][0] if _fair(st, st.trade) else by_kind["reject_trade"][0]
    if st.phase == "buy" and "decline" in by_kind:
        price = ed.squares[st.seats[seat].pos].price
        return by_kind["buy"][0] if "buy" in by_kind and cash - price >= reserve else by_kind["decline"][0]
    if "propose_trade" in by_kind and seat == st.current and st.phase in ("roll", "end"):
        trade = _block_completing_trade(st, seat, reserve)
        if trade is not None:
            return Action(kind="propose_trade", seat=seat, trade=trade)
    for a in by_kind.get("unmortgage", []):
        if cash > 3 * reserve:
            return a
    for a in by_kind.get("build", []):
        sq = ed.squares[a.square]
        if cash - building_cost(sq, st.level[a.square] + 1) >= reserve:
            return a
    for kind in ("use_card", "roll", "end_turn"):
        if kind in by_kind:
            return by_kind[kind][0]
    if "pay_fine" in by_kind:
        return by_kind["pay_fine"][0]
    raise RuntimeError(f"no move for seat {seat} in phase {st.phase}")


def _block_completing_trade(st: State, seat: int, reserve: int) -> Trade | None:
    """An offer of twice the price for the one title that would complete a block of `seat`."""
    ed = load(st.edition)
    for squares in ed.blocks.values():
        missing = [j for j in squares if st.owner[j] != seat]
        if len(missing) != 1 or st.owner[missing[0]] < 0 or st.level[missing[0]] or st.mortgaged[missing[0]]:
            continue
        square = missing[0]
        offer = 2 * ed.squares[square].price
        if st.seats[seat].cash - offer < reserve:
            continue
        trade = Trade(proposer=seat, target=st.owner[square], give=Offer(cash=offer), take=Offer(titles=(square,)))
        if _fair(st, trade) and refusal(st, Action(kind="propose_trade", seat=seat, trade=trade)) is None:
            return trade
    return None


def _fair(st: State, trade: Trade) -> bool:
    """The target accepts cash of at least twice the price for titles that complete none of its blocks."""
    ed = load(st.edition)
    price = sum(ed.squares[j].price for j in trade.take.titles)
    if trade.give.cash - trade.take.cash < 2 * price or trade.give.titles or trade.take.cards:
        return False
    for j in trade.take.titles:
        block = ed.squares[j].block
        if block and sum(st.owner[k] == trade.target for k in ed.blocks[block]) > 1:
            return False
    return True


def chooser() -> Chooser:
    """The engine's computer players, at the `normal` level, as a choice function."""
    return lambda st, seat: engine.choose(st, seat, level="normal")


def waiting(st: State) -> list[int]:
    """The seats play waits for: the highest bidder waits for the others; an offer waits for its target's answer
    before play goes on."""
    seats = st.seat_to_act()
    if st.auction is not None and not st.debts:
        seats = [s for s in seats if s != st.auction.bidder]
    if st.trade is not None:
        seats = [st.trade.target]
    return seats


def next_move(st: State, pick: Chooser) -> Action | None:
    """The first move `pick` makes for a seat play waits for. With none, only the auction's leader is left and the
    auction closes, as the bot's quiet timer closes it; None when there is no auction either."""
    action = next((a for a in (pick(st, seat) for seat in waiting(st)) if a is not None), None)
    if action is None and st.auction is not None:
        return Action(kind="close_auction", seat=SYSTEM)
    return action


def play(
    edition: str = "turismundo",
    seed: int = 3,
    turns: int = 60,
    seats: int = 4,
    choose: Chooser | None = None,
) -> tuple[State, list[Step]]:
    """Play a seeded game with computer seats until `turns` turns are done or the game ends.

    Returns the first state (before any action) and every applied action with its events, the shape
    `render.history_from_log` replays."""
    pick = choose or chooser()
    first, _ = new_game(edition, SAMPLE_NAMES[:seats], seed=seed, computers=["normal"] * seats)
    st = engine.clone(first)
    steps: list[Step] = []
    # A generous cap: a turn rarely needs more than a few dozen decisions, but a policy must never spin.
    for _ in range(turns * 200):
        if st.phase == "over" or st.turn > turns:
            break
        action = next_move(st, pick)
        if action is None:  # a game stuck: a bug of the policy
            raise RuntimeError(f"no move for any of the seats {waiting(st)} at version {st.version}")
        events = engine.apply_inplace(st, action)
        steps.append((action, events))
    return first, steps


def final_state(first: State, steps: list[Step]) -> State:
    st = engine.clone(first)
    for action, _ in steps:
        engine.apply_inplace(st, action)
    return st


def busy_state(edition: str) -> State:
    """A made-up position with every mark a board can carry: six seats, every title owned, restaurants,
    hotels, mortgages, a jailed seat, a bankrupt seat, an auction, a debt and dice."""
    ed = load(edition)
    st, _ = new_game(edition, SAMPLE_NAMES, seed=1, computers=["", "normal", "", "normal", "", ""])
    titles = [sq.index for sq in ed.squares if sq.kind in ("country", "airline", "utility")]
    for k, i in enumerate(titles):
        st.owner[i] = k % 5
    for k, block in enumerate(ed.blocks.values()):
        for i in block:
            st.owner[i] = k % 5
            st.level[i] = (k % 6) if k % 3 else 0
    for i in titles[1::7]:
        if not st.level[i]:
            st.mortgaged[i] = True
    st.seats[5].out = True
    st.seats[5].cash = 0
    st.seats[2].jailed = True
    st.seats[2].pos = ed.rules.jail_square
    st.seats[2].jail_cards = [ed.decks[0].cards[0].id]
    st.seats[3].club = True
    for seat, pos in enumerate((0, 0, ed.rules.jail_square, 5, ed.rules.jail_square, 0)):
        if seat != 2:
            st.seats[seat].pos = pos
    st.dice = [6, 5]
    st.debts = [Debt(debtor=4, creditor=0, amount=ed.economy.start_cash // 10, reason="rent")]
    st.auction = Auction(item="title", square=titles[0], active=[0, 1], bid=ed.squares[titles[0]].price, bidder=1)
    st.pot = ed.economy.salary
    return st


def sample_profile(kind: str = "full") -> ProfileCard:
    """Cards to look at and measure: "full" (a regular of a year's play), "new" (nothing played yet), "long"
    (the longest name, one game, no win)."""
    if kind == "new":
        return ProfileCard(name="Beto", colour=1, rating=None, provisional=True)
    if kind == "long":
        return ProfileCard(
            name="Ñandú Ángel Pérez-Gómez 🎲 Ýñigo"[:32], colour=5, rating=4.2, provisional=True,
            history=((1, 4.2),), games=1, wins=0, favourite_edition="mundial",
            best_game=BestGame(7, 1_234, "mundial"), top_titles=(("mundial", 39),),
            opponents=(("Maximiliano Hernández-Villalobos", 1),),
        )
    history: list[tuple[date | int, float]] = []
    value = 8.0
    for k in range(40):
        value += math.sin(k * 1.7) * 1.6 + 0.45
        history.append((date(2025, 1 + k * 11 // 40, 1 + (k * 7) % 28), round(value, 1)))
    return ProfileCard(
        name="Ana", colour=0, rating=history[-1][1], provisional=False, history=tuple(history), games=40, wins=14,
        favourite_edition="turismundo", best_game=BestGame(128, 1_284_500, "turismundo"),
        top_titles=tuple(("turismundo", square) for square in _countries("turismundo")[-1:-4:-1]),
        opponents=(("Beto", 31), ("Carmen", 22), ("Diego", 9)),
    )


def _countries(edition: str) -> list[int]:
    return [sq.index for sq in load(edition).squares if sq.kind == "country"]


def sample_ranking() -> list[RankingRow]:
    """A season's table: nine people ranked (two level), three with too few games, one name of 32 letters."""
    people = [
        ("Ana", 27.1, 40, 14, 1.4), ("Beto", 24.8, 31, 9, -0.6), ("Carmen", 22.4, 22, 8, 0.0),
        ("Diego", 22.4, 19, 5, 2.1), ("Elena Sofía Ñúñez de la Cruz 🎲", 18.9, 12, 3, -1.2),
        ("Fer", 15.0, 9, 1, 0.4), ("Gabo", 11.7, 14, 2, -2.3), ("Héctor", 9.3, 6, 0, -0.1),
        ("Itzel", 6.5, 5, 1, 1.0),
    ]
    rows = [RankingRow(name, rating, games, wins, trend) for name, rating, games, wins, trend in people]
    rows += [RankingRow("Juan", 4.1, 2, 1, 3.2, True), RankingRow("Karla", 2.0, 1, 0, None, True),
             RankingRow("Luis", 1.2, 1, 0, None, True)]
    return rows

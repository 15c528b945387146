"""How each level of computer player plays: the knobs that make `facil` and `normal` differ."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final


@dataclass(frozen=True, slots=True)
class Style:
    # Buying: after an ordinary purchase keep this share of the starting cash (normal also keeps the worst
    # rent an opponent can charge now, so it is never caught short by one landing).
    buy_reserve: float
    watch_rents: bool
    # Auctions: the most paid for an ordinary title, as a share of its price; blocks are worth more.
    bid_ceiling: float
    block_premium: float  # extra value of a title that completes one's own block
    spoiler_premium: float  # extra value of a title that stops an opponent completing a block
    # Buildings: keep this share of the starting cash after building; build at most up to this level.
    build_reserve: float
    max_level: int
    # Mortgages are lifted when the cash left afterwards is at least this share of the starting cash.
    unmortgage_reserve: float
    # Club Tarjeta Platino: whether this level borrows to build (only when two landings would repay it).
    club_loans: bool
    # Trades: whether this level proposes any; how much of the partner's gain it counts against a deal,
    # and the least gain (share of the starting cash) that makes it accept.
    proposes_trades: bool
    envy: float
    trade_margin: float
    # `dificil` decides by what titles earn on the board (`engine.ai.hard`); the knobs above are then only
    # what other computer players assume of it when they price an offer for it.
    hard: bool = False


LEVELS: Final[dict[str, Style]] = {
    # A cautious beginner: keeps a large cushion, pays little at auctions, builds slowly, never trades
    # first, and judges offers by price without looking much at what the other side gains.
    "facil": Style(
        buy_reserve=0.35,
        watch_rents=False,
        bid_ceiling=0.7,
        block_premium=0.3,
        spoiler_premium=0.0,
        build_reserve=0.45,
        max_level=3,
        unmortgage_reserve=0.8,
        club_loans=False,
        proposes_trades=False,
        envy=0.2,
        trade_margin=0.0,
    ),
    # Buys almost everything early, pays up for blocks and to spoil an opponent's, builds fast to hotels,
    # keeps only what the worst rent on the board demands, and trades to complete blocks.
    "normal": (_NORMAL := Style(
        buy_reserve=0.04,
        watch_rents=True,
        bid_ceiling=1.1,
        block_premium=1.5,
        spoiler_premium=0.6,
        build_reserve=0.08,
        max_level=5,
        unmortgage_reserve=0.3,
        club_loans=True,
        proposes_trades=True,
        envy=0.6,
        trade_margin=0.03,
    )),
    # Values titles by their expected return on this board, keeps what the next roll may cost, builds
    # where it pays, bids against its opponents' gain too, trades only to come out ahead (engine.ai.hard).
    "dificil": replace(_NORMAL, hard=True),
}

DEFAULT_LEVEL: Final = "normal"


def style_of(level: str) -> Style:
    """The style of `level`; an empty or unknown level plays as the default one."""
    return LEVELS.get(level) or LEVELS[DEFAULT_LEVEL]

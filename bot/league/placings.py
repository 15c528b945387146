"""The order a game's seats finished in, exactly as the end-of-game picture and message rank them."""

from __future__ import annotations

import engine
from engine import standings


def placings(state: engine.State) -> dict[int, int]:
    """Seat -> placing (1 = first). A game played to its end: the engine's final standings (those still in by
    net worth, then the bankrupt, the last one out first). A game its host ended: the same standings as
    things stood, which is what `/turista end` posts."""
    rows = state.standings or standings(state)
    return {row.seat: row.rank for row in rows}

"""Who a seat that changed hands during its game is rated for.

A person may leave a game to a computer, be put out by the host, or sit down in a computer's seat when they
come late: that seat was played by more than one hand. It is rated for the person who made most of its moves,
if they made at least half of them; otherwise for nobody, and it counts as a computer seat at its level. So a
person who leaves a game they are losing at turn 60 of 80 is still rated for it, one who leaves after the first
few turns is not, and someone who sat down for the last turns is not rated for a game a computer played.

A seat whose person only had a computer stand in for them while they were away never changed hands: it rates
that person, whatever share the computer played (going quiet must not be a way out of a lost game).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

DEFAULT_COMPUTER = "normal"  # the level a seat counts at when nobody is rated for it and it names none


def credited(holder: int | None, level: str, moves: Sequence[int | None], changed: bool) -> tuple[int | None, str]:
    """(the person rated for a seat, its computer level) from who holds it at the end (`holder`, None for
    nobody; `level`, "" for a person), who made each of its moves (a person's id, None for the bot: computers,
    clocks) and whether it changed hands. Of people with as many moves, the first to make one."""
    if not changed:
        return holder, level
    made = Counter(m for m in moves if m is not None)
    if made:
        person, count = made.most_common(1)[0]
        if 2 * count >= len(moves):
            return person, ""
    return None, level or DEFAULT_COMPUTER

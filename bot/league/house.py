"""The league's house rule, kept in the table's settings dict beside the bot's other switches, and the mark of a
take-back only the host agreed to.

`rated_when_ended`: a game the host ends with `/turista end` (stored as "abandoned") is rated by the standings
at that moment. Off by default: a host could otherwise end a game the moment it suits them, and a game that
stops half-way says less about who plays best than one played to its end.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

RATED_WHEN_ENDED: Final = "rated_when_ended"
# Set in a game's settings once its host alone let a take-back through (the house rule `take_back_host`): a game
# rated for the league takes moves back only with every person's yes, so that game is rated for nobody.
HOST_TOOK_BACK: Final = "host_took_back"

# The league's switches and their defaults: what the lobby offers beside the bot's own ones (`thread`).
HOUSE_RULES: Final[Mapping[str, bool]] = {RATED_WHEN_ENDED: False}


def rated_at_all(settings: Mapping[str, Any]) -> bool:
    """Whether a game with these settings may be rated: not once its host alone let a take-back through."""
    return not settings.get(HOST_TOOK_BACK)


def rated_when_ended(settings: Mapping[str, Any]) -> bool:
    """Whether a game with these settings is rated when its host ends it."""
    return bool(settings.get(RATED_WHEN_ENDED, HOUSE_RULES[RATED_WHEN_ENDED]))

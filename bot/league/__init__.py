"""A server's league: the rating of a finished game, its house rule, and the name of a forgotten person.

Pure data and rules, no Discord and nothing of the bot's other modules: the store imports this package to
rate a game in the same transaction as the move that ends it, and the bot's commands read the store.
"""

from bot.league.former import former_letter, former_name, is_former, shown_name
from bot.league.hands import credited
from bot.league.house import HOST_TOOK_BACK, HOUSE_RULES, RATED_WHEN_ENDED, rated_at_all, rated_when_ended
from bot.league.placings import placings
from bot.league.rating import (
    COMPUTER_SKILLS,
    NEWCOMER,
    PROVISIONAL_GAMES,
    Change,
    Placed,
    Skill,
    provisional,
    rate,
    rated,
    shown,
)

__all__ = [
    "COMPUTER_SKILLS",
    "HOST_TOOK_BACK",
    "HOUSE_RULES",
    "NEWCOMER",
    "PROVISIONAL_GAMES",
    "RATED_WHEN_ENDED",
    "Change",
    "Placed",
    "Skill",
    "credited",
    "former_letter",
    "former_name",
    "is_former",
    "placings",
    "provisional",
    "rate",
    "rated",
    "rated_at_all",
    "rated_when_ended",
    "shown",
    "shown_name",
]

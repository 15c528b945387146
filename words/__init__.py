"""Words for the game: the catalogues, money as a person reads it, and the sentences told of events and
refusals, in Spanish (first) and English.

The engine speaks in codes and numbers; its readers (the bot, the pictures, the sandbox) show words. This
package stands between them: it imports the engine and nothing else of the project, and each reader loads its
own catalogue from it (`Catalogue("bot")`: the game's texts and the bot's own).
"""

from words.catalogue import (
    DEFAULT_LANGUAGE,
    GAME,
    LANGUAGES,
    Catalogue,
    Count,
    Name,
    fill,
    gender_of,
    language_of,
    sentence,
    text,
)
from words.former import FORMER_MARK, former_letter, former_name, is_former, seat_name, shown_name
from words.money import money
from words.narrate import (
    SILENT,
    SILENT_TRANSFERS,
    TOLD_FROM_STATE,
    account,
    describe,
    explain,
    in_order,
    jail_name,
    listing,
    offer_text,
    party,
    square_name,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "FORMER_MARK",
    "GAME",
    "LANGUAGES",
    "SILENT",
    "SILENT_TRANSFERS",
    "TOLD_FROM_STATE",
    "Catalogue",
    "Count",
    "Name",
    "account",
    "describe",
    "explain",
    "fill",
    "former_letter",
    "former_name",
    "gender_of",
    "in_order",
    "is_former",
    "jail_name",
    "language_of",
    "listing",
    "money",
    "offer_text",
    "party",
    "seat_name",
    "sentence",
    "shown_name",
    "square_name",
    "text",
]

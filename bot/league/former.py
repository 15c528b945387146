"""The name that replaces a person's in every past game once they ask to be forgotten.

A fixed text, stored as it is in the seats, the results and the engine states of those games: every reader
(the pictures, a replay, the narration, an export) shows it with no change of their own, and `turista store
verify` still replays each log to its snapshot, since names play no part in the rules. A reader that wants
it in the player's language recognises it (`is_former`) and shows `shown_name`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Final

FORMER_PLAYER: Final = "Exjugador"
FORMER_PLAYER_TEXT: Final = {"es": "Exjugador", "en": "Former player"}
_FORMER = re.compile(rf"^{FORMER_PLAYER}(?: \((?P<n>\d+)\))?$")


def former_name(taken: Iterable[str]) -> str:
    """The name for a forgotten seat: the fixed text, numbered when another forgotten person (or anyone)
    at the same table already goes by it, since the names at a table are all different."""
    others = {name.casefold() for name in taken}
    name, n = FORMER_PLAYER, 1
    while name.casefold() in others:
        n += 1
        name = f"{FORMER_PLAYER} ({n})"
    return name


def is_former(name: str) -> bool:
    return _FORMER.match(name) is not None


def shown_name(name: str, lang: str) -> str:
    """`name` as a reader in `lang` shows it: a forgotten seat's text in that language, any other as it is."""
    found = _FORMER.match(name)
    if found is None:
        return name
    text = FORMER_PLAYER_TEXT.get(lang, FORMER_PLAYER)
    return f"{text} ({found['n']})" if found["n"] else text

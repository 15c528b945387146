"""The name that replaces a person's in every past game once they ask to be forgotten, and how a reader shows it.

The stored form is language-neutral: an invisible mark and the letter the seat's token had in the game
(`former_name`). No chosen name can look like it, since `bot.table.names.clean` drops every invisible character
from a name; and keeping the letter keeps every token of the game as it was (the tokens' letters are chosen
seat after seat, each the first not taken: a new letter for one seat would move the next ones' too). Every
reader shows it in its reader's language: `seat_name` for a seat of a state, `shown_name` for a stored name.

Databases written before this form name a forgotten seat "Exjugador" or "Exjugador (2)": those are recognised and
shown in the reader's language too (their tokens keep the "E" they were stored with).
"""

from __future__ import annotations

import re
from typing import Final

from engine import State
from words.catalogue import text

FORMER_MARK: Final = "\u2063"  # INVISIBLE SEPARATOR, a format character: never part of a cleaned name
_STORED = re.compile(rf"^{FORMER_MARK}(?P<letter>\w)$")
_BEFORE = re.compile(r"^Exjugador(?: \((?P<n>\d+)\))?$")  # the form stored before, in Spanish


def former_name(letter: str) -> str:
    """The stored name of a forgotten seat whose token showed `letter` (one letter or digit)."""
    if len(letter) != 1 or not letter.isalnum():
        raise ValueError(f"a token's letter is one letter or digit, not {letter!r}")
    return f"{FORMER_MARK}{letter}"


def is_former(name: str) -> bool:
    return _STORED.match(name) is not None or _BEFORE.match(name) is not None


def former_letter(name: str) -> str | None:
    """The letter a forgotten seat's token keeps; None for any other name (and for the form stored before)."""
    found = _STORED.match(name)
    return found["letter"] if found else None


def shown_name(name: str, lang: str) -> str:
    """`name` as a reader in `lang` shows it: a forgotten seat's in that language, any other as it is."""
    if _STORED.match(name):
        return text(lang, "player.former")
    before = _BEFORE.match(name)
    if before is None:
        return name
    shown = text(lang, "player.former")
    return f"{shown} ({before['n']})" if before["n"] else shown


def seat_name(state: State, seat: int, lang: str) -> str:
    """The name of a seat of `state` as a reader in `lang` shows it."""
    return shown_name(state.seats[seat].name, lang)

"""The words on the pictures: their own catalogue (`render.` texts, data/i18n/<lang>/render.toml), then the
game's own."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from engine import State, load
from render.fonts import drawable
from words import DEFAULT_LANGUAGE, LANGUAGES, Catalogue, former_letter, language_of, money
from words import text as game_text

# The pictures' catalogue: the game's texts and their own.
RENDER = Catalogue("render")


@cache
def _catalogue(lang: str) -> dict[str, str]:
    return {k.removeprefix("render."): v for k, v in RENDER.texts(lang).items() if k.startswith("render.")}


def language(lang: str) -> str:
    """A catalogue language for `lang`, which may also be a Discord locale ("es-419", "en-US")."""
    return lang if lang in LANGUAGES else language_of(lang) or DEFAULT_LANGUAGE


def label(lang: str, key: str, **params: object) -> str:
    """Text `key` (e.g. "board.turn") in `lang`, falling back to the game's catalogues."""
    template = _catalogue(language(lang)).get(key)
    if template is None:
        return game_text(language(lang), key, **params)
    return template.format(**params) if params else template


def square_name(edition: str, square: int, lang: str) -> str:
    return game_text(language(lang), f"square.{edition}.{load(edition).squares[square].id}")


def edition_name(edition: str, lang: str) -> str:
    return game_text(language(lang), f"edition.{edition}.name")


def short_edition(edition: str, lang: str) -> str:
    """The edition in a word or two ("Turismundo"), where its full name does not fit."""
    return _catalogue(language(lang)).get(f"edition_short.{edition}") or edition_name(edition, lang)


def cash(edition: str, amount: int) -> str:
    return money(amount, load(edition).currency)


def house_word(edition: str, lang: str, count: int = 2) -> str:
    key = "building.house_one_" if count == 1 else "building.house_"
    # Editions without their own word (new ones) read like the classic board.
    found = _catalogue(language(lang)).get(key + edition)
    return found or _catalogue(language(lang))[key + "monopolio"]


def short_name(edition: str, square: int, lang: str) -> str:
    """What fits on the square of the board picture: a country code or an abbreviation."""
    key = f"square_short.{edition}.{load(edition).squares[square].id}"
    found = game_text(language(lang), key)
    return found if found != key else square_name(edition, square, lang)


def rating_text(value: float) -> str:
    """A rating as shown: one decimal below 100 (the scale of a conservative estimate), whole numbers above; a
    whole number (a rating already shown on a scale of its own, such as the bot's) as it is."""
    if isinstance(value, int):
        return f"{value:,}"
    return f"{value:,.1f}" if abs(value) < 100 else f"{round(value):,}"


def short_cash(edition: str, amount: int) -> str:
    """A price as printed small on a square: $35k for $35,000, $6.5k for $6,500, $200 as it is."""
    currency = load(edition).currency
    if amount >= 1000 and amount % 100 == 0:
        return f"{currency}{amount / 1000:g}k"
    return money(amount, currency)


def seat_letters(state: State) -> list[str]:
    """One letter per seat, different for every seat: the first letter of the name, else the next letter of
    the name not taken, else the seat number. The letter on a token is the one on the seat's titles."""
    return letters_of([s.name for s in state.seats])


def letters_of(names: Sequence[str]) -> list[str]:
    """`seat_letters` of the seats named `names`, in seat order. A forgotten seat keeps the letter it had
    (`words.former_letter`), so that no token of the game changes."""
    taken: set[str] = set()
    out: list[str] = []
    for seat, name in enumerate(names):
        kept = former_letter(name)
        candidates = [kept] if kept else [ch.upper() for ch in drawable(name) if ch.isalnum()]
        letter = next((c for c in [*candidates, str(seat + 1)] if c not in taken), str(seat + 1))
        taken.add(letter)
        out.append(letter)
    return out


def phrase(lang: str, key: str, **params: object) -> str:
    """Text `render.<key>` filled like the game's own texts: plural forms (`{n:turno|turnos}`) and Spanish
    contractions work, which `label`'s plain formatting leaves alone."""
    return RENDER.text(language(lang), f"render.{key}", **params)

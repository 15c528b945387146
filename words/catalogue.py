"""Message catalogues: the texts shown of the game, by id, in Spanish (first) and English.

The files are data/i18n/<lang>/<area>.toml, one area each. The game's own areas, what `words` tells (the
board's names, the events, the refusals, and the editions' own wordings of them), make `GAME`; each reader
loads its own catalogue, the game's areas and its own (`Catalogue("bot")`, `Catalogue("render")`...).

Templates use Python's `str.format` fields, plus two small conventions so that texts read right without a
sentence per case:

- word forms chosen by a number or a name: `{count} {count:tarjeta|tarjetas}` (1 | anything else) and
  `{square} está {square:hipotecado|hipotecada|hipotecados|hipotecadas}` (the square's gender and number,
  from `gender.<edition>.<square id>` in the catalogue; masculine singular when not listed);
- in Spanish, "a" / "de" before a value that starts with the article "el" contract to "al" / "del"
  ("paga al banco"), and a value ending with a full stop is not followed by a second one ("E.U.A.").

An edition may word a text its own way: `variant.<edition>.<id>` wins over `<id>` (the jail of the classic
Monopoly board is a "Cárcel", never a deportation).
"""

from __future__ import annotations

import re
import tomllib
from functools import cache

from engine import DATA_DIR

LANGUAGES = ("es", "en")
DEFAULT_LANGUAGE = "es"
GENDERS = ("m", "f", "mp", "fp")  # the order of the forms in `{name:…|…|…|…}`


class Count(int):
    """A number that also picks a word form: `{n:turno|turnos}` is "turno" for 1, "turnos" otherwise."""

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            one, other = spec.split("|", 1)
            return one if self == 1 else other
        return int.__format__(self, spec)


class Name(str):
    """A name with a grammatical gender and number (one of GENDERS) that picks agreeing word forms."""

    gender: str

    def __new__(cls, value: str, gender: str = "m") -> Name:
        name = super().__new__(cls, value)
        name.gender = gender if gender in GENDERS else "m"
        return name

    def __format__(self, spec: str) -> str:
        if "|" in spec:
            forms = spec.split("|")
            index = GENDERS.index(self.gender)
            # Fewer forms than genders: plural falls back to the singular of the same gender, then to the first.
            if index >= len(forms):
                index = index - 2 if index - 2 < len(forms) else 0
            return forms[index]
        return str.__format__(self, spec)


def _flatten(prefix: str, table: dict, out: dict[str, str]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(full, value, out)
        else:
            out[full] = value


# The areas of the game itself: the board's names, the events, the refusals, the editions' own wordings, alt text.
GAME_AREAS = ("board", "events", "errors", "variants", "alt")


@cache
def area(lang: str, name: str) -> dict[str, str]:
    """The texts of one area (data/i18n/<lang>/<name>.toml), keyed by dotted id (TOML tables are flattened)."""
    out: dict[str, str] = {}
    path = DATA_DIR / "i18n" / lang / f"{name}.toml"
    if path.is_file():
        _flatten("", tomllib.loads(path.read_text(encoding="utf-8")), out)
    return out


class Catalogue:
    """The texts one reader shows, in each language: the game's areas and the reader's own."""

    __slots__ = ("areas", "_texts")

    def __init__(self, *own: str) -> None:
        self.areas = (*GAME_AREAS, *own)
        self._texts: dict[str, dict[str, str]] = {}

    def texts(self, lang: str) -> dict[str, str]:
        """All its texts in `lang` (Spanish for a language there is none of), keyed by dotted id."""
        if lang not in LANGUAGES:
            lang = DEFAULT_LANGUAGE
        found = self._texts.get(lang)
        if found is None:
            found = {}
            for name in self.areas:
                found.update(area(lang, name))
            self._texts[lang] = found
        return found

    def template(self, lang: str, key: str, variant: str | None = None) -> str | None:
        """The raw template of `key`: the edition's own wording first, then the common one; Spanish if missing."""
        for texts in (self.texts(lang), self.texts(DEFAULT_LANGUAGE)):
            if variant is not None and (found := texts.get(f"variant.{variant}.{key}")) is not None:
                return found
            if (found := texts.get(key)) is not None:
                return found
        return None

    def text(self, lang: str, key: str, *, variant: str | None = None, **params: object) -> str:
        """The text `key` in `lang` with its parameters filled in; `variant` (an edition id) picks that edition's
        own wording where it has one. A missing id falls back to Spanish, then to the id itself."""
        found = self.template(lang, key, variant)
        if found is None:
            return key
        return fill(lang, found, params) if params else found


# The game's own texts: what `words` tells of the board, the events and the refusals.
GAME = Catalogue()


def text(lang: str, key: str, *, variant: str | None = None, **params: object) -> str:
    """`GAME.text`: a text of the game (see `Catalogue.text`)."""
    return GAME.text(lang, key, variant=variant, **params)


# A locale as Discord writes one: a language, then maybe a country or a region ("fr", "pt-BR", "es-419").
_LOCALE = re.compile(r"[a-z]{2}(?:-(?:[A-Z]{2}|\d{3}))?")
# What a locale of a language without a catalogue reads: the commands' default names are English, and Discord
# shows them to every client it has no localisation for, so the bot's answers there match its commands.
OTHER_LOCALES_LANGUAGE = "en"


def language_of(locale: str | None) -> str:
    """The catalogue for a Discord locale. The rule: a locale of a language the bot speaks gets that language
    (es-419 and es-ES Spanish, en-US and en-GB English); every other locale (fr, pt-BR, ja...) gets English;
    no locale at all (None, "") gets the default, Spanish."""
    if not locale or not _LOCALE.fullmatch(locale):
        return DEFAULT_LANGUAGE
    lang = locale.split("-")[0]
    return lang if lang in LANGUAGES else OTHER_LOCALES_LANGUAGE


_FIELD = re.compile(r"\{(\w+)(:[^{}]*)?\}")
_CONTRACTION = re.compile(r"\b(a|de) \{(\w+)\}")
_STOP_AFTER = re.compile(r"\{(\w+)\}\.")


def fill(lang: str, pattern: str, params: dict[str, object]) -> str:
    """`pattern` with `params` filled in (numbers become `Count`s), following the language's spelling."""
    values: dict[str, object] = {
        k: Count(v) if isinstance(v, int) and not isinstance(v, bool) else v for k, v in params.items()
    }

    def bare(name: str, value: str) -> str:
        key = f"{name}__bare"
        values[key] = value
        return key

    # The two passes below only change patterns that hold what they look for; most hold neither.
    if lang == "es" and ("a {" in pattern or "de {" in pattern):
        def contract(m: re.Match[str]) -> str:
            value = values.get(m[2])
            if isinstance(value, str) and value.startswith("el "):
                return ("al" if m[1] == "a" else "del") + " {" + bare(m[2], value[3:]) + "}"
            return m[0]

        pattern = _CONTRACTION.sub(contract, pattern)

    def one_stop(m: re.Match[str]) -> str:
        value = values.get(m[1])
        return m[0][:-1] if isinstance(value, str) and value.endswith(".") else m[0]

    if "}." in pattern:
        pattern = _STOP_AFTER.sub(one_stop, pattern)
    return pattern.format(**values)


def sentence(line: str) -> str:
    """A sentence starts with a capital letter, even when it opens with a value ("el banco paga…")."""
    for i, char in enumerate(line):
        if char.isalpha():
            return line[:i] + char.upper() + line[i + 1:] if char.islower() else line
        if char.isdigit():
            return line
    return line


def gender_of(lang: str, edition: str, square_id: str) -> str:
    """The grammatical gender and number of a square's name (GENDERS), masculine singular by default."""
    return GAME.texts(lang).get(f"gender.{edition}.{square_id}", "m")

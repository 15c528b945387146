"""The words on the pictures: render's own catalogue first, then the game's catalogues in `data/i18n/`."""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path

from engine import load
from engine.i18n import DEFAULT_LANGUAGE, LANGUAGES, language_of, money
from engine.i18n import text as game_text

_HERE = Path(__file__).resolve().parent


def _flatten(prefix: str, table: dict, out: dict[str, str]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(full, value, out)
        else:
            out[full] = value


@cache
def _catalogue(lang: str) -> dict[str, str]:
    out: dict[str, str] = {}
    _flatten("", tomllib.loads((_HERE / f"texts.{lang}.toml").read_text(encoding="utf-8")), out)
    return out


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


def cash(edition: str, amount: int) -> str:
    return money(amount, load(edition).currency)


def house_word(edition: str, lang: str, count: int = 2) -> str:
    key = "building.house_one_" if count == 1 else "building.house_"
    # Editions without their own word (new ones) read like the classic board.
    found = _catalogue(language(lang)).get(key + edition)
    return found or _catalogue(language(lang))[key + "monopolio"]

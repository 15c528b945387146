"""Message catalogues: every text the game shows, by id, in Spanish (first) and English."""

from __future__ import annotations

import tomllib
from functools import cache

from engine.edition import DATA_DIR

LANGUAGES = ("es", "en")
DEFAULT_LANGUAGE = "es"


def _flatten(prefix: str, table: dict, out: dict[str, str]) -> None:
    for key, value in table.items():
        full = f"{prefix}.{key}" if prefix else key
        if isinstance(value, dict):
            _flatten(full, value, out)
        else:
            out[full] = value


@cache
def catalogue(lang: str) -> dict[str, str]:
    """All texts of one language, keyed by dotted id (TOML tables are flattened)."""
    if lang not in LANGUAGES:
        lang = DEFAULT_LANGUAGE
    out: dict[str, str] = {}
    # One folder per language; each file holds one area (board, events, bot…) so they can grow apart.
    for path in sorted((DATA_DIR / "i18n" / lang).glob("*.toml")):
        _flatten("", tomllib.loads(path.read_text(encoding="utf-8")), out)
    return out


def language_of(locale: str | None) -> str:
    """Discord locales like 'es-ES', 'es-419', 'en-US' map to a catalogue; anything else gets Spanish."""
    if locale and locale.split("-")[0] in LANGUAGES:
        return locale.split("-")[0]
    return DEFAULT_LANGUAGE


def money(amount: int, currency: str = "$") -> str:
    # es-MX and en-US both group thousands with a comma and put the sign before the number.
    sign = "-" if amount < 0 else ""
    return f"{sign}{currency}{abs(amount):,}"


def text(lang: str, key: str, **params: object) -> str:
    """The text `key` in `lang` with its parameters filled in; a missing id falls back to Spanish, then to the id."""
    template = catalogue(lang).get(key) or catalogue(DEFAULT_LANGUAGE).get(key)
    if template is None:
        return key
    return template.format(**params) if params else template

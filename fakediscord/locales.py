"""Discord's locales: what a client sends as ``locale`` / ``guild_locale``, and the only keys Discord accepts in a
command's ``name_localizations`` and ``description_localizations``.

The list is the spec's ``AvailableLocalesEnum`` (API v10; ``tests/test_fakediscord_locales.py`` compares the two
when the spec is at hand). The developer docs' table of locales lists two fewer (``ar`` and ``he`` came later).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

LOCALES: tuple[str, ...] = (
    "ar", "bg", "cs", "da", "de", "el", "en-GB", "en-US", "es-419", "es-ES", "fi", "fr", "he", "hi", "hr", "hu",
    "id", "it", "ja", "ko", "lt", "nl", "no", "pl", "pt-BR", "ro", "ru", "sv-SE", "th", "tr", "uk", "vi", "zh-CN",
    "zh-TW",
)  # fmt: skip

DEFAULT_LOCALE = "es-419"  # Latin-American Spanish: what a Mexican player's client sends

Problems = list[tuple[str, ...]]

# The fields of a command, an option or a choice whose dictionary is keyed by locale.
_LOCALISED = ("name_localizations", "description_localizations")


def require_locale(locale: str, what: str) -> str:
    """``locale`` if Discord has it; otherwise a ``ValueError`` naming the locales it does have."""
    if locale not in LOCALES:
        raise ValueError(f"{what} locale {locale!r} is not one of Discord's: {', '.join(LOCALES)}")
    return locale


def _check_keys(problems: Problems, path: str, node: Mapping[str, Any]) -> None:
    for field in _LOCALISED:
        localised = node.get(field)
        if not isinstance(localised, Mapping):
            continue
        for key in localised:
            if key not in LOCALES:
                problems.append((f"{path}.{field}.{key}", f"Value \"{key}\" is not a valid enum value.",
                                 "ENUM_TYPE_COERCE"))


def _walk_options(problems: Problems, path: str, options: Iterable[Any]) -> None:
    for i, option in enumerate(options):
        if not isinstance(option, Mapping):
            continue
        here = f"{path}.options.{i}"
        _check_keys(problems, here, option)
        for j, choice in enumerate(option.get("choices") or ()):
            if isinstance(choice, Mapping):
                _check_keys(problems, f"{here}.choices.{j}", choice)
        _walk_options(problems, here, option.get("options") or ())


def localisation_problems(commands: Any) -> Problems:
    """Every localisation key of a bulk registration (a list of commands) that is not a Discord locale, at the
    path Discord's error body puts it (``0.options.2.name_localizations.es-419``)."""
    problems: Problems = []
    if not isinstance(commands, list):
        return problems
    for i, command in enumerate(commands):
        if isinstance(command, Mapping):
            _check_keys(problems, str(i), command)
            _walk_options(problems, str(i), command.get("options") or ())
    return problems

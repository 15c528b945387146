"""Typed slash commands read the way a Discord client reads them, from what the bot registered.

Command, subcommand, option and choice names match in English or in the Spanish of the catalogues (the
`name_localizations` the bot registered), with or without accents and capitals. Values are checked
before anything is sent, as Discord's client does: a word where a number goes, a value outside the
choices, a missing option or one too many answers with a clear `Refusal`, never a Python error.
"""

from __future__ import annotations

import math
import re
import unicodedata
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

# Option types of Discord application commands.
SUB_COMMAND, SUB_GROUP, STRING, INTEGER, BOOLEAN, USER, NUMBER = 1, 2, 3, 4, 5, 6, 10
SUBS = (SUB_COMMAND, SUB_GROUP)
YES = {"1", "true", "yes", "si", "on", "verdadero"}
NO = {"0", "false", "no", "off", "falso"}
WORD = re.compile(r"\w+")
DIGITS = re.compile(r"[-+]?\d+")
# Discord's limits of number options: an INTEGER is within ±(2^53 − 1), a NUMBER (a double) within ±2^53.
INTEGER_LIMIT, NUMBER_LIMIT = 2**53 - 1, 2**53
LIMIT_PAST = 10**31  # what a typed integer of more than 30 digits is compared as: past either limit


class Refusal(Exception):
    """What the Discord client would show instead of sending: a `sandbox.*` text and its parameters."""

    def __init__(self, code: str, **params: object) -> None:
        super().__init__(code, params)
        self.code = code
        self.params = params


def fold(text: str) -> str:
    """Text compared as a person reads it: no accents, no capitals (`Fácil` is `facil`)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).casefold().strip()


def _words(text: str) -> list[str]:
    return WORD.findall(fold(text))


def starts_a_word(typed: str, name: str) -> bool:
    """Whether `typed` is the start of `name` from one of its words on, as Discord's autocomplete matches:
    `velázquez` and `Calle Vel` name "Calle Velázquez", `lupita` names "🤖 Lupita"."""
    wanted = " ".join(_words(typed))
    words = _words(name)
    return bool(wanted) and any(" ".join(words[i:]).startswith(wanted) for i in range(len(words)))


def pick(typed: str, names: list[str]) -> int | None:
    """The index of the name `typed` means: the one it is (accents and capitals aside), else the one it
    starts, else the one a word of which it starts (`starts_a_word`); None when none does. Several at the
    first tier that has any are a `Refusal("ambiguous")`: "comprar" is "Comprar $8,000", not "No comprar"."""
    w = " ".join(_words(typed))
    tiers = (lambda name: fold(name) == fold(typed), lambda name: " ".join(_words(name)).startswith(w),
             lambda name: starts_a_word(typed, name))
    for matches in tiers:
        found = [i for i, name in enumerate(names) if w and matches(name)]
        if len(found) > 1 and matches is not tiers[0]:
            raise Refusal("ambiguous", value=typed, choices=", ".join(names[i] for i in found))
        if found:
            return found[0]
    return None


def locale_of(lang: str) -> str:
    return "es-419" if lang == "es" else "en-US"


def shown(spec: Mapping[str, Any], lang: str) -> str:
    """A command, option or choice name as the player's client shows it."""
    return str((spec.get("name_localizations") or {}).get(locale_of(lang)) or spec["name"])


def _names(spec: Mapping[str, Any]) -> set[str]:
    return {fold(str(spec["name"])), *(fold(str(n)) for n in (spec.get("name_localizations") or {}).values())}


def find(specs: list[Mapping[str, Any]], word: str) -> Mapping[str, Any] | None:
    """The spec named `word`: its own name first, then any translation of it."""
    w = fold(word)
    return next((s for s in specs if fold(str(s["name"])) == w), None) or next(
        (s for s in specs if w in _names(s)), None)


@dataclass
class Command:
    path: str  # the registered name, e.g. "turista new"
    shown: str  # as the player's client shows it, e.g. "turista nueva"
    params: list[Mapping[str, Any]]  # the options of the (sub)command
    raw: dict[str, str]  # option name -> the words typed for it


def resolve(registered: list[Mapping[str, Any]], words: list[str], named: Mapping[str, str], lang: str) -> Command:
    """Which command the words name and which words go to which option (the last free option takes the
    remaining words: property names have spaces)."""
    if not words:
        raise Refusal("no_command", command="")
    spec = find(registered, words[0])
    if spec is None:
        raise Refusal("no_command", command=words[0])
    path, seen, rest = [str(spec["name"])], [shown(spec, lang)], words[1:]
    while any(o["type"] in SUBS for o in spec.get("options") or []):
        subs = [o for o in spec["options"] if o["type"] in SUBS]
        sub = find(subs, rest[0]) if rest else None
        if sub is None:
            raise Refusal("needs_subcommand", command=" ".join(seen), choices=", ".join(shown(s, lang) for s in subs))
        spec, rest = sub, rest[1:]
        path.append(str(sub["name"]))
        seen.append(shown(sub, lang))
    command = Command(" ".join(path), " ".join(seen), [o for o in spec.get("options") or [] if o["type"] not in SUBS],
                      {})
    for key, value in named.items():
        option = find(command.params, key)
        if option is None:
            raise Refusal("no_option", command=command.shown, option=key,
                          options=", ".join(shown(o, lang) for o in command.params) or "—")
        command.raw[str(option["name"])] = value
    free = [o for o in command.params if o["name"] not in command.raw]
    if rest and not free:
        raise Refusal("extra_words", command=command.shown, words=" ".join(rest))
    command.raw.update(_share(free, rest))
    return command


def _share(free: list[Mapping[str, Any]], words: list[str]) -> dict[str, str]:
    """Which typed words go to which option, in order: one word each, except that a text option takes as
    many as it needs (names have spaces), so `/build Glorieta de Bilbao 2` gives the count 2. The options
    after that text option take their words from the end, each only a word that fits it (a number for a
    number), so an optional count left out leaves the whole name to the text."""
    if not words:
        return {}
    text_at = next((i for i, o in enumerate(free) if o["type"] == STRING and not o.get("choices")), len(free) - 1)
    shared: dict[str, str] = {}
    head, words = words[:text_at], words[text_at:]
    for option, word in zip(free, head, strict=False):
        shared[str(option["name"])] = word
    tail: dict[str, str] = {}
    for option in reversed(free[text_at + 1:]):
        if len(words) > 1 and _fits(option, words[-1]):
            tail[str(option["name"])] = words.pop()
    if words and text_at < len(free):
        shared[str(free[text_at]["name"])] = " ".join(words)
    return {**shared, **tail}


def _fits(option: Mapping[str, Any], word: str) -> bool:
    if option["type"] in (INTEGER, NUMBER):
        return bool(re.fullmatch(r"[$]?[\d,_]+(\.\d+)?", word))
    if option["type"] == BOOLEAN:
        return fold(word) in YES | NO
    return True


Autocomplete = Callable[[Mapping[str, Any], str, dict[str, Any]], Awaitable[list[dict[str, Any]]]]


async def typed_options(command: Command, lang: str, people: Mapping[str, Any],
                        autocomplete: Autocomplete) -> dict[str, Any]:
    """The option values to send, typed and checked; `people` maps folded names to the fake's users."""
    options: dict[str, Any] = {}
    for option in command.params:
        name = str(option["name"])
        if name not in command.raw:
            if option.get("required"):
                raise Refusal("missing_option", option=shown(option, lang), command=command.shown)
            continue
        options[name] = await _value(option, command.raw[name], lang, people, autocomplete, options)
    return options


async def _value(option: Mapping[str, Any], value: str, lang: str, people: Mapping[str, Any],
                 autocomplete: Autocomplete, filled: dict[str, Any]) -> Any:
    kind, label = option["type"], shown(option, lang)
    if kind == USER:
        person = people.get(fold(value.lstrip("@")))
        if person is None:
            raise Refusal("not_a_person_option", name=value, names=", ".join(p.name for p in people.values()))
        return person
    if kind == BOOLEAN:
        if fold(value) in YES:
            return True
        if fold(value) in NO:
            return False
        raise Refusal("not_boolean", option=label)
    choices = option.get("choices") or []
    if choices:
        w = fold(value)
        hit = next((c for c in choices if w in _names(c) or w == fold(str(c["value"]))), None)
        starts = [c for c in choices if any(n.startswith(w) for n in _names(c))]
        hit = hit or (starts[0] if len(starts) == 1 else None)
        if hit is None:
            raise Refusal("not_a_choice", value=value, option=label,
                          choices=", ".join(shown(c, lang) for c in choices))
        return hit["value"]
    if option.get("autocomplete"):
        offered = await autocomplete(option, value, dict(filled))
        index = pick(value, [str(c["name"]) for c in offered])
        if index is not None:
            return offered[index]["value"]
        # Nothing offered matches: the client sends the text as typed, and the bot answers for it.
    if kind in (INTEGER, NUMBER):
        return _number(option, value, label)
    if kind == STRING:
        low, high = option.get("min_length", 0), option.get("max_length", 6000)
        if not low <= len(value) <= high:
            raise Refusal("bad_length", option=label, min=low, max=high)
    return value


def _number(option: Mapping[str, Any], value: str, label: str) -> int | float:
    """A number option's value, refused as Discord's client refuses it: not a number, or outside the option's
    limits or Discord's own (an INTEGER within ±(2^53 − 1), a NUMBER within ±2^53), however many digits."""
    integer = option["type"] == INTEGER
    cleaned = value.replace(",", "").replace("$", "").replace("_", "").strip()
    not_one = Refusal("not_integer" if integer else "not_number", option=label, value=value)
    number: int | float
    if DIGITS.fullmatch(cleaned):
        # Compared as an int, never as a float (which holds no int of over 308 digits); Python reads at most
        # 4,300 digits into an int, and a number of more than 30 is past every limit on the side of its sign.
        past = len(cleaned.lstrip("+-").lstrip("0")) > 30
        number = (-LIMIT_PAST if cleaned.startswith("-") else LIMIT_PAST) if past else int(cleaned)
    elif integer:
        raise not_one
    else:
        try:
            number = float(cleaned)  # 1e400 is inf: too big, below
        except ValueError:
            raise not_one from None
        if math.isnan(number):
            raise not_one
    limit = INTEGER_LIMIT if integer else NUMBER_LIMIT
    low, high = max(option.get("min_value", -limit), -limit), min(option.get("max_value", limit), limit)
    if number < low:
        raise Refusal("too_small", option=label, limit=f"{low:,}")
    if number > high:
        raise Refusal("too_big", option=label, limit=f"{high:,}")
    return number if integer else float(number)

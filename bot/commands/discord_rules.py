"""Discord's rules for a command registration, held offline (`turista commands check`): the schema of the bulk
registration's route in Discord's OpenAPI description, when one is given, and the documented rules, which the
schema does not carry (docs: application-commands, "Application Command Naming", "Limits", "Localization")."""

from __future__ import annotations

import json
import os
import unicodedata
from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord

from bot.registration import indexed, named

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

# The route the bulk registration takes, in Discord's OpenAPI description.
PUT_ROUTES = ("/applications/{application_id}/commands",
              "/applications/{application_id}/guilds/{guild_id}/commands")

NAME_MAX = 32
DESCRIPTION_MAX = 100
OPTIONS_MAX = 25
CHOICES_MAX = 25
COMMAND_SIZE_MAX = 8000  # name, description and value characters of a command with everything in it
GLOBAL_CHAT_INPUT_MAX = 100
INTEGER_MAX = 2**53 - 1  # an INTEGER option's values: -(2^53 - 1) to 2^53 - 1
NUMBER_MAX = 2**53  # a NUMBER option's: -2^53 to 2^53
_NAME_MARKS = "-_'"
_DEVANAGARI, _THAI = range(0x0900, 0x0980), range(0x0E00, 0x0E80)

def find_spec(explicit: str | os.PathLike[str] | None = None) -> Path | None:
    """Discord's OpenAPI description to check against: `explicit`, else $TURISTA_DISCORD_SPEC; None if neither
    names one (the check then holds the documented rules only)."""
    named = explicit or os.environ.get("TURISTA_DISCORD_SPEC", "").strip()
    return Path(named) if named else None


def _spec_locales(spec: Mapping[str, Any]) -> set[str]:
    enum = spec.get("components", {}).get("schemas", {}).get("AvailableLocalesEnum", {})
    return {choice["const"] for choice in enum.get("oneOf", []) if "const" in choice}


def _is_type_miss(error: ValidationError, parent: ValidationError) -> bool:
    """Whether `error` only says its branch of a `oneOf` is for another kind of value: another option `type`,
    or null where a number is."""
    path = list(error.absolute_path)
    depth = len(parent.absolute_path)
    if error.validator in ("enum", "const") and len(path) == depth + 1 and path[-1] == "type":
        return True
    return error.validator == "type" and len(path) == depth


def _leaves(error: ValidationError) -> Iterator[ValidationError]:
    """The errors that say what is wrong: inside a `oneOf`, those of the one branch meant for the value."""
    if not error.context:
        yield error
        return
    branches: dict[Any, list[ValidationError]] = defaultdict(list)
    for sub in error.context:
        branches[sub.relative_schema_path[0]].append(sub)
    meant = [errors for errors in branches.values() if not any(_is_type_miss(e, error) for e in errors)]
    if len(meant) != 1:
        yield error
        return
    for sub in meant[0]:
        yield from _leaves(sub)


def schema_problems(commands: Any, spec: Mapping[str, Any], route: str = PUT_ROUTES[0]) -> list[tuple[str, str]]:
    """(path, message) for each place the registration breaks the schema of the PUT `route` in Discord's OpenAPI
    description (Draft 2020-12, its `$ref`s resolved through `referencing`)."""
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    from referencing.jsonschema import DRAFT202012

    registry = Registry().with_resource("urn:discord", Resource.from_contents(spec, default_specification=DRAFT202012))
    pointer = "/paths/" + route.replace("~", "~0").replace("/", "~1").replace("{", "%7B").replace("}", "%7D")
    schema = {"$ref": f"urn:discord#{pointer}/put/requestBody/content/application~1json/schema"}
    problems = []
    for error in Draft202012Validator(schema, registry=registry).iter_errors(commands):
        for leaf in _leaves(error):
            problems.append((".".join(map(str, leaf.absolute_path)), leaf.message))
    return problems


def _name_problem(name: Any) -> str | None:
    """Discord's rule for the name of a command or an option: 1-32 letters, digits (Devanagari and Thai
    included), `-`, `_` or `'`, in lower case where a letter has one."""
    if not isinstance(name, str) or not 1 <= len(name) <= NAME_MAX:
        return f"must be 1 to {NAME_MAX} characters"
    for char in name:
        fine = (char in _NAME_MARKS or unicodedata.category(char)[0] in "LN" or ord(char) in _DEVANAGARI
                or ord(char) in _THAI)
        if not fine:
            return f"{char!r} is not allowed in a name"
    if name != name.lower():
        return "must be in lower case"
    return None


def _localised(node: Mapping[str, Any], field: str) -> list[str]:
    return [node.get(field) or "", *(node.get(f"{field}_localizations") or {}).values()]


def command_size(node: Mapping[str, Any]) -> int:
    """The characters a command counts against its 8,000: the longest localisation of each name and description,
    and the values of choices, through every option."""
    size = max(map(len, _localised(node, "name"))) + max(map(len, _localised(node, "description")))
    for choice in node.get("choices") or ():
        size += max(map(len, _localised(choice, "name"))) + len(str(choice.get("value", "")))
    return size + sum(command_size(option) for option in node.get("options") or ())


def _walk(path: str, node: Mapping[str, Any], locales: set[str]) -> Iterator[tuple[str, str]]:
    for field in ("name_localizations", "description_localizations"):
        for key in node.get(field) or {}:
            if key not in locales:
                yield f"{path}.{field}.{key}", f"{key!r} is not one of Discord's locales"
    for key, name in [("name", node.get("name")), *((f"name_localizations.{k}", v)
                                                   for k, v in (node.get("name_localizations") or {}).items())]:
        problem = _name_problem(name)
        if problem:
            yield f"{path}.{key}", problem
    for key, text in [("description", node.get("description")),
                      *((f"description_localizations.{k}", v)
                        for k, v in (node.get("description_localizations") or {}).items())]:
        if not isinstance(text, str) or not 1 <= len(text) <= DESCRIPTION_MAX:
            yield f"{path}.{key}", f"must be 1 to {DESCRIPTION_MAX} characters"
    options = node.get("options") or []
    if len(options) > OPTIONS_MAX:
        yield f"{path}.options", f"at most {OPTIONS_MAX} options"
    seen_optional = False
    names: dict[str, set[str]] = defaultdict(set)
    for i, option in enumerate(options):
        if option.get("type") not in (1, 2):
            if option.get("required") and seen_optional:
                yield f"{path}.options.{i}.required", "a required option must come before the optional ones"
            seen_optional = seen_optional or not option.get("required")
        for locale, name in [("", option.get("name")), *(option.get("name_localizations") or {}).items()]:
            if name in names[locale]:
                yield f"{path}.options.{i}.name", f"{name!r} names two options{f' in {locale}' if locale else ''}"
            names[locale].add(name)
        bound = {4: INTEGER_MAX, 10: NUMBER_MAX}.get(option.get("type"))
        for key in ("min_value", "max_value"):
            value = option.get(key)
            if bound is not None and isinstance(value, int | float) and not -bound <= value <= bound:
                yield f"{path}.options.{i}.{key}", f"{value} is outside Discord's range, -{bound} to {bound}"
        choices = option.get("choices") or []
        if len(choices) > CHOICES_MAX:
            yield f"{path}.options.{i}.choices", f"at most {CHOICES_MAX} choices"
        for j, choice in enumerate(choices):
            for key in choice.get("name_localizations") or {}:
                if key not in locales:
                    yield (f"{path}.options.{i}.choices.{j}.name_localizations.{key}",
                           f"{key!r} is not one of Discord's locales")
        yield from _walk(f"{path}.options.{i}", option, locales)


def rule_problems(commands: Sequence[Mapping[str, Any]], locales: Iterable[str]) -> list[tuple[str, str]]:
    """(path, message) for each of Discord's documented rules the registration breaks: names, descriptions,
    localisation keys, option order and counts, a command's total size, the number of commands."""
    known = set(locales)
    problems: list[tuple[str, str]] = []
    chat_input = [c for c in commands if c.get("type", 1) == 1]
    if len(chat_input) > GLOBAL_CHAT_INPUT_MAX:
        problems.append(("", f"at most {GLOBAL_CHAT_INPUT_MAX} slash commands, not {len(chat_input)}"))
    seen: set[str] = set()
    for i, command in enumerate(commands):
        if command.get("name") in seen:
            problems.append((f"{i}.name", f"two commands are named {command.get('name')!r}"))
        seen.add(str(command.get("name")))
        problems.extend(_walk(str(i), command, known))
        size = command_size(command)
        if size > COMMAND_SIZE_MAX:
            problems.append((str(i), f"{size} characters, more than Discord's {COMMAND_SIZE_MAX} for a command"))
    return problems


def check(commands: list[dict[str, Any]], spec: Mapping[str, Any] | None = None) -> list[str]:
    """Every problem Discord would refuse the registration for, as `command[i]...field (/name): what`: the schema
    of the PUT route when `spec` is given, and the documented rules always (locales: the spec's list, else
    discord.py's)."""
    locales = _spec_locales(spec) if spec is not None else set()
    problems = schema_problems(commands, spec) if spec is not None else []
    said = {path for path, _ in problems}  # a field both the schema and a documented rule refuse: said once
    problems += [(path, message) for path, message in
                 rule_problems(commands, locales or {locale.value for locale in discord.Locale}) if path not in said]
    out = []
    for path, message in problems:
        where = named(commands, path)
        out.append(f"{indexed(path) or 'the registration'}{f' ({where})' if where else ''}: {message}")
    return out


def load_spec(path: Path) -> dict[str, Any]:
    with path.open(encoding="utf-8") as file:
        return json.load(file)

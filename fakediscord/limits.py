"""Discord's documented size limits. A real Discord answers 400 when one is broken, so the fake does too.

Each check returns a list of ``(path, message)`` problems; :func:`error_body` turns them into Discord's
"Invalid Form Body" shape, nested by path, so discord.py's ``HTTPException`` text reads like the real one.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from .locales import localisation_problems
from .models import walk_components

# (path, message) or (path, message, Discord's error code); the code defaults to the length one.
Problem = tuple[str, str] | tuple[str, str, str]
Problems = list[Problem]

CONTENT_MAX = 2000
CUSTOM_ID_MAX = 100
ROWS_MAX = 5
BUTTONS_PER_ROW_MAX = 5
SELECT_OPTIONS_MAX = 25
OPTION_TEXT_MAX = 100
BUTTON_LABEL_MAX = 80
PLACEHOLDER_MAX = 150
CHOICES_MAX = 25
MODAL_TITLE_MAX = 45
MODAL_COMPONENTS_MAX = 5
MODAL_LABEL_MAX = 45
TEXT_INPUT_VALUE_MAX = 4000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
FILES_MAX = 10
V2_COMPONENTS_MAX = 40
V2_TEXT_MAX = 4000  # characters across a components-v2 message's text displays, as Discord answers past it
IS_COMPONENTS_V2 = 1 << 15
COMMAND_SIZE_MAX = 8000  # characters of a slash command's names, descriptions and values (application-commands)
COMMAND_OPTIONS_MAX = 25
CHAT_INPUT_COMMANDS_MAX = 100
COMMAND_DESCRIPTION_MAX = 100  # a slash command's or an option's description, and each of its localisations: 1-100
SUBCOMMAND, SUBCOMMAND_GROUP = 1, 2
INTEGER, NUMBER = 4, 10
# The values an INTEGER option takes (the spec's Int53Type, which it checks too when it is at hand) and a NUMBER
# option's, which the spec leaves unbounded (application-commands.mdx, "Application Command Option Type"):
# an option's min_value and max_value must be among them.
INTEGER_MAX = 2**53 - 1
NUMBER_MAX = 2**53
# The name of a slash command, subcommand or option (application-commands.mdx, "Application Command Naming"):
# letters, digits, scripts Devanagari and Thai, '-', '_' and "'". Python's `re` knows no \p{...}, so the
# classes are checked by Unicode category and script below.
_NAME_PUNCTUATION = frozenset("-_'")

# Interaction type -> the callback types Discord lets answer it (receiving-and-responding.mdx, "Interaction
# Callback Type"): PONG only for a PING; 6/7 only for component-based interactions (a modal submitted from a
# component's message is one, which is how discord.py's `edit_message` on a modal works); no modal for a modal
# submission or a ping; an autocomplete gets its choices (8) and nothing else. 12 launches an Activity.
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CALLBACKS_FOR: dict[int, frozenset[int]] = {
    PING: frozenset({1}),
    APPLICATION_COMMAND: frozenset({4, 5, 9, 12}),
    MESSAGE_COMPONENT: frozenset({4, 5, 6, 7, 9, 12}),
    AUTOCOMPLETE: frozenset({8}),
    MODAL_SUBMIT: frozenset({4, 5, 6, 7}),
}

_EMBED_TEXT_LIMITS = {"title": 256, "description": 4096}

SELECT_TYPES = {3, 5, 6, 7, 8}


def _too_long(problems: Problems, path: str, value: Any, limit: int) -> None:
    if isinstance(value, str) and len(value) > limit:
        problems.append((path, f"Must be {limit} or fewer in length."))


def check_custom_id(problems: Problems, path: str, component: dict[str, Any], required: bool = True) -> None:
    custom_id = component.get("custom_id")
    if custom_id is None:
        if required:
            problems.append((f"{path}.custom_id", "This field is required"))
        return
    if not custom_id:
        problems.append((f"{path}.custom_id", "Must be between 1 and 100 in length."))
    _too_long(problems, f"{path}.custom_id", custom_id, CUSTOM_ID_MAX)


def check_select(problems: Problems, path: str, select: dict[str, Any]) -> None:
    check_custom_id(problems, path, select)
    _too_long(problems, f"{path}.placeholder", select.get("placeholder"), PLACEHOLDER_MAX)
    if select.get("type") == 3:
        options = select.get("options") or []
        if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
            problems.append((f"{path}.options", f"Must be between 1 and {SELECT_OPTIONS_MAX} in length."))
        for i, option in enumerate(options):
            for key in ("label", "value", "description"):
                _too_long(problems, f"{path}.options.{i}.{key}", option.get(key), OPTION_TEXT_MAX)
    min_values, max_values = select.get("min_values", 1), select.get("max_values", 1)
    if not 0 <= min_values <= 25:
        problems.append((f"{path}.min_values", "int value should be between 0 and 25."))
    if not 1 <= max_values <= 25:
        problems.append((f"{path}.max_values", "int value should be between 1 and 25."))


def check_button(problems: Problems, path: str, button: dict[str, Any]) -> None:
    _too_long(problems, f"{path}.label", button.get("label"), BUTTON_LABEL_MAX)
    style = button.get("style")
    if style == 5:
        if not button.get("url"):
            problems.append((f"{path}.url", "This field is required"))
        if "custom_id" in button:
            problems.append((f"{path}.custom_id", "A link button cannot have a custom_id"))
    elif style != 6:  # premium buttons carry a sku_id instead
        check_custom_id(problems, path, button)


def _check_v1_rows(problems: Problems, components: list[dict[str, Any]]) -> None:
    if len(components) > ROWS_MAX:
        problems.append(("components", f"Must be {ROWS_MAX} or fewer in length."))
    for r, row in enumerate(components):
        path = f"components.{r}"
        if row.get("type") != 1:
            problems.append((f"{path}.type", "Top-level components must be action rows"))
            continue
        children = row.get("components") or []
        if not children:
            problems.append((f"{path}.components", "Must be between 1 and 5 in length."))
        selects = [c for c in children if c.get("type") in SELECT_TYPES]
        if selects and len(children) > 1:
            problems.append((f"{path}.components", "A select menu must be alone in its action row"))
        if len(children) > BUTTONS_PER_ROW_MAX:
            problems.append((f"{path}.components", f"Must be {BUTTONS_PER_ROW_MAX} or fewer in length."))
        for c, child in enumerate(children):
            _check_interactive(problems, f"{path}.components.{c}", child)


def _check_interactive(problems: Problems, path: str, component: dict[str, Any]) -> None:
    kind = component.get("type")
    if kind == 2:
        check_button(problems, path, component)
    elif kind in SELECT_TYPES:
        check_select(problems, path, component)


def _check_v2_tree(problems: Problems, components: list[dict[str, Any]], path: str, count: list[int]) -> None:
    for i, component in enumerate(components):
        here = f"{path}.{i}"
        count[0] += 1
        _check_interactive(problems, here, component)
        if component.get("type") == 1 and len(component.get("components") or []) > BUTTONS_PER_ROW_MAX:
            problems.append((f"{here}.components", f"Must be {BUTTONS_PER_ROW_MAX} or fewer in length."))
        _check_v2_tree(problems, component.get("components") or [], f"{here}.components", count)
        accessory = component.get("accessory")
        if isinstance(accessory, dict):
            _check_v2_tree(problems, [accessory], f"{here}.accessory", count)


def _check_unique_custom_ids(problems: Problems, components: list[dict[str, Any]]) -> None:
    seen: set[str] = set()
    for component in walk_components(components):
        custom_id = component.get("custom_id")
        if custom_id is None:
            continue
        if custom_id in seen:
            problems.append(("components", f"Component custom id cannot be duplicated: {custom_id}"))
        seen.add(custom_id)


def _check_embeds(problems: Problems, embeds: list[dict[str, Any]]) -> None:
    if len(embeds) > EMBEDS_MAX:
        problems.append(("embeds", f"Must be {EMBEDS_MAX} or fewer in length."))
    total = 0
    for e, embed in enumerate(embeds):
        for key, limit in _EMBED_TEXT_LIMITS.items():
            _too_long(problems, f"embeds.{e}.{key}", embed.get(key), limit)
            total += len(embed.get(key) or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append((f"embeds.{e}.fields", "Must be 25 or fewer in length."))
        for f, fld in enumerate(fields):
            _too_long(problems, f"embeds.{e}.fields.{f}.name", fld.get("name"), 256)
            _too_long(problems, f"embeds.{e}.fields.{f}.value", fld.get("value"), 1024)
            total += len(fld.get("name") or "") + len(fld.get("value") or "")
        footer = (embed.get("footer") or {}).get("text")
        _too_long(problems, f"embeds.{e}.footer.text", footer, 2048)
        author = (embed.get("author") or {}).get("name")
        _too_long(problems, f"embeds.{e}.author.name", author, 256)
        total += len(footer or "") + len(author or "")
    if total > EMBED_TOTAL_MAX:
        problems.append(("embeds", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}"))


def check_message(payload: dict[str, Any], *, file_count: int = 0) -> Problems:
    """Problems with a message create/edit body (content, embeds, components, files)."""
    problems: Problems = []
    flags = payload.get("flags") or 0
    _too_long(problems, "content", payload.get("content"), CONTENT_MAX)
    _check_embeds(problems, payload.get("embeds") or [])
    components = payload.get("components") or []
    if flags & (1 << 15):
        if payload.get("content") or payload.get("embeds"):
            problems.append(("content", "Cannot send content or embeds with IS_COMPONENTS_V2"))
        if payload.get("poll") or payload.get("sticker_ids"):
            problems.append(("poll" if payload.get("poll") else "sticker_ids",
                             "Cannot send polls or stickers with IS_COMPONENTS_V2"))
        count = [0]
        _check_v2_tree(problems, components, "components", count)
        if count[0] > V2_COMPONENTS_MAX:
            problems.append(("components", f"Must be {V2_COMPONENTS_MAX} or fewer components in total."))
        text = sum(len(c.get("content") or "") for c in walk_components(components) if c.get("type") == 10)
        if text > V2_TEXT_MAX:
            problems.append(("components", f"The text of the text displays must be {V2_TEXT_MAX} or fewer in length "
                                           f"in all ({text})."))
    else:
        _check_v1_rows(problems, components)
    _check_unique_custom_ids(problems, components)
    problems += check_allowed_mentions(payload)
    if file_count > FILES_MAX:
        problems.append(("files", f"Must be {FILES_MAX} or fewer in length."))
    return problems


def is_empty(payload: dict[str, Any], file_count: int) -> bool:
    """A message with nothing to show: Discord's 50006 "Cannot send an empty message"."""
    return not (payload.get("content") or payload.get("embeds") or payload.get("components") or file_count
                or payload.get("sticker_ids") or payload.get("poll"))


def check_kept_flags(old_flags: int, payload: dict[str, Any], *, prefix: str = "") -> Problems:
    """An edit may not take IS_COMPONENTS_V2 off a message that has it (components-reference.mdx: "Once a
    message has been sent with this flag, it can't be removed from that message")."""
    flags = payload.get("flags")
    if old_flags & IS_COMPONENTS_V2 and isinstance(flags, int) and not flags & IS_COMPONENTS_V2:
        return [(f"{prefix}flags", "The IS_COMPONENTS_V2 flag cannot be removed from a message",
                 "MESSAGE_CANNOT_REMOVE_COMPONENTS_V2_FLAG")]
    return []


def check_allowed_mentions(payload: dict[str, Any], *, prefix: str = "") -> Problems:
    """``parse`` excludes ``users`` (``roles``) when it lists them and an id list of them is given too
    (message.mdx, "Allowed Mentions Object"); an empty or null id list is allowed."""
    mentions = payload.get("allowed_mentions")
    if not isinstance(mentions, dict) or not isinstance(mentions.get("parse"), list):
        return []
    return [(f"{prefix}allowed_mentions.{kind}", f'parse:["{kind}"] and {kind}: [ids...] are mutually exclusive.',
             "MESSAGE_ALLOWED_MENTIONS_PARSE_EXCLUSIVE")
            for kind in ("users", "roles") if kind in mentions["parse"] and mentions.get(kind)]


def check_callback_type(interaction_type: int, callback_type: Any, *, on_message: bool) -> Problems:
    """Whether ``callback_type`` may answer an interaction of ``interaction_type`` (see ``CALLBACKS_FOR``)."""
    allowed = CALLBACKS_FOR.get(interaction_type, frozenset())
    if callback_type not in allowed:
        return [("type", f"Interaction callback type {callback_type!r} is not valid for interaction type "
                         f"{interaction_type}; it takes one of {tuple(sorted(allowed))}.",
                 "INTERACTION_CALLBACK_TYPE_INVALID")]
    if callback_type in (6, 7) and not on_message:
        return [("type", f"Callback type {callback_type} needs an interaction on a message",
                 "INTERACTION_CALLBACK_TYPE_INVALID")]
    return []


def _is_name_character(char: str) -> bool:
    if char in _NAME_PUNCTUATION:
        return True
    category = unicodedata.category(char)
    if category[0] in "LN":
        return True
    # \p{sc=Deva} and \p{sc=Thai}: their combining vowel signs are marks (M*), not letters.
    name = unicodedata.name(char, "")
    return category[0] == "M" and (name.startswith("DEVANAGARI") or name.startswith("THAI"))


def name_problem(name: Any) -> str | None:
    r"""Why ``name`` is not a valid slash command, subcommand or option name, or ``None`` (application-
    commands.mdx: ``^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$``, lower case where a letter has one)."""
    if not isinstance(name, str) or not 1 <= len(name) <= 32:
        return "Must be between 1 and 32 in length."
    if not all(_is_name_character(char) for char in name):
        return "Command name is invalid"
    if name != name.lower():
        return "Command name is invalid: letters with a lower-case form must be lower case"
    return None


def _longest(item: dict[str, Any], key: str) -> int:
    """A field's size as the 8,000 counts it: its longest form, default or localisation."""
    sizes = [len(str(item.get(key) or ""))]
    localizations = item.get(f"{key}_localizations")
    if isinstance(localizations, dict):
        sizes += [len(str(value or "")) for value in localizations.values()]
    return max(sizes)


def command_size(item: dict[str, Any]) -> int:
    """The characters a slash command counts against Discord's 8,000 (``COMMAND_SIZE_MAX``): the longest form of
    each name and description, and the name and value of each choice, through every option."""
    size = _longest(item, "name") + _longest(item, "description")
    for choice in item.get("choices") or []:
        if isinstance(choice, dict):
            size += _longest(choice, "name") + len(str(choice.get("value", "")))
    for option in item.get("options") or []:
        if isinstance(option, dict):
            size += command_size(option)
    return size


def _check_names(problems: Problems, path: str, item: dict[str, Any]) -> None:
    problem = name_problem(item.get("name"))
    if problem:
        problems.append((f"{path}.name", problem, "APPLICATION_COMMAND_INVALID_NAME"))
    localizations = item.get("name_localizations")
    if isinstance(localizations, dict):
        for locale, value in localizations.items():
            problem = name_problem(value)
            if problem:
                problems.append((f"{path}.name_localizations.{locale}", problem, "APPLICATION_COMMAND_INVALID_NAME"))


def _check_descriptions(problems: Problems, path: str, item: dict[str, Any]) -> None:
    """A slash command's or an option's description, and each localisation of it: 1-100 characters (the spec
    lets a command's be empty, for user and message commands, which have none)."""
    texts = [("description", item.get("description"))]
    localizations = item.get("description_localizations")
    if isinstance(localizations, dict):
        texts += [(f"description_localizations.{locale}", text) for locale, text in localizations.items()]
    for field, text in texts:
        if not isinstance(text, str) or not 1 <= len(text) <= COMMAND_DESCRIPTION_MAX:
            problems.append((f"{path}.{field}", f"Must be between 1 and {COMMAND_DESCRIPTION_MAX} in length.",
                             "BASE_TYPE_BAD_LENGTH"))


def _check_bounds(problems: Problems, path: str, option: dict[str, Any]) -> None:
    kind = option.get("type")
    bound = {INTEGER: INTEGER_MAX, NUMBER: NUMBER_MAX}.get(kind)
    if bound is None:
        return
    number = "int" if kind == INTEGER else "float"
    for key in ("min_value", "max_value"):
        value = option.get(key)
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        if value > bound:
            problems.append((f"{path}.{key}", f"{number} value should be less than or equal to {bound}.",
                             "NUMBER_TYPE_MAX"))
        elif value < -bound:
            problems.append((f"{path}.{key}", f"{number} value should be greater than or equal to {-bound}.",
                             "NUMBER_TYPE_MIN"))


def _check_localised_option_names(problems: Problems, path: str, options: list[Any]) -> None:
    """application-commands.mdx, "Localization": an option's localised name must differ from the other options'
    default names, and from their names in that locale (the later of two options that share one is refused)."""
    named = [(i, option) for i, option in enumerate(options) if isinstance(option, dict)]
    for i, option in named:
        localizations = option.get("name_localizations")
        if not isinstance(localizations, dict):
            continue
        for locale, name in localizations.items():
            defaults = {other.get("name") for j, other in named if j != i}
            earlier = {other["name_localizations"].get(locale) for j, other in named
                       if j < i and isinstance(other.get("name_localizations"), dict)}
            if name in defaults | earlier:
                problems.append((f"{path}.{i}.name_localizations.{locale}",
                                 "Application command option names must be unique",
                                 "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS"))


def _check_options(problems: Problems, path: str, options: list[Any], depth: int) -> None:
    if len(options) > COMMAND_OPTIONS_MAX:
        problems.append((path, f"Must be {COMMAND_OPTIONS_MAX} or fewer in length."))
    names: set[Any] = set()
    optional_seen = False
    _check_localised_option_names(problems, path, options)
    for i, option in enumerate(options):
        if not isinstance(option, dict):
            continue
        here = f"{path}.{i}"
        _check_names(problems, here, option)
        _check_descriptions(problems, here, option)
        if option.get("name") in names:
            problems.append((f"{here}.name", "Application command option names must be unique",
                             "APPLICATION_COMMAND_OPTION_NAME_ALREADY_EXISTS"))
        names.add(option.get("name"))
        kind = option.get("type")
        if kind in (SUBCOMMAND, SUBCOMMAND_GROUP):
            # Groups hold subcommands, subcommands hold values: two levels below a command at most.
            if kind == SUBCOMMAND_GROUP and depth > 0:
                problems.append((f"{here}.type", "A subcommand group can only be at the top level",
                                 "APPLICATION_COMMAND_OPTION_TYPE_INVALID"))
            _check_options(problems, f"{here}.options", option.get("options") or [], depth + 1)
            continue
        if option.get("required"):
            if optional_seen:
                problems.append((f"{here}.required", "Required options must be placed before non-required options",
                                 "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID_ORDER"))
        else:
            optional_seen = True
        _check_bounds(problems, here, option)
        choices = option.get("choices") or []
        if len(choices) > CHOICES_MAX:
            problems.append((f"{here}.choices", f"Must be {CHOICES_MAX} or fewer in length."))
        if choices and option.get("autocomplete"):
            problems.append((f"{here}.autocomplete", "Autocomplete cannot be set with choices",
                             "APPLICATION_COMMAND_AUTOCOMPLETE_CHOICES_EXCLUSIVE"))


def check_commands(commands: Any) -> Problems:
    """The rules of a bulk command registration the schema does not carry (application-commands.mdx): names,
    unique names (localised ones too), descriptions, option order and counts, choices, integer and number
    bounds, 8,000 characters a slash command, and Discord's locales as localisation keys."""
    problems: Problems = []
    if not isinstance(commands, list):
        return problems
    seen: set[tuple[Any, Any]] = set()
    chat_input = 0
    for i, command in enumerate(commands):
        if not isinstance(command, dict):
            continue
        kind = command.get("type", 1)
        if (kind, command.get("name")) in seen:
            problems.append((f"{i}.name", "Application command names must be unique",
                             "APPLICATION_COMMANDS_DUPLICATE_NAME"))
        seen.add((kind, command.get("name")))
        if kind != 1:
            continue  # user and message commands may be mixed case with spaces
        chat_input += 1
        _check_names(problems, str(i), command)
        _check_descriptions(problems, str(i), command)
        _check_options(problems, f"{i}.options", command.get("options") or [], 0)
        size = command_size(command)
        if size > COMMAND_SIZE_MAX:
            problems.append((str(i), f"Command exceeds maximum size ({COMMAND_SIZE_MAX})",
                             "APPLICATION_COMMAND_TOO_LARGE"))
    if chat_input > CHAT_INPUT_COMMANDS_MAX:
        problems.append(("", f"Must be {CHAT_INPUT_COMMANDS_MAX} or fewer chat input commands.",
                         "APPLICATION_COMMANDS_TOO_MANY"))
    # The schema lets any key through a localisation; Discord takes its own locales only.
    return problems + localisation_problems(commands)


def _check_text_input(problems: Problems, path: str, text_input: dict[str, Any], *, in_label: bool) -> None:
    check_custom_id(problems, path, text_input)
    # Inside a Label component the text input's own label is deprecated, so only required outside one.
    if not in_label and not text_input.get("label"):
        problems.append((f"{path}.label", "This field is required"))
    _too_long(problems, f"{path}.label", text_input.get("label"), MODAL_LABEL_MAX)
    _too_long(problems, f"{path}.value", text_input.get("value"), TEXT_INPUT_VALUE_MAX)
    _too_long(problems, f"{path}.placeholder", text_input.get("placeholder"), OPTION_TEXT_MAX)
    if text_input.get("style", 1) not in (1, 2):
        problems.append((f"{path}.style", "Value must be one of (1, 2)."))
    min_length, max_length = text_input.get("min_length", 0), text_input.get("max_length", 4000)
    if not 0 <= min_length <= TEXT_INPUT_VALUE_MAX:
        problems.append((f"{path}.min_length", "int value should be between 0 and 4000."))
    if not 1 <= max_length <= TEXT_INPUT_VALUE_MAX:
        problems.append((f"{path}.max_length", "int value should be between 1 and 4000."))


def check_modal(data: dict[str, Any]) -> Problems:
    """Problems with a modal (callback type 9) body."""
    problems: Problems = []
    title = data.get("title")
    if not title:
        problems.append(("data.title", "This field is required"))
    _too_long(problems, "data.title", title, MODAL_TITLE_MAX)
    check_custom_id(problems, "data", data)
    components = data.get("components") or []
    if not 1 <= len(components) <= MODAL_COMPONENTS_MAX:
        problems.append(("data.components", f"Must be between 1 and {MODAL_COMPONENTS_MAX} in length."))
    for i, component in enumerate(components):
        path = f"data.components.{i}"
        kind = component.get("type")
        if kind == 1:
            children = component.get("components") or []
            if len(children) != 1:
                problems.append((f"{path}.components", "Must be 1 or fewer in length."))
            for c, child in enumerate(children):
                if child.get("type") == 4:
                    _check_text_input(problems, f"{path}.components.{c}", child, in_label=False)
                else:
                    _check_interactive(problems, f"{path}.components.{c}", child)
        elif kind == 18:
            _too_long(problems, f"{path}.label", component.get("label"), MODAL_LABEL_MAX)
            _too_long(problems, f"{path}.description", component.get("description"), OPTION_TEXT_MAX)
            child = component.get("component") or {}
            if child.get("type") == 4:
                _check_text_input(problems, f"{path}.component", child, in_label=True)
            else:
                _check_interactive(problems, f"{path}.component", child)
    _check_unique_custom_ids(problems, components)
    return problems


def check_choices(data: dict[str, Any]) -> Problems:
    """Problems with an autocomplete result (callback type 8) body."""
    problems: Problems = []
    choices = data.get("choices") or []
    if len(choices) > CHOICES_MAX:
        problems.append(("data.choices", f"Must be {CHOICES_MAX} or fewer in length."))
    for i, choice in enumerate(choices):
        _too_long(problems, f"data.choices.{i}.name", choice.get("name"), OPTION_TEXT_MAX)
        _too_long(problems, f"data.choices.{i}.value", choice.get("value"), OPTION_TEXT_MAX)
    return problems


def error_body(problems: Problems) -> dict[str, Any]:
    """Discord's 50035 "Invalid Form Body" error, nested by path."""
    errors: dict[str, Any] = {}
    for problem in problems:
        path, message = problem[0], problem[1]
        code = problem[2] if len(problem) > 2 else "BASE_TYPE_MAX_LENGTH"
        node = errors
        for part in path.split(".") if path else ():  # "" is the request itself: `_errors` at the root
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}

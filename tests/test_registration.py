"""The command registration the bot sends at every start (`PUT /applications/{id}/commands`), checked offline
against Discord's own description of its API: its OpenAPI spec (`fakediscord.spec`) and the documented rules the
schema does not carry (`fakediscord.limits.check_commands`). The limits are read from the spec, not copied."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.commands import league, table
from bot.commands.registration import COMMANDS_ROUTE, registration_payload, registration_problems
from fakediscord import limits
from fakediscord.spec import Spec, problems_of, schema_limit

INTEGER, NUMBER = 4, 10


@pytest.fixture
async def payload() -> list[dict[str, Any]]:
    return await registration_payload()


def options(items: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for item in items:
        for option in item.get("options") or []:
            yield option
            yield from options([option])


async def test_the_whole_registration_is_valid_for_the_spec(discord_spec: Spec, payload: list[dict[str, Any]]) -> None:
    """Rule: the body of the bulk overwrite is what the spec's `PUT /applications/{id}/commands` accepts."""
    assert payload, "no commands"
    assert discord_spec.route("PUT", "/api/v10/applications/1/commands") == COMMANDS_ROUTE
    assert discord_spec.problems("PUT", "/applications/1/commands", payload) == []
    assert discord_spec.problems("PUT", "/applications/1/guilds/2/commands", payload) == []
    assert registration_problems(payload, discord_spec) == []


async def test_the_registration_keeps_the_documented_rules(payload: list[dict[str, Any]]) -> None:
    """Rule: names as Discord's naming regex allows (lower case), unique; options counted, required ones first;
    at most 8,000 characters a command (application-commands.mdx)."""
    assert limits.check_commands(payload) == []


async def test_integer_bounds_are_within_the_specs_integers(discord_spec: Spec, payload: list[dict[str, Any]]) -> None:
    """Rule: every integer bound the bot declares is within the spec's `Int53Type`, ±(2^53 − 1)."""
    low, high = schema_limit(discord_spec, "Int53Type", "minimum"), schema_limit(discord_spec, "Int53Type", "maximum")
    bounds = [(o["name"], key, o[key]) for o in options(payload) if o["type"] in (INTEGER, NUMBER)
              for key in ("min_value", "max_value") if key in o]
    assert bounds, "no bounded integer option: the test checks nothing"
    assert [b for b in bounds if not low <= b[2] <= high] == []
    # The constants behind them, as the declarations name them.
    assert max(league.MAX_NUMBER, table.MAX_START_CASH) <= high


async def test_text_limits_are_the_specs(discord_spec: Spec, payload: list[dict[str, Any]]) -> None:
    """Rule: names, descriptions and string choices within the lengths the spec gives them."""
    command = "ApplicationCommandUpdateRequest"
    name_max = schema_limit(discord_spec, command, "properties", "name", "maxLength")
    description_max = schema_limit(discord_spec, command, "properties", "description", "maxLength")
    items = [*payload, *options(payload)]
    assert all(len(item["name"]) <= name_max for item in items)
    assert all(len(item.get("description") or "") <= description_max for item in items)
    for item in items:
        for locale, text in (item.get("name_localizations") or {}).items():
            assert len(text) <= name_max, (item["name"], locale, text)
        for locale, text in (item.get("description_localizations") or {}).items():
            assert len(text) <= description_max, (item["name"], locale, text)


async def test_one_past_the_specs_integers_is_refused(discord_spec: Spec, payload: list[dict[str, Any]]) -> None:
    """Rule, and proof the check above can fail: a bound of 2^53 (what the bot once declared) is refused, with
    Discord's error at the option's field."""
    high = schema_limit(discord_spec, "Int53Type", "maximum")
    broken = [dict(command) for command in payload]
    target = next(i for i, c in enumerate(broken) if any(o["type"] == INTEGER and "max_value" in o
                                                         for o in options([c])))

    def raise_bound(item: dict[str, Any]) -> dict[str, Any]:
        item = dict(item)
        if item.get("type") == INTEGER and "max_value" in item:
            item["max_value"] = high + 1
        item["options"] = [raise_bound(o) for o in item.get("options") or []]
        return item

    broken[target] = raise_bound(broken[target])
    found = registration_problems(broken, discord_spec)
    assert found and all(code == "NUMBER_TYPE_MAX" for _, _, code in found)
    assert all(path.startswith(f"{target}.options.") and path.endswith(".max_value") for path, _, _ in found)
    single = discord_spec.schema_validator("ApplicationCommandUpdateRequest")
    assert problems_of(single, broken[target])

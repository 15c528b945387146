"""Discord's locales: the fake's list is the spec's, the fake speaks only those, every one of them maps to a
language of the bot by one rule, and the registration localises into Discord's locales only, both Spanish ones
included."""

from __future__ import annotations

import asyncio
import os
import re
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.commands.registration import registration_payload
from fakediscord import FakeDiscord
from fakediscord.locales import DEFAULT_LOCALE, LOCALES, localisation_problems
from fakediscord.spec import Spec, default_spec_path
from words import language_of

REFERENCE = default_spec_path().parent  # Discord's published description, beside the repository


def reference(name: str) -> Path:
    """A page of Discord's published description: missing, the test is skipped, or fails under CI."""
    path = REFERENCE / name
    if not path.is_file():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"Discord's {name} is missing at {path}")
        pytest.skip(f"Discord's {name} is not at {path}")
    return path


def test_the_fakes_locales_are_the_specs(discord_spec: Spec) -> None:
    enum = discord_spec.schema("AvailableLocalesEnum")["oneOf"]
    assert set(LOCALES) == {choice["const"] for choice in enum} and len(LOCALES) == len(enum)


def test_the_docs_table_of_locales_is_within_the_list() -> None:
    text = reference("docs/api-reference.mdx").read_text(encoding="utf-8")
    table = text.split("## Locales", 1)[1]
    documented = set(re.findall(r"^\| ([a-z]{2}(?:-[A-Z0-9]+)?)\s+\|", table, flags=re.MULTILINE))
    assert len(documented) >= 30 and documented <= set(LOCALES)


# The rule (words.language_of): a locale of a language the bot speaks gets it; every other Discord locale gets
# English, the language of the commands' default names, which Discord shows every client it has no
# localisation for; no locale at all gets Spanish.
SPANISH = {"es-419", "es-ES"}
ENGLISH_OWN = {"en-US", "en-GB"}


@pytest.mark.parametrize("locale", LOCALES)
def test_every_discord_locale_maps_to_a_language_of_the_bot(locale: str) -> None:
    expected = "es" if locale in SPANISH else "en"
    assert language_of(locale) == expected


def test_the_rule_names_the_spanish_and_english_locales_and_no_locale_is_spanish() -> None:
    assert {loc for loc in LOCALES if loc.startswith("es")} == SPANISH
    assert {loc for loc in LOCALES if loc.startswith("en")} == ENGLISH_OWN
    assert language_of(None) == language_of("") == language_of("None") == "es"


def test_the_fake_speaks_only_discords_locales() -> None:
    fake = FakeDiscord()
    guild = fake.add_guild("Mesa")
    assert guild.locale == DEFAULT_LOCALE == "es-419" and fake.add_user("Ana", guild).locale == "es-419"
    for locale in ("es-ES", "en-GB", "en-US", "pt-BR"):
        assert fake.add_user(f"u-{locale}", guild, locale=locale).locale == locale
    with pytest.raises(ValueError, match="es-MX"):
        fake.add_user("Beto", guild, locale="es-MX")  # Mexico's Spanish is es-419 to Discord
    with pytest.raises(ValueError, match="en"):
        fake.add_guild("Guild", locale="en")


def localised_keys(node: Any, found: set[str]) -> set[str]:
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("name_localizations", "description_localizations") and value:
                found |= set(value)
            localised_keys(value, found)
    elif isinstance(node, list):
        for item in node:
            localised_keys(item, found)
    return found


def every_localised(node: Any) -> list[dict[str, str]]:
    out: list[dict[str, str]] = []
    if isinstance(node, dict):
        if node.get("name_localizations"):
            out.append(node["name_localizations"])
        for value in node.values():
            out += every_localised(value)
    elif isinstance(node, list):
        for item in node:
            out += every_localised(item)
    return out


def test_the_registration_localises_into_discord_locales_with_both_spanish_ones() -> None:
    commands = asyncio.run(registration_payload())
    keys = localised_keys(commands, set())
    assert keys <= set(LOCALES) and keys >= SPANISH, keys
    assert localisation_problems(commands) == []
    # Latin-American and Spanish clients alike see every Spanish name.
    for names in every_localised(commands):
        if "es-ES" in names or "es-419" in names:
            assert names.get("es-ES") == names.get("es-419"), names


async def test_the_fakes_registration_refuses_a_key_that_is_not_a_locale() -> None:
    async with FakeDiscord() as fake:
        url = f"{fake.base_url}/applications/{fake.state.application_id}/commands"
        body = [{"name": "roll", "description": "Roll", "name_localizations": {"es-419": "tirar"}, "options": [
            {"type": 4, "name": "count", "description": "How many", "name_localizations": {"es-MX": "cuantos"},
             "choices": [{"name": "one", "value": 1, "name_localizations": {"sp": "uno"}}]}]}]
        async with aiohttp.ClientSession() as session, session.put(url, json=body) as response:
            answer = await response.json()
        assert response.status == 400 and answer["code"] == 50035
        option = answer["errors"]["0"]["options"]["0"]
        assert "es-MX" in option["name_localizations"] and "sp" in option["choices"]["0"]["name_localizations"]
        assert fake.commands() == [] and fake.state.command_syncs == 0  # nothing of it is registered
        assert [e.code for e in fake.errors] == [50035]
        fake.state.errors.clear()
        body[0]["options"][0]["name_localizations"] = {"es-ES": "cuantos", "es-419": "cuantos"}
        body[0]["options"][0]["choices"][0]["name_localizations"] = {"en-GB": "one"}
        async with aiohttp.ClientSession() as session, session.put(url, json=body) as response:
            assert response.status == 200
        assert [c["name"] for c in fake.commands()] == ["roll"]

"""What the bot registers with Discord, built without Discord: the body of `PUT /applications/{id}/commands`
exactly as discord.py's command tree sends it at `tree.sync()`, translations included. A check of the
registration (the tests, `turista commands check`) reads it here instead of connecting, and `turista commands
sync` sends it from the same tree."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot import registration
from bot.face.i18n import CatalogueTranslator

if TYPE_CHECKING:
    from fakediscord.spec import Spec

# The route discord.py's `CommandTree.sync()` PUTs to (the guild route takes the same body).
COMMANDS_ROUTE = "/applications/{application_id}/commands"


async def command_tree(client: discord.Client, *, guild: int | None = None,
                       commands: Sequence[app_commands.Command[Any, ..., Any] | app_commands.Group] | None = None,
                       ) -> app_commands.CommandTree[Any]:
    """A tree of `client` with every command (or `commands`) and the catalogues' translations, as the bot's own;
    with `guild`, the commands copied to that guild, as `TURISTA_DEV_GUILD` does."""
    from bot.commands import all_commands

    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    await tree.set_translator(CatalogueTranslator())
    for command in all_commands() if commands is None else commands:
        tree.add_command(command)
    if guild is not None:
        tree.copy_global_to(guild=discord.Object(guild))
    return tree


async def registration_payload(
    commands: Sequence[app_commands.Command[Any, ..., Any] | app_commands.Group] | None = None,
) -> list[dict[str, Any]]:
    """The command payloads the bot's tree would sync (default: `bot.commands.all_commands()`), with every
    locale's names and descriptions from the catalogues, as `CommandTree.sync` builds them. No network: the
    client is never logged in."""
    client = discord.Client(intents=discord.Intents.none())
    try:
        return await registration.payload(await command_tree(client, commands=commands))
    finally:
        await client.close()


def registration_problems(payload: list[dict[str, Any]], spec: Spec | None) -> list[tuple[str, ...]]:
    """What Discord would refuse in a registration, as ``(field path, message, code)``: the spec's schema for
    the bulk overwrite, when ``spec`` is given (`fakediscord.spec.load_spec()`), and the documented rules the
    schema does not carry (names, descriptions, sizes, option order, bounds, locales:
    `fakediscord.limits.check_commands`). A field both refuse (an integer bound) is said once, as the schema
    says it. Empty: valid."""
    from fakediscord import limits

    found: list[tuple[str, ...]] = []
    if spec is not None:
        found += spec.problems("PUT", COMMANDS_ROUTE.format(application_id=0), payload)
    said = {problem[0] for problem in found}
    found += [problem for problem in limits.check_commands(payload) if problem[0] not in said]
    return found


def problem_lines(payload: list[dict[str, Any]], spec: Spec | None) -> list[str]:
    """`registration_problems` in a reader's words, as `turista commands check` prints them: `command[0].options[6]
    .max_value (/turista ranking, option season): <message>`."""
    return [registration.reason(payload, path, message) for path, message, *_ in registration_problems(payload, spec)]


__all__ = ["COMMANDS_ROUTE", "command_tree", "problem_lines", "registration_payload", "registration_problems"]

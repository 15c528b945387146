"""What the bot registers with Discord, built without Discord: the body of `PUT /applications/{id}/commands`
exactly as discord.py's command tree sends it at `tree.sync()`, translations included. A check of the
registration (the tests, an admin's command line) reads it here instead of connecting."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.face.i18n import CatalogueTranslator

# The route discord.py's `CommandTree.sync()` PUTs to (the guild route takes the same body).
COMMANDS_ROUTE = "/applications/{application_id}/commands"


async def registration_payload(
    commands: Sequence[app_commands.Command | app_commands.Group] | None = None,
) -> list[dict[str, Any]]:
    """The command payloads the bot's tree would sync (default: `bot.commands.all_commands()`), with every
    locale's names and descriptions from the catalogues, as `CommandTree.sync` builds them. No network: the
    client is never logged in."""
    from bot.commands import all_commands

    client = discord.Client(intents=discord.Intents.none())
    try:
        tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
        translator = CatalogueTranslator()
        await tree.set_translator(translator)
        for command in all_commands() if commands is None else commands:
            tree.add_command(command)
        # The same calls as `CommandTree.sync`, which then PUTs this list.
        return [await command.get_translated_payload(tree, translator) for command in tree.get_commands()]
    finally:
        await client.close()


__all__ = ["COMMANDS_ROUTE", "registration_payload"]

"""The registration of every slash command, built without Discord: what a start would send (`turista commands
check` checks it, `turista commands sync` sends it)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot import registration
from bot.commands import all_commands
from bot.face.i18n import CatalogueTranslator


async def command_tree(client: discord.Client, *, guild: int | None = None) -> app_commands.CommandTree[Any]:
    """A tree of `client` with every command and the catalogues' translations, as the bot's own; with `guild`,
    the commands copied to that guild, as `TURISTA_DEV_GUILD` does."""
    tree: app_commands.CommandTree[Any] = app_commands.CommandTree(client)
    await tree.set_translator(CatalogueTranslator())
    for command in all_commands():
        tree.add_command(command)
    if guild is not None:
        tree.copy_global_to(guild=discord.Object(guild))
    return tree


async def registration_payload() -> list[dict[str, Any]]:
    """The JSON body of the global registration (`PUT /applications/{id}/commands`), offline."""
    client = discord.Client(intents=discord.Intents.none())
    return await registration.payload(await command_tree(client))

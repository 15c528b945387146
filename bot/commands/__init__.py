"""Slash commands: the `/turista` group for the table and the league, and short top-level commands to play."""

from __future__ import annotations

from discord import app_commands

from bot.commands import league  # noqa: F401  (its commands join the /turista group)
from bot.commands.game import PLAY_COMMANDS
from bot.commands.person import notify_
from bot.commands.table import turista


def all_commands() -> list[app_commands.Command | app_commands.Group]:
    return [turista, *PLAY_COMMANDS, notify_]


__all__ = ["all_commands"]

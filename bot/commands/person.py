"""`/notify` (es `/avisos`): how a person wants their reminders, for every game they play (a person's setting,
not a table's: a command of its own beside `/turista`, whose 25 subcommands are Discord's limit)."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.face.i18n import ls
from bot.handlers import notify
from bot.store import NOTIFY_MODES

NOTIFY_CHOICES = [app_commands.Choice(name=ls(m, f"choice.notify.{m}"), value=m) for m in NOTIFY_MODES]


@app_commands.command(name=ls("notify", "notify.name"),
                      description=ls("Your reminders: in the channel, by direct message or none; quiet hours",
                                     "notify.desc"))
@app_commands.rename(mode=ls("mode", "opt.notify_mode.name"), quiet_from=ls("quiet_from", "opt.quiet_from.name"),
                     quiet_to=ls("quiet_to", "opt.quiet_to.name"), time_zone=ls("time_zone", "opt.time_zone.name"))
@app_commands.describe(mode=ls("Where your reminders go", "opt.notify_mode.desc"),
                       quiet_from=ls("Hour your quiet hours start (0-23, your time)", "opt.quiet_from.desc"),
                       quiet_to=ls("Hour they end (0-23; the same hour as the start: none)", "opt.quiet_to.desc"),
                       time_zone=ls("Your time zone, e.g. America/Mexico_City", "opt.time_zone.desc"))
@app_commands.choices(mode=NOTIFY_CHOICES)
@app_commands.guild_only()
@app_commands.autocomplete(time_zone=notify.zone_choices)
async def notify_(interaction: discord.Interaction, mode: str | None = None,
                         quiet_from: app_commands.Range[int, 0, 23] | None = None,
                         quiet_to: app_commands.Range[int, 0, 23] | None = None,
                         time_zone: str | None = None) -> None:
    await notify.choose(interaction, mode, quiet_from, quiet_to, time_zone)

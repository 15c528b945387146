"""`/turista notify`: how a person wants their reminders: in the channel, by direct message, or none; quiet
hours in their own time zone."""

from __future__ import annotations

from dataclasses import replace
from zoneinfo import available_timezones

import discord
from discord import app_commands

from bot.client import bot_of
from bot.face.i18n import lang_of, t
from bot.face.replies import refuse, say
from bot.store import NOTIFY_MODES, NotifyRow
from bot.table.notify import known_zone

ZONES = sorted(available_timezones())
MAX_CHOICES = 25  # Discord's limit on an autocomplete's answers


async def zone_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    typed = current.lower().replace(" ", "_")
    return [app_commands.Choice(name=z, value=z) for z in ZONES if typed in z.lower()][:MAX_CHOICES]


def summary(row: NotifyRow, lang: str) -> str:
    quiet = t(lang, "notify.no_quiet") if row.quiet_from is None or row.quiet_from == row.quiet_to else \
        t(lang, "notify.quiet", from_hour=row.quiet_from, to_hour=row.quiet_to, zone=row.time_zone)
    return t(lang, "notify.summary", where=t(lang, f"notify.mode_{row.mode}"), quiet=quiet)


async def choose(interaction: discord.Interaction, mode: str | None, quiet_from: int | None, quiet_to: int | None,
                 time_zone: str | None) -> None:
    storage = bot_of(interaction).storage
    user = interaction.user.id
    current = (await storage.notify_of([user]))[user]
    if mode is not None and mode not in NOTIFY_MODES:
        await refuse(interaction, "bad_option")
        return
    if time_zone is not None and not known_zone(time_zone):
        await refuse(interaction, "bad_time_zone", {"zone": time_zone[:40]})
        return
    if (quiet_from is None) != (quiet_to is None) and current.quiet_from is None:
        await refuse(interaction, "quiet_hours_pair")
        return
    chosen = replace(current, mode=mode or current.mode,
                     quiet_from=current.quiet_from if quiet_from is None else quiet_from,
                     quiet_to=current.quiet_to if quiet_to is None else quiet_to,
                     time_zone=time_zone or current.time_zone)
    if chosen != current:
        await storage.set_notify(chosen)
    await say(interaction, summary(chosen, lang_of(interaction)))

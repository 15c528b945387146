"""`/turista pause` and `/turista resume`: the host (or a manager) decides alone, the people seated vote."""

from __future__ import annotations

import discord

from bot.face.i18n import lang_of, t
from bot.face.replies import refuse, say
from bot.handlers.acting import channel_session


async def pause_or_resume(interaction: discord.Interaction, *, pause: bool) -> None:
    session = await channel_session(interaction)
    if session is None or session.state is None:
        return
    perms = interaction.permissions
    user_id = interaction.user.id
    manager = user_id == session.row.host_id or bool(perms.manage_channels or perms.administrator)
    if not manager and user_id not in session.voters():
        await refuse(interaction, "not_a_player")
        return
    outcome, votes, needed = await session.vote_pause(user_id, manager, pause=pause)
    verb = "pause" if pause else "resume"
    lang = lang_of(interaction)
    if outcome == "voted":
        await say(interaction, t(lang, f"table.{verb}_voted", count=votes, total=needed))
    elif outcome in ("paused", "resumed"):
        await say(interaction, t(lang, f"table.{verb}_done"))
    else:
        await refuse(interaction, outcome)

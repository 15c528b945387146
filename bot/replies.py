"""Answering interactions: in the user's language, ephemeral for anything personal, never pinging."""

from __future__ import annotations

from typing import Any

import discord

from bot import ui
from bot.i18n import lang_of, t
from engine import IllegalAction, State
from engine.narrate import explain

# Refusals the bot itself raises (the engine's live in `error.<code>`).
BOT_ERRORS = frozenset({
    "outdated", "no_game", "not_a_player", "not_host", "no_lobby", "game_running", "already_seated", "table_full",
    "not_enough_players", "not_seated", "unknown_property", "bad_number", "channel_busy", "cannot_trade_with",
    "guild_only", "invalid", "bad_option",
})


def error_text(lang: str, code: str, params: dict[str, Any] | None = None, state: State | None = None) -> str:
    params = params or {}
    if code in BOT_ERRORS:
        return "⚠️ " + t(lang, f"error.{code}", **params)
    return "⚠️ " + explain(IllegalAction(code, **params), state, lang)


async def say(interaction: discord.Interaction, content: str, *, ephemeral: bool = True,
              view: discord.ui.View | None = None, file: discord.File | None = None) -> None:
    """Answer, or follow up if the interaction was already answered or deferred."""
    kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": ui.NO_MENTIONS}
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    content = content[: ui.MAX_CONTENT]
    if not interaction.response.is_done():
        await interaction.response.send_message(content, **kwargs)
    elif interaction.response.type == discord.InteractionResponseType.deferred_channel_message \
            and not interaction.extras.get("thinking_done"):
        # The first answer after "thinking…" replaces it (a followup would leave it pending forever).
        interaction.extras["thinking_done"] = True
        edit: dict[str, Any] = {"content": content, "allowed_mentions": ui.NO_MENTIONS}
        if view is not None:
            edit["view"] = view
        if file is not None:
            edit["attachments"] = [file]
        await interaction.edit_original_response(**edit)
    else:
        await interaction.followup.send(content, **kwargs)


async def refuse(interaction: discord.Interaction, code: str, params: dict[str, Any] | None = None,
                 state: State | None = None) -> None:
    await say(interaction, error_text(lang_of(interaction), code, params, state))

"""Answering interactions: in the user's language, ephemeral for anything personal, never pinging."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.face import adapter, components
from bot.face.i18n import lang_of, t
from engine import IllegalAction, State
from words import explain

log = logging.getLogger(__name__)

# Seconds a click waits for the edit of its own message before it is simply deferred: long before Discord's
# 3 s, and the moment a player would start to wonder.
ANSWER_WITHIN = 0.5

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
    kwargs: dict[str, Any] = {"ephemeral": ephemeral, "allowed_mentions": components.NO_MENTIONS}
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    content = content[: components.MAX_CONTENT]
    if not interaction.response.is_done():
        await interaction.response.send_message(content, **kwargs)
    elif interaction.response.type == discord.InteractionResponseType.deferred_channel_message \
            and not interaction.extras.get("thinking_done"):
        # The first answer after "thinking…" replaces it (a followup would leave it pending forever).
        interaction.extras["thinking_done"] = True
        edit: dict[str, Any] = {"content": content, "allowed_mentions": components.NO_MENTIONS}
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


class ClickAnswer:
    """A click on a message the action edits, answered by that very edit: one request where a deferral and an
    edit take two. If the edit is not on its way within `within` seconds (a slow picture, a queue behind the
    channel's lock), the click is deferred and the message edited as usual, so Discord always hears back in
    time; an action that edits other messages only is deferred at its end (`settle`)."""

    def __init__(self, interaction: discord.Interaction, within: float = ANSWER_WITHIN) -> None:
        self.interaction = interaction
        self.message_id = interaction.message.id if interaction.message is not None else None
        self._taken = False
        self._deferring: asyncio.Task[None] | None = None
        self._timer = asyncio.get_running_loop().call_later(within, self._defer_now)

    def take(self, message_id: int) -> bool:
        """Whether the edit of `message_id` is to be sent as the click's answer: once, for the message clicked,
        and only if the click was not deferred meanwhile."""
        if self._taken or message_id != self.message_id:
            return False
        self._taken = True
        self._timer.cancel()
        return True

    async def update(self, fields: dict[str, Any]) -> None:
        """Answer the click with the edit of its message (`fields` as for `InteractionResponse.edit_message`),
        without asking for the edited message back (`bot.face.adapter`). A refusal raises
        `discord.HTTPException`: the caller then edits the message the usual way, with retries."""
        await adapter.answer_with_edit(self.interaction, fields)

    def _defer_now(self) -> None:
        if not self._taken:
            self._taken = True
            self._deferring = asyncio.create_task(self._defer(), name="turista-defer-click")

    async def _defer(self) -> None:
        try:
            await self.interaction.response.defer()
        except discord.HTTPException as error:
            log.warning("a click could not be deferred: %s %s", error.status, error.text or "")

    async def release(self) -> None:
        """The action is over: no deferral starts any more, and one under way has ended, so that
        `interaction.response.is_done()` tells again whether the click was answered."""
        self._taken = True
        self._timer.cancel()
        if self._deferring is not None:
            await self._deferring

    async def settle(self) -> None:
        """Release, then defer the click if nothing answered it."""
        await self.release()
        if not self.interaction.response.is_done():
            await self.interaction.response.defer()

"""Answering interactions: in the user's language, ephemeral for anything personal, never pinging."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import aiohttp
import discord

from bot.face import adapter, components
from bot.face.i18n import lang_of, t
from engine import IllegalAction, State
from words import explain

log = logging.getLogger(__name__)

# Seconds a click waits for the edit of its own message before it is simply deferred: long before Discord's
# 3 s, and the moment a player would start to wonder.
ANSWER_WITHIN = 0.5
# Seconds after the bot received a click by which its answer must have reached Discord: Discord's 3 s, less what
# the click took to arrive and the answer to travel back.
ANSWER_DEADLINE = 2.75
RETRY_SOON = 0.25  # seconds before a deferral refused by a server error is tried again

# Refusals the bot itself raises (the engine's live in `error.<code>`).
BOT_ERRORS = frozenset({
    "outdated", "no_game", "not_a_player", "not_host", "no_lobby", "game_running", "already_seated", "table_full",
    "not_enough_players", "not_seated", "unknown_property", "bad_number", "channel_busy", "cannot_trade_with",
    "guild_only", "invalid", "bad_option", "not_manager", "no_season", "no_replay", "replay_failed", "replay_too_big",
    "rematch_busy", "not_in_game",
    "take_backs_off", "take_back_limit", "take_back_closed", "take_back_own", "take_back_not_asked",
    "take_back_agreed", "take_back_asked", "no_free_seat", "seat_taken", "seat_left", "trade_not_seated",
    "paused", "not_paused", "already_paused", "bad_time_zone", "quiet_hours_pair",
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
    channel's lock), or the edit's answer is refused, the click is deferred at once and the message edited as
    usual, so Discord always hears back in time; an action that edits other messages only is deferred at its end
    (`settle`).

    Discord forgets a click it has no answer to within 3 s. A deferral that Discord refuses (a rate limit, a
    server error) is tried again only if the new try can be over within that time (`ANSWER_DEADLINE`); one that
    cannot is not sent (a late answer is refused anyway), and the log says so."""

    def __init__(self, interaction: discord.Interaction, within: float = ANSWER_WITHIN) -> None:
        self.interaction = interaction
        self.message_id = interaction.message.id if interaction.message is not None else None
        loop = asyncio.get_running_loop()
        self.deadline = loop.time() + ANSWER_DEADLINE  # the last moment an answer may reach Discord
        self._taken = False
        self._deferring: asyncio.Task[None] | None = None
        self._timer = loop.call_later(within, self._defer_now)

    def take(self, message_id: int) -> bool:
        """Whether the edit of `message_id` is to be sent as the click's answer: once, for the message clicked,
        and only if the click was not deferred meanwhile."""
        if self._taken or message_id != self.message_id:
            return False
        self._taken = True
        self._timer.cancel()
        return True

    def defer(self) -> None:
        """Acknowledge the click now without its message's edit, which goes out the usual way (an older edit of that
        message waits for Discord's rate limit: the answer must not overtake it)."""
        self._defer_now()

    async def update(self, fields: dict[str, Any]) -> None:
        """Answer the click with the edit of its message (`fields` as for `InteractionResponse.edit_message`),
        without asking for the edited message back (`bot.face.adapter`). A refusal raises `discord.HTTPException`
        and has the click deferred at once: the caller then edits the message the usual way, with retries."""
        try:
            await adapter.answer_with_edit(self.interaction, fields)
        except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
            self._start_deferring(error)
            raise

    def _defer_now(self) -> None:
        if not self._taken:
            self._taken = True
            self._start_deferring()

    def _start_deferring(self, after: BaseException | None = None) -> None:
        if self._deferring is None:
            self._deferring = asyncio.create_task(self._defer(after), name="turista-defer-click")

    async def _defer(self, after: BaseException | None = None) -> None:
        """Defer the click now, and again while a new try can still reach Discord in time (a rate limit's wait
        kept). `after`: the refusal of the answer just tried, if that is what started it."""
        loop = asyncio.get_running_loop()
        wait = 0.0
        took = 0.0  # how long a try took: the next one must have that much time left
        while True:
            if loop.time() + wait + took > self.deadline:
                log.warning("a click was not answered within Discord's 3 s (%s); no late answer was sent",
                            _why(after) if after is not None else "the action took too long")
                return
            if wait:
                await asyncio.sleep(wait)
            began = loop.time()
            try:
                await adapter.defer_click(self.interaction, within=self.deadline - began)
                return
            except (discord.HTTPException, aiohttp.ClientError, TimeoutError) as error:
                after, took = error, loop.time() - began
                if not _transient(error):
                    log.warning("a click could not be deferred: %s", _why(error))
                    return
                limited = isinstance(error, adapter.Refused) and error.status == 429
                wait = error.retry_after if limited else RETRY_SOON  # a rate limit says how long

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
        if not self.interaction.response.is_done() and self._deferring is None:
            self._start_deferring()
            await self._deferring  # type: ignore[misc]


def _transient(error: BaseException) -> bool:
    """A refusal that may not be there a moment later: a rate limit, a server error, the network."""
    if isinstance(error, discord.HTTPException):
        return error.status == 429 or error.status >= 500
    return True


def _why(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"{error.status} {error.text or ''}".strip()
    return type(error).__name__

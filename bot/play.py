"""Turning a click or a command into an engine action for the clicking person's seat.

The cheap checks (is there a game, is this person seated, is the button current, would the engine accept
it) answer at once with an ephemeral refusal. Otherwise the interaction is deferred first, then the action
waits for the channel's lock, so Discord always hears back within its 3 seconds.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.client import bot_of
from bot.i18n import lang_of, t
from bot.replies import error_text, refuse, say
from bot.session import Session
from engine import Action
from engine.narrate import account

ActionFor = Callable[[int], Action]


async def channel_session(interaction: discord.Interaction) -> Session | None:
    session = await bot_of(interaction).sessions.for_channel(interaction.channel_id or 0)
    if session is None:
        await refuse(interaction, "no_game")
    return session


async def seated(interaction: discord.Interaction, session: Session) -> int | None:
    seat = session.seat_of(interaction.user.id)
    if seat is None:
        await refuse(interaction, "not_a_player")
    return seat


async def perform(interaction: discord.Interaction, session: Session, make: ActionFor, *,
                  version: int | None = None, edit_source: bool = False) -> list[dict] | None:
    """Apply `make(seat)` for the person who clicked or typed; its events when it was applied.

    `version` is the state version a component was drawn for (None for slash commands). With
    `edit_source`, an ephemeral menu the click came from is replaced by the outcome.
    """
    seat = await seated(interaction, session)
    if seat is None:
        return None
    action = make(seat)
    why = session.check(action, version)
    if why is not None:
        await refuse(interaction, why[0], why[1], session.state)
        return None
    # Clicks and modals sent from a message update that message; slash commands get a private answer.
    is_component = interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit)
    if interaction.response.is_done():
        pass
    elif is_component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    result = await session.run(action, interaction.user.id, version)
    lang = lang_of(interaction)
    if isinstance(result, tuple):
        text = error_text(lang, result[0], result[1], session.state)
        if is_component:
            await say(interaction, text)
        else:
            await interaction.edit_original_response(content=text)
        return None
    summary = "\n".join(account(result, session.state, lang)[:12]) if session.state else ""
    if edit_source:
        await interaction.edit_original_response(content=(summary or t(lang, "done"))[:2000], view=None)
    elif not is_component:
        await interaction.edit_original_response(content=(summary or t(lang, "done"))[:2000])
    return result

"""The one persistent handler of every button, select and modal of the bot: a custom_id's verb finds its
declaration (`bot.handlers.registry`), and nothing else.

Components are routed by their custom_id alone (`bot.face.ids`), so a message posted by an earlier process works
exactly like a new one. Everything read from an interaction (custom_id, select values, modal fields) is checked
before use: a modified client can send anything, and gets "invalid" or "outdated" back.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.client import bot_of
from bot.face import ids
from bot.face.replies import refuse

# The handlers' modules declare their verbs as they are imported.
from bot.handlers import league, lobby, menus, play, seating, takebacks, trades  # noqa: F401
from bot.handlers.registry import VERBS, Click, Invalid

log = logging.getLogger("turista.router")


async def handle(interaction: discord.Interaction) -> None:
    """Entry point from `on_interaction` for components and modal submissions."""
    data: Any = interaction.data or {}
    if str(data.get("custom_id", "")).startswith(ids.SELF_TEST_PREFIX):
        return  # `turista selftest` answers its own button, through its own connection to Discord
    cid = ids.parse(str(data.get("custom_id", ""))[:100])
    try:
        declared = VERBS.get(cid.verb) if cid is not None else None
        is_modal = interaction.type == discord.InteractionType.modal_submit
        try:
            if cid is None or declared is None or declared.modal != is_modal:
                raise Invalid(str(data.get("custom_id", ""))[:100])
            arg = declared.argument(cid.arg)
        except Invalid:
            # No message of the bot ever carried this: a modified client made it up.
            log.info("refused a component nobody was shown: %.100r", data.get("custom_id"))
            await refuse(interaction, "invalid")
            return
        session = None
        if declared.at_table:
            session = await bot_of(interaction).sessions.for_game(cid.game)
            if session is None or not session.plays_in(interaction.channel_id):
                await refuse(interaction, "no_game")
                return
        await declared.handler(Click(interaction, cid.game, cid.version, arg, session))
    except discord.HTTPException:
        log.exception("answering %s failed", cid)

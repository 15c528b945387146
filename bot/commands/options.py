"""Numbers typed into slash-command options, checked by the bot itself.

Discord's client keeps options inside the limits the bot registered, but Discord does not stop a
modified client or a hand-made request: the bot checks every number again before it stores or plays it.
"""

from __future__ import annotations

from collections.abc import Callable

import discord

from bot.face.i18n import BOT, lang_of
from bot.face.replies import refuse


async def within(interaction: discord.Interaction, option: str, value: object, low: int, high: int,
                 shown: Callable[[int], str] = str) -> bool:
    """Whether `value` is a whole number from `low` to `high`; if not, the person is told the range of
    `option` (named as in their client) and nothing happens."""
    if isinstance(value, int) and not isinstance(value, bool) and low <= value <= high:
        return True
    # The option as the person sees it in their client: the localised name, else the registered one.
    name = BOT.texts(lang_of(interaction)).get(f"bot.cmd.opt.{option}.name") or option
    await refuse(interaction, "bad_option", {"option": name, "low": shown(low), "high": shown(high)})
    return False

"""The lobby message, as a Components V2 layout (`bot.face.layout.lobby`) or as the classic embed
(`bot.face.embeds.lobby_of`), and which of the two a lobby message already is.

A new lobby message is a layout where discord.py can send one and the table's house rules do not keep the classic
table. Discord lets an edit set the IS_COMPONENTS_V2 flag but never take it off (message.mdx, "Edit Message"): an
embed lobby may become a layout, a layout lobby stays one whatever `classic_table` says later. So an edit is a
layout when the rules want one or the message is one; which it is, this process remembers of the lobbies it
posted or edited, and asks Discord once of any other (after a restart) when the rules want an embed.
"""

from __future__ import annotations

import logging
from collections import OrderedDict
from typing import Any

import discord

from bot.face import components, embeds, layout
from bot.store import SeatRow
from bot.table.settings import TableSettings

log = logging.getLogger("turista.lobby")
REMEMBERED = 4096  # lobby messages whose kind is kept: a process has far fewer open at once
_layouts: OrderedDict[int, bool] = OrderedDict()


def wanted(settings: TableSettings) -> bool:
    """Whether a new lobby message of a table with these house rules is a layout."""
    return layout.SUPPORTED and not settings.classic_table


def note(message_id: int, is_layout: bool) -> None:
    """What the lobby message `message_id` is now (posted or edited so)."""
    _layouts[message_id] = is_layout
    _layouts.move_to_end(message_id)
    while len(_layouts) > REMEMBERED:
        _layouts.popitem(last=False)


async def is_layout(client: discord.Client, channel_id: int, message_id: int, settings: TableSettings,
                    shown: discord.Message | None = None) -> bool:
    """Whether the edit of the lobby message `message_id` must be a layout (see the module's docstring); `shown`:
    the message itself when the interaction brought it (a click on it)."""
    if not layout.SUPPORTED:
        return False
    if shown is not None and shown.id == message_id:
        note(message_id, shown.flags.value & layout.IS_COMPONENTS_V2 != 0)
    known = _layouts.get(message_id)
    if known or wanted(settings):
        return True
    if known is None:
        try:
            message = await client.get_partial_messageable(channel_id).fetch_message(message_id)
        except discord.HTTPException as error:
            # The edit that follows meets the same trouble and handles it (a deleted lobby is posted afresh).
            log.info("lobby message %d: what it is could not be read (%s)", message_id, error.status)
            return False
        known = message.flags.value & layout.IS_COMPONENTS_V2 != 0
        note(message_id, known)
    return known


def fields(game: int, host_id: int, seats: list[SeatRow], settings: TableSettings, opened_with: str, lang: str, *,
           as_layout: bool, closed: str = "", view: discord.ui.View | None = None) -> dict[str, Any]:
    """The post or edit of a lobby message (`view`: its buttons, None once closed). A layout carries no content and
    no embed, and an embed edit no layout: each clears what the other would have left."""
    if as_layout:
        shown = layout.lobby(game, host_id, seats, settings, opened_with, lang, closed=closed, view=view)
        return {"content": None, "embed": None, "view": shown, "allowed_mentions": components.NO_MENTIONS}
    return {"content": None, "embed": embeds.lobby_of(game, host_id, seats, settings, opened_with, lang, closed=closed),
            "view": view, "allowed_mentions": components.NO_MENTIONS}

"""The only module that reaches past discord.py's documented API, each place with the reason.

The documented API does everything the bot needs, but for a game's hot path it does more than asked: it builds a
whole `Message` from every answer (and from the message a click came from), and builds request bodies through
aiohttp's `FormData`. A click costs the bot a few milliseconds of CPU; these three short cuts save about a third
of it (`python bench/e2e.py`, `python bench/wire.py`). Everything here is pinned by `pyproject.toml`'s range of
discord.py, and CI runs the end-to-end tests against the lowest and the newest release of that range, so a
release that changes these internals fails a test before it reaches a server.

- `lighter_clicks`: `ConnectionState.parsers` (private) is where discord.py turns a gateway event into objects;
  the clicked message is given to it without the embeds, attachments and components the bot never reads.
- `send_message`, `edit_message`: `discord.http.Route`, `HTTPClient.request` and `handle_message_parameters`
  (undocumented) post and edit a message with exactly the parameters `Messageable.send` and `Message.edit` would
  send, without building a `Message` from Discord's answer (`PartialMessage.edit` builds one too).
- `answer_with_edit`: `InteractionResponse.edit_message` asks Discord to send the edited message back and builds
  a `Message` of it; the same callback goes out here without that question, through the interaction's own HTTP
  session (`Interaction._session`), and the response is marked answered the way `edit_message` marks it
  (`InteractionResponse._response_type`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord
from discord.http import Route, handle_message_parameters, json_or_text
from discord.webhook.async_ import interaction_message_response_params

from bot.face import wire

# What the bot reads of the message a click came from: which message it is and its flags (ephemeral or not); and
# what discord.py's `Message` requires besides (before 2.5 it reads these without a default).
CLICKED_MESSAGE_FIELDS = ("id", "channel_id", "guild_id", "type", "content", "flags", "author", "timestamp",
                          "webhook_id", "application_id", "edited_timestamp", "pinned", "tts", "mention_everyone",
                          "mentions", "mention_roles")
LEFT_OUT = {"embeds": [], "attachments": [], "components": []}  # the message's parts the bot never reads


def lighter_clicks(client: discord.Client) -> None:
    """Give discord.py's INTERACTION_CREATE parser the clicked message without its embeds, attachments and
    components: it builds a whole `Message` of them for every click, and the bot reads none of them."""
    parsers: dict[str, Callable[[dict], None]] = client._connection.parsers  # type: ignore[attr-defined]
    parse = parsers["INTERACTION_CREATE"]

    def parse_interaction_create(data: dict) -> None:
        message = data.get("message")
        if isinstance(message, dict):
            kept = {k: message[k] for k in CLICKED_MESSAGE_FIELDS if k in message}
            data = {**data, "message": {**kept, **LEFT_OUT}}
        parse(data)

    parsers["INTERACTION_CREATE"] = parse_interaction_create


async def send_message(client: discord.Client, channel_id: int, fields: dict[str, Any]) -> int:
    """Post a message with `fields` (content, embed, file, files, view, nonce, allowed_mentions); its id."""
    route = Route("POST", "/channels/{channel_id}/messages", channel_id=channel_id)
    with handle_message_parameters(previous_allowed_mentions=client.allowed_mentions, **fields) as params:
        data = await client.http.request(route, **wire.body(params))
    return int(data["id"])


async def edit_message(client: discord.Client, channel_id: int, message_id: int, fields: dict[str, Any]) -> None:
    """Edit a message with `fields` (content, embed, attachments, view, allowed_mentions)."""
    previous = client.allowed_mentions if "content" in fields else None
    route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel_id,
                  message_id=message_id)
    with handle_message_parameters(previous_allowed_mentions=previous, **fields) as params:
        await client.http.request(route, **wire.body(params))


async def answer_with_edit(interaction: discord.Interaction, fields: dict[str, Any]) -> None:
    """Answer a click with the edit of its message (`fields` as for `InteractionResponse.edit_message`), without
    asking for the edited message back (Discord then answers 204). A refusal raises `discord.HTTPException`."""
    update = discord.InteractionResponseType.message_update
    params = interaction_message_response_params(
        type=update.value, previous_allowed_mentions=interaction.client.allowed_mentions, **fields)
    url = f"{Route.BASE}/interactions/{interaction.id}/{interaction.token}/callback"
    http = interaction.client.http
    async with interaction._session.request("POST", url, proxy=http.proxy, proxy_auth=http.proxy_auth,
                                            **wire.body(params)) as response:
        if response.status >= 300:
            raise discord.HTTPException(response, await json_or_text(response))
    interaction.response._response_type = update

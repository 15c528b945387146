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
- `defer_click`, `edit_message_once`: discord.py answers a rate limit (429) or a server error by waiting and
  trying again, up to five times, and a 429 keeps every other request of its bucket waiting meanwhile. A click
  has 3 s in all, and an edit Discord limits (an old message, 30046) must not hold up the game's other edits
  in the channel: these two go out once, through the same HTTP session (`Interaction._session`, and the
  client's `HTTPClient.__session`), and a refusal comes back at once with the wait Discord asked for
  (`Refused.retry_after`); the caller decides whether there is time to try again. An edit hands back the
  channel's bucket as the answer's headers tell it (`Limit`): the game's edits wait for it themselves, and a
  waiting edit is replaced by a newer one rather than sent stale (`bot.face.edits`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import aiohttp
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


class Refused(discord.HTTPException):
    """Discord refused a request the bot sent once (a 403 or 404 raises `discord.Forbidden` or `discord.NotFound`,
    as discord.py does); `retry_after`: the seconds it asked to wait (a 429), else 0."""

    def __init__(self, response: aiohttp.ClientResponse, message: str | dict[str, Any] | None) -> None:
        super().__init__(response, message)
        asked = message.get("retry_after") if isinstance(message, dict) else response.headers.get("Retry-After")
        try:
            self.retry_after = max(0.0, float(asked or 0))
        except (TypeError, ValueError):
            self.retry_after = 0.0


@dataclass(frozen=True)
class Limit:
    """A route's rate limit as Discord's answer told it (`X-RateLimit-Remaining`, `X-RateLimit-Reset-After`)."""

    remaining: int
    reset_after: float


def _limit(response: aiohttp.ClientResponse) -> Limit | None:
    try:
        return Limit(int(response.headers["X-RateLimit-Remaining"]),
                     float(response.headers.get("X-RateLimit-Reset-After", 0)))
    except (KeyError, ValueError):
        return None


async def _once(session: aiohttp.ClientSession, http: Any, method: str, url: str, *, within: float | None = None,
                **kwargs: Any) -> Limit | None:
    """One request, no retry; raises `Refused` for anything but a success, `TimeoutError` after `within` seconds.
    Returns the route's rate limit as the answer told it, if it did."""
    if within is not None:
        kwargs["timeout"] = aiohttp.ClientTimeout(total=max(0.0, within))
    async with session.request(method, url, proxy=http.proxy, proxy_auth=http.proxy_auth, **kwargs) as response:
        if response.status >= 300:
            data = await json_or_text(response)
            if response.status in (403, 404):  # as discord.py raises them
                raise (discord.Forbidden if response.status == 403 else discord.NotFound)(response, data)
            raise Refused(response, data)
        return _limit(response)


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


async def edit_message_once(client: discord.Client, channel_id: int, message_id: int,
                            fields: dict[str, Any]) -> Limit | None:
    """Edit a message as `edit_message` does, once: a refusal (a rate limit included) raises `Refused` at once
    and holds up no other request. Returns the channel's edit limit as Discord's answer told it."""
    previous = client.allowed_mentions if "content" in fields else None
    route = Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel_id,
                  message_id=message_id)
    http = client.http
    headers = {"User-Agent": http.user_agent, "Authorization": f"Bot {http.token}"}
    with handle_message_parameters(previous_allowed_mentions=previous, **fields) as params:
        return await _once(http._HTTPClient__session, http, "PATCH", route.url,  # type: ignore[attr-defined]
                           headers=headers, **wire.body(params))


def _callback_url(interaction: discord.Interaction) -> str:
    return f"{Route.BASE}/interactions/{interaction.id}/{interaction.token}/callback"


async def answer_with_edit(interaction: discord.Interaction, fields: dict[str, Any]) -> None:
    """Answer a click with the edit of its message (`fields` as for `InteractionResponse.edit_message`), without
    asking for the edited message back (Discord then answers 204). A refusal raises `Refused`."""
    update = discord.InteractionResponseType.message_update
    params = interaction_message_response_params(
        type=update.value, previous_allowed_mentions=interaction.client.allowed_mentions, **fields)
    await _once(interaction._session, interaction.client.http, "POST", _callback_url(interaction),
                **wire.body(params))
    interaction.response._response_type = update


async def defer_click(interaction: discord.Interaction, within: float | None = None) -> None:
    """Acknowledge a click without changing its message yet (what `InteractionResponse.defer` does for a
    component), once: a refusal raises `Refused` at once, with the wait Discord asked for; no answer within
    `within` seconds raises `TimeoutError`."""
    deferred = discord.InteractionResponseType.deferred_message_update
    await _once(interaction._session, interaction.client.http, "POST", _callback_url(interaction), within=within,
                json={"type": deferred.value})
    interaction.response._response_type = deferred

"""The REST half of the fake: the subset of Discord's HTTP API that discord.py uses for a slash-command bot."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from aiohttp import web

from . import limits
from .models import DEFAULT_APP_PERMISSIONS, EPHEMERAL, LOADING, ErrorRecord, FakeChannel, FakeMessage
from .replies import (
    AUTOCOMPLETE_RESULT,
    CHANNEL_MESSAGE,
    DEFERRED_CHANNEL_MESSAGE,
    DEFERRED_UPDATE_MESSAGE,
    MODAL,
    UPDATE_MESSAGE,
    Reply,
)
from .state import State, Upload

API = "/api/v10"
COMMAND_INTERACTION, AUTOCOMPLETE_INTERACTION, COMPONENT_INTERACTION, MODAL_SUBMIT = 2, 4, 3, 5
MANAGE_CHANNELS, MANAGE_THREADS = 1 << 4, 1 << 34


def json_response(data: Any, status: int = 200) -> web.Response:
    """JSON with exactly ``Content-Type: application/json``: discord.py compares the header verbatim and
    treats anything else (``; charset=utf-8`` from ``web.json_response``) as plain text."""
    return web.Response(body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"})


async def read_body(request: web.Request) -> tuple[dict[str, Any], list[Upload]]:
    """The JSON body, or for multipart the ``payload_json`` part plus ``files[n]`` in index order."""
    content_type = request.headers.get("Content-Type", "")
    boundary = _BOUNDARY.search(content_type) if content_type.startswith("multipart/") else None
    if boundary is not None:
        payload: dict[str, Any] = {}
        uploads: dict[int, Upload] = {}
        for name, filename, data in _parts(await request.read(), boundary.group(1) or boundary.group(2)):
            if name == "payload_json":
                payload = json.loads(data)
            elif name.startswith("files["):
                uploads[int(name[6:-1])] = (filename or f"file{len(uploads)}", data)
        return payload, [uploads[i] for i in sorted(uploads)]
    if request.body_exists:  # not can_read_body, which is false once the validation has read it
        raw = await request.read()
        return (json.loads(raw) if raw else {}), []
    return {}, []


# aiohttp's own multipart reader parses every header with the email package, at about a millisecond a request:
# more than the fake's whole work on an edit. The bodies discord.py sends are plain form data, read here.
_BOUNDARY = re.compile(r'boundary=(?:"([^"]+)"|([^;\s]+))')
_DISPOSITION = re.compile(rb'^content-disposition:[^\r\n]*', re.IGNORECASE | re.MULTILINE)
_PARAM = re.compile(rb';\s*(name|filename)="((?:[^"\\]|\\.)*)"')


def _parts(body: bytes, boundary: str) -> list[tuple[str, str | None, bytes]]:
    """(name, filename, content) of each part of a multipart/form-data body."""
    found = []
    for chunk in body.split(b"--" + boundary.encode())[1:]:
        if chunk.startswith(b"--"):
            break  # the closing delimiter
        head, _, content = chunk.partition(b"\r\n\r\n")
        disposition = _DISPOSITION.search(head)
        params = dict(_PARAM.findall(disposition.group(0))) if disposition else {}
        name, filename = params.get(b"name", b""), params.get(b"filename")
        found.append((name.decode(), filename.decode() if filename is not None else None,
                      content[:-2] if content.endswith(b"\r\n") else content))
    return found


def _under(prefix: str, problems: limits.Problems) -> limits.Problems:
    """Problems of a callback's message, named from the callback body (``data.content``, not ``content``)."""
    named: limits.Problems = []
    for path, *rest in problems:
        named.append((f"{prefix}.{path}" if path else prefix, *rest))
    return named


class RestApi:
    """Route handlers; all state lives in :class:`State`."""

    def __init__(self, state: State, *, gateway_url: str = "", token: str | None = None,
                 app_permissions: int = DEFAULT_APP_PERMISSIONS) -> None:
        self.state = state
        self.gateway_url = gateway_url
        self.token = token
        self.app_permissions = app_permissions  # what the bot may do in every channel

    def routes(self) -> list[web.RouteDef]:
        s = self
        return [
            web.get(f"{API}/gateway", s.gateway),
            web.get(f"{API}/gateway/bot", s.gateway_bot),
            web.get(f"{API}/users/@me", s.users_me),
            web.get(f"{API}/users/{{user_id:\\d+}}", s.get_user),
            web.post(f"{API}/users/@me/channels", s.open_dm),
            web.get(f"{API}/oauth2/applications/@me", s.application),
            web.get(f"{API}/applications/@me", s.application),
            web.get(f"{API}/applications/{{app}}/commands", s.get_commands),
            web.put(f"{API}/applications/{{app}}/commands", s.put_commands),
            web.get(f"{API}/applications/{{app}}/guilds/{{guild}}/commands", s.get_commands),
            web.put(f"{API}/applications/{{app}}/guilds/{{guild}}/commands", s.put_commands),
            web.post(f"{API}/interactions/{{interaction_id}}/{{token}}/callback", s.callback),
            web.post(f"{API}/webhooks/{{app}}/{{token}}", s.followup),
            web.get(f"{API}/webhooks/{{app}}/{{token}}/messages/{{message}}", s.webhook_get),
            web.patch(f"{API}/webhooks/{{app}}/{{token}}/messages/{{message}}", s.webhook_edit),
            web.delete(f"{API}/webhooks/{{app}}/{{token}}/messages/{{message}}", s.webhook_delete),
            web.get(f"{API}/channels/{{channel}}", s.get_channel),
            web.delete(f"{API}/channels/{{channel}}", s.delete_channel),
            web.post(f"{API}/channels/{{channel}}/typing", s.typing),
            web.get(f"{API}/channels/{{channel}}/messages", s.history),
            web.post(f"{API}/channels/{{channel}}/messages", s.post_message),
            web.post(f"{API}/channels/{{channel}}/messages/{{message}}/threads", s.start_thread),
            web.get(f"{API}/channels/{{channel}}/messages/{{message}}", s.get_message),
            web.patch(f"{API}/channels/{{channel}}/messages/{{message}}", s.edit_message),
            web.delete(f"{API}/channels/{{channel}}/messages/{{message}}", s.delete_message),
            web.get(f"{API}/guilds/{{guild}}", s.get_guild),
            web.get(f"{API}/guilds/{{guild}}/channels", s.guild_channels),
            web.get(f"{API}/guilds/{{guild}}/members/{{user_id}}", s.get_member),
            web.get("/attachments/{attachment}/{filename}", s.attachment),
            web.route("*", f"{API}/{{tail:.*}}", s.unsupported),
        ]

    # -- errors -------------------------------------------------------------------------------------
    def fail(
        self,
        request: web.Request,
        status: int,
        code: int,
        message: str,
        kind: str,
        detail: Any = None,
        body: dict[str, Any] | None = None,
    ) -> web.Response:
        """Answer like Discord does and remember it in ``fake.errors``."""
        self.state.record_error(ErrorRecord(kind, request.method, request.path, status, code, message, detail))
        return json_response(body or {"message": message, "code": code}, status)

    def limit_failure(self, request: web.Request, problems: limits.Problems) -> web.Response:
        body = limits.error_body(problems)
        return self.fail(request, 400, 50035, "Invalid Form Body", "limit", problems, body=body)

    async def unsupported(self, request: web.Request) -> web.Response:
        return self.fail(request, 404, 0, "404: Not Found (not implemented by the fake)", "unsupported")

    # -- login & gateway ----------------------------------------------------------------------------
    async def gateway(self, request: web.Request) -> web.Response:
        return json_response({"url": self.gateway_url})

    async def gateway_bot(self, request: web.Request) -> web.Response:
        return json_response(
            {
                "url": self.gateway_url,
                "shards": self.state.recommended_shards,
                "session_start_limit": {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1},
            }
        )

    async def users_me(self, request: web.Request) -> web.Response:
        if self.token is not None and request.headers.get("Authorization") != f"Bot {self.token}":
            return self.fail(request, 401, 0, "401: Unauthorized", "unauthorized")
        return json_response(
            {**self.state.bot.to_payload(), "verified": True, "mfa_enabled": False, "flags": 0, "locale": "en-US"}
        )

    async def open_dm(self, request: web.Request) -> web.Response:
        """The direct message channel with a user (`recipient_id`), the same one each time."""
        body, _ = await read_body(request)
        raw = str(body.get("recipient_id") or "")
        user = self.state.users.get(int(raw)) if raw.isdigit() else None
        if user is None:
            return self.fail(request, 400, 50033, "Invalid Recipient(s)", "limit")
        return json_response(self.state.dm_channel(user).to_payload())

    async def get_user(self, request: web.Request) -> web.Response:
        user = self.state.users.get(int(request.match_info["user_id"]))
        if user is None:
            return self.fail(request, 404, 10013, "Unknown User", "not_found")
        return json_response(user.to_payload())

    async def application(self, request: web.Request) -> web.Response:
        bot = self.state.bot
        return json_response(
            {
                "id": str(self.state.application_id),
                "name": bot.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": self.state.owner.to_payload(),
                "team": None,
                "verify_key": "0" * 64,
                "flags": 0,
                "bot": bot.to_payload(),
            }
        )

    # -- application commands -----------------------------------------------------------------------
    @staticmethod
    def _scope(request: web.Request) -> int | None:
        guild = request.match_info.get("guild")
        return int(guild) if guild else None

    async def get_commands(self, request: web.Request) -> web.Response:
        return json_response(self.state.commands.get(self._scope(request), []))

    async def put_commands(self, request: web.Request) -> web.Response:
        scope = self._scope(request)
        if scope is not None and scope not in self.state.guilds:
            return self.fail(request, 403, 50001, "Missing Access", "not_found")
        body, _ = await read_body(request)
        problems = limits.check_commands(body)
        if problems:
            return self.limit_failure(request, problems)
        return json_response(self.state.register_commands(scope, body))

    # -- interactions -------------------------------------------------------------------------------
    async def callback(self, request: web.Request) -> web.Response:
        state = self.state
        reply = state.replies.get(int(request.match_info["interaction_id"]))
        if reply is None or reply.token != request.match_info["token"]:
            return self.fail(request, 404, 10062, "Unknown interaction", "not_found")
        if reply.acknowledged:
            return self.fail(request, 400, 40060, "Interaction has already been acknowledged.", "already_acknowledged")
        if reply.expired:
            elapsed = round(time.monotonic() - reply.created, 3)
            response = self.fail(
                request, 404, 10062, "Unknown interaction", "late_ack", {"elapsed": elapsed, "deadline": reply.deadline}
            )
            reply.error = state.errors[-1]
            state.notifier.changed()
            return response
        body, uploads = await read_body(request)
        kind, data = body.get("type"), body.get("data") or {}
        problems = self._callback_problems(reply, kind, data, len(uploads))
        if problems:
            response = self.limit_failure(request, problems)
            reply.rejections.append(state.errors[-1])
            return response

        message: FakeMessage | None = None
        if kind == CHANNEL_MESSAGE:
            message = await self._respond_with_message(reply, data, uploads, flags=0)
        elif kind == DEFERRED_CHANNEL_MESSAGE:
            flags = LOADING | (data.get("flags", 0) & EPHEMERAL)
            message = await self._respond_with_message(reply, {}, [], flags=flags)
        elif kind == DEFERRED_UPDATE_MESSAGE:
            message = reply.source_message
        elif kind == UPDATE_MESSAGE:
            message = reply.source_message
            assert message is not None  # checked in _callback_problems
            await state.edit_message(message, data, uploads)
        reply.message = message
        reply.response_type = kind
        reply.response_data = data
        state.notifier.changed()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return web.Response(status=204)  # Discord sends the callback's outcome back only when asked

        result: dict[str, Any] = {
            "interaction": {
                "id": str(reply.interaction_id),
                "type": reply.interaction_type,
                "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
                "response_message_ephemeral": bool(message and message.ephemeral),
            },
            "resource": {"type": kind},
        }
        if message is not None:
            result["interaction"]["response_message_id"] = str(message.id)
            if kind != DEFERRED_UPDATE_MESSAGE:
                result["resource"]["message"] = message.to_payload()
        return json_response(result)

    def _callback_problems(self, reply: Reply, kind: Any, data: dict[str, Any], files: int) -> limits.Problems:
        if kind == CHANNEL_MESSAGE:
            problems = _under("data", limits.check_message(data, file_count=files))
        elif kind == UPDATE_MESSAGE:
            # An update keeps the message's flags (e.g. components v2) unless it sends new ones.
            flags = reply.source_message.flags if reply.source_message else 0
            problems = _under("data", limits.check_message({"flags": flags, **data}, file_count=files))
            problems += limits.check_kept_flags(flags, data, prefix="data.")
        elif kind == MODAL:
            problems = limits.check_modal(data)
        elif kind == AUTOCOMPLETE_RESULT:
            problems = limits.check_choices(data)
        elif kind in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            problems = []
        else:
            return [("type", f"Interaction callback type {kind!r} is not one the fake answers")]
        on_message = reply.source_message is not None
        return limits.check_callback_type(reply.interaction_type, kind, on_message=on_message) + problems

    async def _respond_with_message(
        self, reply: Reply, data: dict[str, Any], uploads: list[Upload], *, flags: int
    ) -> FakeMessage:
        metadata: dict[str, Any] = {
            "id": str(reply.interaction_id),
            "type": reply.interaction_type,
            "user": reply.user.to_payload(),
            "authorizing_integration_owners": {"0": str(reply.channel.guild.id)},
        }
        if reply.source_message is not None:
            metadata["interacted_message_id"] = str(reply.source_message.id)
        return await self.state.create_message(
            reply.channel,
            self.state.bot,
            data,
            uploads,
            flags=flags,
            webhook=True,
            message_type=20 if reply.interaction_type == COMMAND_INTERACTION else 0,
            interaction_metadata=metadata,
        )

    def _reply_for_token(self, request: web.Request) -> Reply | None:
        reply = self.state.replies_by_token.get(request.match_info["token"])
        if reply is None or reply.token_expired or not reply.acknowledged:
            return None
        return reply

    def _token_refusal(self, request: web.Request, unknown: tuple[int, int, str]) -> web.Response:
        """Why a webhook token is refused: after its 15 minutes an interaction's token is Discord's 401 50027;
        a token it never gave (or one not acknowledged yet) is ``unknown``."""
        reply = self.state.replies_by_token.get(request.match_info["token"])
        if reply is not None and reply.acknowledged and reply.token_expired:
            return self.fail(request, 401, 50027, "Invalid Webhook Token", "unauthorized")
        status, code, message = unknown
        return self.fail(request, status, code, message, "not_found")

    def _webhook_message(self, reply: Reply, ref: str) -> FakeMessage | None:
        if ref == "@original":
            message = reply.message
        else:
            message = self.state.messages.get(int(ref)) if ref.isdigit() else None
            if message is not None and message.channel is not reply.channel:
                message = None
        return None if message is None or message.deleted else message

    async def followup(self, request: web.Request) -> web.Response:
        reply = self._reply_for_token(request)
        if reply is None:
            return self._token_refusal(request, (404, 10015, "Unknown Webhook"))
        body, uploads = await read_body(request)
        problems = limits.check_message(body, file_count=len(uploads))
        if problems:
            return self.limit_failure(request, problems)
        if limits.is_empty(body, len(uploads)):
            return self.fail(request, 400, 50006, "Cannot send an empty message", "limit")
        message = await self._respond_with_message(reply, body, uploads, flags=body.get("flags", 0) & EPHEMERAL)
        reply.followups.append(message)
        self.state.notifier.changed()
        if request.query.get("wait", "false").lower() in ("true", "1"):
            return json_response(message.to_payload())
        return web.Response(status=204)

    async def webhook_get(self, request: web.Request) -> web.Response:
        reply = self._reply_for_token(request)
        message = reply and self._webhook_message(reply, request.match_info["message"])
        if not message:
            return self._token_refusal(request, (404, 10008, "Unknown Message"))
        return json_response(message.to_payload())

    async def webhook_edit(self, request: web.Request) -> web.Response:
        reply = self._reply_for_token(request)
        message = reply and self._webhook_message(reply, request.match_info["message"])
        if not message:
            return self._token_refusal(request, (404, 10008, "Unknown Message"))
        return await self._edit(request, message)

    async def webhook_delete(self, request: web.Request) -> web.Response:
        reply = self._reply_for_token(request)
        message = reply and self._webhook_message(reply, request.match_info["message"])
        if not message:
            return self._token_refusal(request, (404, 10008, "Unknown Message"))
        await self.state.delete_message(message)
        return web.Response(status=204)

    # -- channels & messages ------------------------------------------------------------------------
    def _channel(self, request: web.Request) -> FakeChannel | None:
        raw = request.match_info["channel"]
        return self.state.channels.get(int(raw)) if raw.isdigit() else None

    def _message(self, request: web.Request) -> FakeMessage | None:
        channel = self._channel(request)
        raw = request.match_info["message"]
        message = self.state.messages.get(int(raw)) if raw.isdigit() else None
        return message if message is not None and message.channel is channel else None

    async def get_channel(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return self.fail(request, 404, 10003, "Unknown Channel", "not_found")
        return json_response(channel.to_payload())

    async def delete_channel(self, request: web.Request) -> web.Response:
        """Delete a thread (Manage Threads) or a channel (Manage Channels), with its messages, as Discord does;
        without the permission, 403 Missing Permissions."""
        channel = self._channel(request)
        if channel is None:
            return self.fail(request, 404, 10003, "Unknown Channel", "not_found")
        needed = MANAGE_THREADS if channel.is_thread else MANAGE_CHANNELS
        if not self.app_permissions & needed:
            return self.fail(request, 403, 50013, "Missing Permissions", "forbidden")
        for message in self.state.channel_messages(channel):
            await self.state.delete_message(message)
        self.state.channels.pop(channel.id, None)
        if channel in channel.guild.channels:
            channel.guild.channels.remove(channel)
        payload = channel.to_payload()
        self.state.notifier.changed()
        if self.state.dispatch is not None:
            self.state.dispatch("THREAD_DELETE" if channel.is_thread else "CHANNEL_DELETE", payload)
        return json_response(payload)

    async def typing(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return self.fail(request, 404, 10003, "Unknown Channel", "not_found")
        self.state.typing[channel.id] = self.state.typing.get(channel.id, 0) + 1
        return web.Response(status=204)

    async def history(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return self.fail(request, 404, 10003, "Unknown Channel", "not_found")
        messages = [m for m in self.state.channel_messages(channel) if not m.ephemeral]
        if "before" in request.query:
            messages = [m for m in messages if m.id < int(request.query["before"])]
        if "after" in request.query:
            messages = [m for m in messages if m.id > int(request.query["after"])]
        limit = int(request.query.get("limit", 50))
        # Discord returns the newest first.
        return json_response([m.to_payload() for m in reversed(messages)][:limit])

    async def post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        if channel is None:
            return self.fail(request, 404, 10003, "Unknown Channel", "not_found")
        if channel.is_dm and channel.recipient is not None and not channel.recipient.accepts_dms:
            # Discord's answer when the user does not take direct messages: a bot may meet it without a bug, so
            # it is not one of `errors`.
            self.state.refused_dms.append(channel.recipient.id)
            return json_response({"message": "Cannot send messages to this user", "code": 50007}, 403)
        body, uploads = await read_body(request)
        problems = limits.check_message(body, file_count=len(uploads))
        if problems:
            return self.limit_failure(request, problems)
        if limits.is_empty(body, len(uploads)):
            return self.fail(request, 400, 50006, "Cannot send an empty message", "limit")
        nonce = str(body.get("nonce") or "")
        if len(nonce) > 25:
            return self.limit_failure(request, [("nonce", "Must be 25 or fewer in length.")])
        if nonce and body.get("enforce_nonce"):
            earlier = self.state.message_for_nonce(channel, self.state.bot, nonce)
            if earlier is not None:
                return json_response(earlier.to_payload())
        message = await self.state.create_message(channel, self.state.bot, body, uploads)
        if nonce and body.get("enforce_nonce"):
            self.state.remember_nonce(channel, self.state.bot, nonce, message)
        return json_response(message.to_payload())

    async def start_thread(self, request: web.Request) -> web.Response:
        """A public thread from a message: one per message, only in a text channel, named 1 to 100 characters."""
        message = self._message(request)
        if message is None:
            return self.fail(request, 404, 10008, "Unknown Message", "not_found")
        body, _ = await read_body(request)
        name = str(body.get("name") or "")
        if not 1 <= len(name) <= 100:
            return self.limit_failure(request, [("name", "Must be between 1 and 100 in length.")])
        if message.channel.is_thread:
            return self.fail(request, 400, 50024, "Cannot execute action on this channel type", "limit")
        if message.id in self.state.channels:
            return self.fail(request, 400, 160004, "A thread has already been created for this message", "limit")
        thread = self.state.create_thread(message, name, int(body.get("auto_archive_duration") or 1440))
        return json_response(thread.to_payload(), status=201)

    async def get_message(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if message is None:
            return self.fail(request, 404, 10008, "Unknown Message", "not_found")
        return json_response(message.to_payload())

    async def edit_message(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if message is None:
            return self.fail(request, 404, 10008, "Unknown Message", "not_found")
        if message.author is not self.state.bot:
            return self.fail(request, 403, 50005, "Cannot edit a message authored by another user", "forbidden")
        return await self._edit(request, message)

    async def _edit(self, request: web.Request, message: FakeMessage) -> web.Response:
        limit = self.state.old_edit_limit(message.channel.id)
        if limit is not None and not limit.allows(message.channel.id, message.id):
            return limit.refusal()  # Discord's limit, which a bot may meet without a bug: not in `errors`
        body, uploads = await read_body(request)
        merged = {"flags": message.flags, **body}
        if "content" not in body:
            merged["content"] = message.content
        problems = limits.check_message(merged, file_count=len(uploads)) + limits.check_kept_flags(message.flags, body)
        if problems:
            return self.limit_failure(request, problems)
        await self.state.edit_message(message, body, uploads)
        return json_response(message.to_payload())

    async def delete_message(self, request: web.Request) -> web.Response:
        message = self._message(request)
        if message is None:
            return self.fail(request, 404, 10008, "Unknown Message", "not_found")
        await self.state.delete_message(message)
        return web.Response(status=204)

    # -- guilds -------------------------------------------------------------------------------------
    async def get_guild(self, request: web.Request) -> web.Response:
        guild = self.state.guilds.get(int(request.match_info["guild"]))
        if guild is None:
            return self.fail(request, 404, 10004, "Unknown Guild", "not_found")
        payload = guild.to_payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key, None)
        return json_response(payload)

    async def guild_channels(self, request: web.Request) -> web.Response:
        guild = self.state.guilds.get(int(request.match_info["guild"]))
        if guild is None:
            return self.fail(request, 404, 10004, "Unknown Guild", "not_found")
        return json_response([c.to_payload() for c in guild.channels])

    async def get_member(self, request: web.Request) -> web.Response:
        guild = self.state.guilds.get(int(request.match_info["guild"]))
        member = guild.members.get(int(request.match_info["user_id"])) if guild else None
        if member is None:
            return self.fail(request, 404, 10007, "Unknown Member", "not_found")
        return json_response(member.to_payload())

    async def attachment(self, request: web.Request) -> web.Response:
        attachment = self.state.attachments.get(int(request.match_info["attachment"]))
        if attachment is None:
            return web.Response(status=404)
        return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})

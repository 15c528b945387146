"""Everything the fake Discord knows, and the mutations REST calls and the driver share."""

from __future__ import annotations

import logging
import mimetypes
import time
from collections.abc import Callable
from typing import Any

from .models import (
    DM,
    LOADING,
    PUBLIC_THREAD,
    ErrorRecord,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMessage,
    FakeUser,
)
from .old_edits import OldEditLimit
from .replies import Reply
from .snowflake import SnowflakeFactory, iso_now
from .waiting import Notifier

log = logging.getLogger(__name__)
NONCE_SECONDS = 300.0

Upload = tuple[str, bytes]  # (filename, data) as received in files[n]
Dispatch = Callable[[str, dict[str, Any]], None]


class State:
    """In-memory Discord: ids, guilds, channels, users, messages, commands, interactions, errors."""

    def __init__(self) -> None:
        self.ids = SnowflakeFactory()
        self.notifier = Notifier()
        self.base_url = ""
        self.bot = FakeUser(id=self.ids.next(), name="Turista", bot=True)
        self.owner = FakeUser(id=self.ids.next(), name="owner")
        self.guilds: dict[int, FakeGuild] = {}
        self.refused_dms: list[int] = []  # users a direct message was refused to (50007), in order
        self.channels: dict[int, FakeChannel] = {}
        self.users: dict[int, FakeUser] = {self.bot.id: self.bot, self.owner.id: self.owner}
        self.messages: dict[int, FakeMessage] = {}
        self.attachments: dict[int, FakeAttachment] = {}
        # Registered commands by scope: None for global, else the guild id.
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        self._command_ids: dict[tuple[int | None, str, int], int] = {}
        self.command_syncs = 0
        self.replies: dict[int, Reply] = {}
        self.replies_by_token: dict[str, Reply] = {}
        self.errors: list[ErrorRecord] = []
        self.typing: dict[int, int] = {}
        self.dispatch: Dispatch | None = None
        self.recommended_shards = 1  # what GET /gateway/bot tells a client that lets Discord choose
        # (channel, author, nonce) -> the message it made and when: a repeated post returns it (enforce_nonce).
        self.nonces: dict[tuple[int, int, str], tuple[FakeMessage, float]] = {}
        # Discord's limit on edits of old messages: by channel id, and for every other channel (None).
        self.old_edit_limits: dict[int | None, OldEditLimit] = {}

    def old_edit_limit(self, channel_id: int) -> OldEditLimit | None:
        """The limit on edits of old messages in a channel: its own, else every channel's, else none."""
        return self.old_edit_limits.get(channel_id, self.old_edit_limits.get(None))

    @property
    def application_id(self) -> int:
        # New applications share the id of their bot user.
        return self.bot.id

    def record_error(self, error: ErrorRecord) -> None:
        """Keep a failure for ``fake.errors`` and log it, so it shows in the test's captured log."""
        log.warning("fake discord recorded %s", error)
        self.errors.append(error)
        self.notifier.changed()

    # -- commands -----------------------------------------------------------------------------------
    def register_commands(self, scope: int | None, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Bulk overwrite: keep ids stable per (scope, name, type), as Discord does across syncs."""
        echoed = []
        for command in commands:
            key = (scope, command["name"], command.get("type", 1))
            command_id = self._command_ids.setdefault(key, self.ids.next())
            stored = {
                "type": 1,
                "description": "",
                "options": [],
                "nsfw": False,
                "default_member_permissions": None,
                **command,
                "id": str(command_id),
                "application_id": str(self.application_id),
                "version": str(self.ids.next()),
            }
            if scope is not None:
                stored["guild_id"] = str(scope)
            echoed.append(stored)
        self.commands[scope] = echoed
        self.command_syncs += 1
        self.notifier.changed()
        return echoed

    def find_command(self, guild: FakeGuild | None, name: str, type: int = 1) -> dict[str, Any]:
        """A registered command by top-level name; guild commands shadow global ones like in Discord."""
        scopes = ([guild.id] if guild else []) + [None]
        for scope in scopes:
            for command in self.commands.get(scope, []):
                if command["name"] == name and command.get("type", 1) == type:
                    return command
        known = sorted({c["name"] for cmds in self.commands.values() for c in cmds})
        raise LookupError(f"the bot registered no command {name!r} (type {type}); registered: {known}")

    # -- attachments --------------------------------------------------------------------------------
    def store_attachment(self, filename: str, data: bytes, description: str | None = None) -> FakeAttachment:
        attachment_id = self.ids.next()
        content_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
        attachment = FakeAttachment(
            id=attachment_id,
            filename=filename,
            data=data,
            url=f"{self.base_url}/attachments/{attachment_id}/{filename}",
            content_type=content_type,
            description=description,
        )
        self.attachments[attachment_id] = attachment
        return attachment

    def _attachments_for(
        self, payload: dict[str, Any], uploads: list[Upload], existing: list[FakeAttachment] | None
    ) -> list[FakeAttachment]:
        """Resolve ``attachments[].id``: an id of an existing attachment keeps it, else it is a
        ``files[n]`` index. Without an ``attachments`` key an edit keeps what it had and adds uploads."""
        listed = payload.get("attachments")
        if listed is None:
            kept = list(existing or [])
            return kept + [self.store_attachment(name, data) for name, data in uploads]
        by_id = {a.id: a for a in existing or []}
        result: list[FakeAttachment] = []
        used: set[int] = set()
        for entry in listed:
            raw_id = int(entry["id"])
            if raw_id in by_id:
                result.append(by_id[raw_id])
            elif 0 <= raw_id < len(uploads):
                name, data = uploads[raw_id]
                result.append(self.store_attachment(entry.get("filename") or name, data, entry.get("description")))
                used.add(raw_id)
        result += [self.store_attachment(n, d) for i, (n, d) in enumerate(uploads) if i not in used]
        return result

    # -- messages -----------------------------------------------------------------------------------
    async def create_message(
        self,
        channel: FakeChannel,
        author: FakeUser,
        payload: dict[str, Any],
        uploads: list[Upload],
        *,
        flags: int = 0,
        webhook: bool = False,
        message_type: int = 0,
        interaction_metadata: dict[str, Any] | None = None,
    ) -> FakeMessage:
        message = FakeMessage(
            id=self.ids.next(),
            channel=channel,
            author=author,
            content=payload.get("content") or "",
            embeds=payload.get("embeds") or [],
            components=payload.get("components") or [],
            flags=flags | (payload.get("flags") or 0),
            type=message_type,
            allowed_mentions=payload.get("allowed_mentions"),
            webhook_id=self.application_id if webhook else None,
            application_id=self.application_id if webhook else None,
            interaction_metadata=interaction_metadata,
        )
        message.attachments = self._attachments_for(payload, uploads, None)
        message.history.append(dict(payload))
        self.messages[message.id] = message
        self.notifier.changed()
        # Ephemeral messages never reach the gateway, like in Discord.
        if self.dispatch is not None and not message.ephemeral:
            self.dispatch("MESSAGE_CREATE", message.to_payload(with_guild=True))
        return message

    async def edit_message(self, message: FakeMessage, payload: dict[str, Any], uploads: list[Upload]) -> None:
        """Apply a PATCH: only the keys present change; a deferred ("thinking") message stops loading."""
        if "content" in payload:
            message.content = payload["content"] or ""
        if "embeds" in payload:
            message.embeds = payload["embeds"] or []
        if "components" in payload:
            message.components = payload["components"] or []
        if "allowed_mentions" in payload:
            message.allowed_mentions = payload["allowed_mentions"]
        if payload.get("flags") is not None:
            # Only the editable flags change; ephemeral-ness is fixed at creation.
            message.flags = (message.flags & (1 << 6)) | (payload["flags"] & ~(1 << 6))
        message.attachments = self._attachments_for(payload, uploads, message.attachments)
        was_loading = message.loading
        message.flags &= ~LOADING
        message.edited_timestamp = None if was_loading else iso_now()
        message.history.append(dict(payload))
        self.notifier.changed()
        if self.dispatch is not None and not message.ephemeral:
            self.dispatch("MESSAGE_UPDATE", message.to_payload(with_guild=True))

    def message_for_nonce(self, channel: FakeChannel, author: FakeUser, nonce: str) -> FakeMessage | None:
        """The message a post with this nonce already made, if it is recent and still there (Discord keeps
        nonces a few minutes)."""
        found = self.nonces.get((channel.id, author.id, nonce))
        if found is None or time.monotonic() - found[1] > NONCE_SECONDS or found[0].deleted:
            return None
        return found[0]

    def remember_nonce(self, channel: FakeChannel, author: FakeUser, nonce: str, message: FakeMessage) -> None:
        self.nonces[(channel.id, author.id, nonce)] = (message, time.monotonic())

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        """The bot's direct message channel with ``user``, made on first use (Discord hands back the same one)."""
        found = next((c for c in self.channels.values() if c.is_dm and c.recipient is user), None)
        if found is None:
            guild = next(iter(self.guilds.values()))  # a channel needs one here; a DM's payload names none
            found = FakeChannel(id=self.ids.next(), guild=guild, name=f"dm-{user.name}", type=DM, recipient=user)
            self.channels[found.id] = found
            self.notifier.changed()
        return found

    def create_thread(self, message: FakeMessage, name: str, auto_archive_duration: int) -> FakeChannel:
        """A public thread started from ``message`` (THREAD_CREATE is sent)."""
        parent = message.channel
        thread = FakeChannel(id=message.id, guild=parent.guild, name=name, type=PUBLIC_THREAD, parent=parent,
                             owner_id=self.bot.id, auto_archive_duration=auto_archive_duration)
        self.channels[thread.id] = thread
        self.notifier.changed()
        if self.dispatch is not None:
            self.dispatch("THREAD_CREATE", {**thread.to_payload(), "newly_created": True})
        return thread

    async def delete_message(self, message: FakeMessage) -> None:
        message.deleted = True
        self.messages.pop(message.id, None)
        self.notifier.changed()
        if self.dispatch is not None and not message.ephemeral:
            self.dispatch(
                "MESSAGE_DELETE",
                {
                    "id": str(message.id),
                    "channel_id": str(message.channel.id),
                    "guild_id": str(message.channel.guild.id),
                },
            )

    def channel_messages(self, channel: FakeChannel) -> list[FakeMessage]:
        """Messages still in ``channel``, oldest first (snowflakes sort by time)."""
        return sorted((m for m in self.messages.values() if m.channel is channel), key=lambda m: m.id)

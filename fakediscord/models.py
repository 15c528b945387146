"""The fake's state: guilds, channels, users, messages and attachments, plus their wire payloads."""

from __future__ import annotations

import re
import struct
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from .locales import DEFAULT_LOCALE, require_locale
from .snowflake import iso_now, snowflake_time

# A member who may use the usual text features; administrators are not the default on purpose, so
# permission checks in the bot are exercised.
DEFAULT_MEMBER_PERMISSIONS = (
    (1 << 6)  # add reactions
    | (1 << 10)  # view channel
    | (1 << 11)  # send messages
    | (1 << 14)  # embed links
    | (1 << 15)  # attach files
    | (1 << 16)  # read message history
    | (1 << 18)  # use external emojis
    | (1 << 31)  # use application commands
)
ADMINISTRATOR = 1 << 3
ALL_PERMISSIONS = (1 << 53) - 1
# What the bot gets in every channel: enough for messages, files, embeds and threads.
DEFAULT_APP_PERMISSIONS = DEFAULT_MEMBER_PERMISSIONS | (1 << 13) | (1 << 35) | (1 << 38)

EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15


@dataclass(eq=False)
class FakeUser:
    """A Discord user. ``locale`` is what the user's client sends with each interaction."""

    id: int
    name: str
    locale: str = DEFAULT_LOCALE
    bot: bool = False
    global_name: str | None = None
    accepts_dms: bool = True  # False: the user blocks direct messages from the server's members (Discord: 50007)

    def __post_init__(self) -> None:
        require_locale(self.locale, f"user {self.name!r}:")

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "global_name": self.global_name or self.name,
            "discriminator": "0",
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }


@dataclass(eq=False)
class FakeRole:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    guild_id: int
    name: str
    permissions: int = 0
    position: int = 0

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": True,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    """A user's membership in one guild. ``permissions`` overrides the role-derived value when set."""

    user: FakeUser
    guild: FakeGuild
    roles: list[FakeRole] = field(default_factory=list)
    permissions_override: int | None = None
    nick: str | None = None
    joined_at: str = field(default_factory=iso_now)

    def __repr__(self) -> str:
        return f"<FakeMember {self.user.name!r} of {self.guild.name!r} roles={[r.name for r in self.roles]}>"

    @property
    def permissions(self) -> int:
        """Effective permissions; the fake has no channel overwrites, so this holds in every channel."""
        if self.permissions_override is not None:
            perms = self.permissions_override
        else:
            perms = self.guild.everyone_role.permissions
            for role in self.roles:
                perms |= role.permissions
        # Owners and administrators implicitly have every permission, as in Discord.
        if self.guild.owner_id == self.user.id or perms & ADMINISTRATOR:
            return ALL_PERMISSIONS
        return perms

    def to_payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(r.id) for r in self.roles],
            "flags": 0,
            "joined_at": self.joined_at,
            "deaf": False,
            "mute": False,
            "nick": self.nick,
            "avatar": None,
            "premium_since": None,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.to_payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


PUBLIC_THREAD = 11
DM = 1  # a direct message channel


@dataclass(eq=False)
class FakeChannel:
    """A guild text channel (type 0), or a public thread (type 11) started from a message of ``parent``."""

    id: int
    guild: FakeGuild
    name: str
    position: int = 0
    type: int = 0
    topic: str | None = None
    parent: FakeChannel | None = None
    owner_id: int | None = None
    auto_archive_duration: int = 1440
    created: str = field(default_factory=iso_now)
    recipient: FakeUser | None = None  # a direct message channel's user (type 1; `guild` is only where it began)

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    @property
    def is_dm(self) -> bool:
        return self.type == DM

    def __repr__(self) -> str:
        return f"<FakeChannel #{self.name} id={self.id}>"

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def to_payload(self) -> dict[str, Any]:
        if self.is_dm and self.recipient is not None:
            return {"id": str(self.id), "type": DM, "last_message_id": None, "flags": 0,
                    "recipients": [self.recipient.to_payload()]}
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild.id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": self.topic,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "flags": 0,
        } | (self._thread_payload() if self.is_thread else {})

    def _thread_payload(self) -> dict[str, Any]:
        assert self.parent is not None
        return {
            "parent_id": str(self.parent.id),
            "owner_id": str(self.owner_id),
            "message_count": 0,
            "member_count": 1,
            "total_message_sent": 0,
            "thread_metadata": {
                "archived": False,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": self.created,
                "locked": False,
                "create_timestamp": self.created,
            },
        }


@dataclass(eq=False)
class FakeGuild:
    """A guild with its channels, roles and members."""

    id: int
    name: str
    owner_id: int
    locale: str = DEFAULT_LOCALE
    channels: list[FakeChannel] = field(default_factory=list)
    roles: list[FakeRole] = field(default_factory=list)
    members: dict[int, FakeMember] = field(default_factory=dict)

    def __post_init__(self) -> None:
        require_locale(self.locale, f"guild {self.name!r}:")

    def __repr__(self) -> str:
        return f"<FakeGuild {self.name!r} id={self.id} channels={[c.name for c in self.channels]}>"

    @property
    def everyone_role(self) -> FakeRole:
        return self.roles[0]

    def channel(self, name: str) -> FakeChannel:
        """The channel called ``name`` (``KeyError`` if there is none)."""
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise KeyError(name)

    def role(self, name: str) -> FakeRole:
        """The role called ``name`` (``KeyError`` if there is none)."""
        for role in self.roles:
            if role.name == name:
                return role
        raise KeyError(name)

    def to_payload(self) -> dict[str, Any]:
        """The full GUILD_CREATE payload."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.to_payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "max_members": 500000,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "joined_at": iso_now(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [m.to_payload() for m in self.members.values()],
            "channels": [c.to_payload() for c in self.channels],
            "threads": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


_USER_MENTION = re.compile(r"<@!?(\d+)>")
_ROLE_MENTION = re.compile(r"<@&(\d+)>")


@dataclass(frozen=True)
class Pings:
    """The notifications a message causes: Discord parses mentions in the content, filtered by
    ``allowed_mentions`` (none sent means everything is allowed)."""

    users: frozenset[int]
    roles: frozenset[int]
    everyone: bool

    @classmethod
    def of(cls, content: str, allowed: dict[str, Any] | None) -> Pings:
        users = {int(m) for m in _USER_MENTION.findall(content)}
        roles = {int(m) for m in _ROLE_MENTION.findall(content)}
        everyone = "@everyone" in content or "@here" in content
        if allowed is None:
            return cls(frozenset(users), frozenset(roles), everyone)
        parse = set(allowed.get("parse") or [])
        if "users" not in parse:
            users &= {int(u) for u in allowed.get("users") or []}
        if "roles" not in parse:
            roles &= {int(r) for r in allowed.get("roles") or []}
        return cls(frozenset(users), frozenset(roles), everyone and "everyone" in parse)


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return struct.unpack(">II", data[16:24])
    return None


@dataclass(eq=False)
class FakeAttachment:
    """A file uploaded to the fake; ``url`` is served by the fake itself, so ``Attachment.read()`` works."""

    id: int
    filename: str
    data: bytes
    url: str
    content_type: str = "application/octet-stream"
    description: str | None = None

    def to_payload(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }
        if self.description is not None:
            payload["description"] = self.description
        size = _png_size(self.data)
        if size is not None:
            payload["width"], payload["height"] = size
        return payload


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, through action rows, containers, sections and labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("accessory", "component"):
            child = component.get(key)
            if isinstance(child, dict):
                yield from walk_components([child])


@dataclass(eq=False)
class FakeMessage:
    """A message as it is now in its channel (edits applied). Components are the raw dicts sent."""

    id: int
    channel: FakeChannel
    author: FakeUser
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    allowed_mentions: dict[str, Any] | None = None
    webhook_id: int | None = None
    application_id: int | None = None
    interaction_metadata: dict[str, Any] | None = None
    edited_timestamp: str | None = None
    deleted: bool = False
    history: list[dict[str, Any]] = field(default_factory=list)

    def __repr__(self) -> str:
        content = self.content if len(self.content) <= 60 else self.content[:57] + "..."
        return (
            f"<FakeMessage id={self.id} #{self.channel.name} by {self.author.name} content={content!r}"
            f" embeds={len(self.embeds)} components={self.custom_ids()}"
            f" attachments={[a.filename for a in self.attachments]} flags={self.flags}>"
        )

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)

    @property
    def text(self) -> str:
        """What a reader sees, as lines: the content, then each embed's author, title, description, fields
        (name, then value) and footer, then the text displays of a Components V2 message, in order."""
        lines = [self.content] if self.content else []
        lines += [str(c.get("content") or "") for c in walk_components(self.components) if c.get("type") == 10]
        for embed in self.embeds:
            lines += [str((embed.get("author") or {}).get("name") or ""), str(embed.get("title") or ""),
                      str(embed.get("description") or "")]
            for f in embed.get("fields") or []:
                lines += [str(f.get("name") or ""), str(f.get("value") or "")]
            lines.append(str((embed.get("footer") or {}).get("text") or ""))
        return "\n".join(line for line in lines if line)

    def pings(self) -> Pings:
        """Who this message actually notifies, given its content and the ``allowed_mentions`` sent."""
        return Pings.of(self.content, self.allowed_mentions)

    @property
    def loading(self) -> bool:
        """True while a deferred ("thinking…") response has not been edited yet."""
        return bool(self.flags & LOADING)

    @property
    def created_at(self) -> Any:
        return snowflake_time(self.id)

    def shown_attachments(self) -> list[FakeAttachment]:
        """The attachments a reader sees. A components-v2 message shows only those a component points at
        (``attachment://name`` in a media gallery, thumbnail or file; components-reference.mdx: "Attachments
        won't show by default - they must be exposed through components"); any other message shows them all."""
        if not self.flags & IS_COMPONENTS_V2:
            return list(self.attachments)
        named = set()
        for component in walk_components(self.components):
            media = [item.get("media") for item in component.get("items") or [] if isinstance(item, dict)]
            media += [component.get("media"), component.get("file")]
            named |= {str(m.get("url", "")).removeprefix("attachment://") for m in media if isinstance(m, dict)}
        return [a for a in self.attachments if a.filename in named]

    def all_components(self) -> list[dict[str, Any]]:
        """Every component in the message, flattened (rows, buttons, selects, containers…)."""
        return list(walk_components(self.components))

    def find_component(
        self,
        *,
        custom_id: str | None = None,
        prefix: str | None = None,
        label: str | None = None,
        type: int | None = None,
    ) -> dict[str, Any] | None:
        """The first component matching every given criterion, or None.

        ``prefix`` matches the start of ``custom_id``; ``label`` matches a button's label exactly.
        """
        for component in walk_components(self.components):
            cid = component.get("custom_id")
            if custom_id is not None and cid != custom_id:
                continue
            if prefix is not None and not (cid or "").startswith(prefix):
                continue
            if label is not None and component.get("label") != label:
                continue
            if type is not None and component.get("type") != type:
                continue
            return component
        return None

    def component(self, **criteria: Any) -> dict[str, Any]:
        """Like :meth:`find_component` but raises ``LookupError`` listing what exists when nothing matches."""
        found = self.find_component(**criteria)
        if found is None:
            existing = [(c.get("label"), c.get("custom_id")) for c in walk_components(self.components)]
            raise LookupError(f"no component {criteria} in message {self.id}; have {existing}")
        return found

    def buttons(self) -> list[dict[str, Any]]:
        """All buttons (type 2), in order."""
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    def custom_ids(self) -> list[str]:
        """Every ``custom_id`` in the message, in order."""
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    def attachment_bytes(self, index: int = 0) -> bytes:
        """The bytes of attachment ``index`` (synchronous: the fake holds them in memory)."""
        return self.attachments[index].data

    def to_payload(self, *, with_guild: bool = False) -> dict[str, Any]:
        """The message object as Discord's REST API returns it (with ``guild_id``/``member`` for events)."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "type": self.type,
            "content": self.content,
            "author": self.author.to_payload(),
            "timestamp": self.created_at.isoformat(),
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.to_payload() for a in self.attachments],
            "embeds": self.embeds,
            "components": self.components,
            "pinned": False,
            "flags": self.flags,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
        if self.application_id is not None:
            data["application_id"] = str(self.application_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = self.interaction_metadata
        if with_guild and not self.channel.is_dm:
            data["guild_id"] = str(self.channel.guild.id)
            member = self.channel.guild.members.get(self.author.id)
            if member is not None and self.webhook_id is None:
                data["member"] = member.to_payload(with_user=False)
        return data


@dataclass
class ErrorRecord:
    """Something a real Discord would have rejected, or a deadline the bot missed."""

    kind: str  # "late_ack", "already_acknowledged", "limit", "not_found", "unsupported", "bad_request"
    method: str
    path: str
    status: int
    code: int
    message: str
    detail: Any = None

    def __str__(self) -> str:
        return f"{self.kind}: {self.method} {self.path} -> {self.status} {self.code} {self.message} {self.detail!r}"

"""Builds INTERACTION_CREATE payloads the way Discord's client would, from what the bot registered."""

from __future__ import annotations

import secrets
from typing import Any

from .models import (
    ADMINISTRATOR,
    DEFAULT_APP_PERMISSIONS,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    walk_components,
)
from .replies import Reply
from .state import State

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11
STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 3, 5, 6, 7, 8
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

Resolved = dict[str, dict[str, Any]]


def _member(user: FakeUser, guild: FakeGuild) -> FakeMember:
    member = guild.members.get(user.id)
    if member is None:
        raise ValueError(f"{user.name} is not a member of guild {guild.name}; add them with fake.add_member()")
    return member


class InteractionFactory:
    """Turns a simulated user action into an interaction payload plus the :class:`Reply` that tracks it."""

    def __init__(self, state: State, *, ack_deadline: float, app_permissions: int = DEFAULT_APP_PERMISSIONS) -> None:
        self.state = state
        self.ack_deadline = ack_deadline
        self.app_permissions = app_permissions

    def create(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        message: FakeMessage | None = None,
    ) -> Reply:
        state = self.state
        guild = channel.guild
        member = _member(user, guild)
        interaction_id = state.ids.next()
        token = f"fake-token-{interaction_id}-{secrets.token_hex(8)}"
        payload: dict[str, Any] = {
            "id": str(interaction_id),
            "application_id": str(state.application_id),
            "type": itype,
            "token": token,
            "version": 1,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
            "data": data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "channel_id": str(channel.id),
            # discord.py sets interaction.channel only from this object, not from channel_id.
            "channel": {**channel.to_payload(), "permissions": str(member.permissions)},
            "member": member.to_payload(with_permissions=True),
            "locale": user.locale,
            "guild_locale": guild.locale,
            "app_permissions": str(self.app_permissions),
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
        }
        if message is not None:
            payload["message"] = message.to_payload()
        reply = Reply(
            interaction_id=interaction_id,
            token=token,
            interaction_type=itype,
            user=user,
            channel=channel,
            payload=payload,
            notifier=state.notifier,
            deadline=self.ack_deadline,
            source_message=message,
        )
        state.replies[interaction_id] = reply
        state.replies_by_token[token] = reply
        return reply

    # -- application commands -----------------------------------------------------------------------
    def command_data(
        self,
        guild: FakeGuild,
        path: str,
        options: dict[str, Any],
        *,
        user: FakeUser | None = None,
        focused: str | None = None,
        focused_value: str = "",
    ) -> dict[str, Any]:
        """``data`` of a chat-input command: nested sub-command (group) options, typed leaf options,
        ``resolved`` entities; with ``focused`` it is an autocomplete request."""
        names = path.split()
        command = self.state.find_command(guild, names[0])
        if user is not None:
            self._check_can_see(command, _member(user, guild))
        defs: list[dict[str, Any]] = command.get("options") or []
        top: list[dict[str, Any]] = []
        container = top
        for name in names[1:]:
            spec = next((d for d in defs if d["name"] == name and d["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)), None)
            if spec is None:
                subs = [d["name"] for d in defs if d["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
                raise LookupError(f"/{path}: no subcommand {name!r}; have {subs}")
            node: dict[str, Any] = {"type": spec["type"], "name": name, "options": []}
            container.append(node)
            container = node["options"]
            defs = spec.get("options") or []
        subs = [d["name"] for d in defs if d["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
        if subs:
            raise LookupError(f"/{path} needs a subcommand: {subs}")

        resolved: Resolved = {}
        given = dict(options)
        if focused is not None:
            given.pop(focused, None)
        by_name = {d["name"]: d for d in defs}
        for name, value in given.items():
            if name not in by_name:
                raise LookupError(f"/{path} has no option {name!r}; have {sorted(by_name)}")
            spec = by_name[name]
            container.append(
                {"type": spec["type"], "name": name, "value": self._option_value(spec, value, guild, resolved)}
            )
        if focused is not None:
            if focused not in by_name:
                raise LookupError(f"/{path} has no option {focused!r}; have {sorted(by_name)}")
            spec = by_name[focused]
            if not spec.get("autocomplete"):
                raise ValueError(f"option {focused!r} of /{path} was not registered with autocomplete")
            # While typing, Discord sends the raw text whatever the option's type.
            container.append({"type": spec["type"], "name": focused, "value": focused_value, "focused": True})
        else:
            missing = [d["name"] for d in defs if d.get("required") and d["name"] not in given]
            if missing:
                raise ValueError(f"/{path}: required option(s) missing: {missing}")

        data: dict[str, Any] = {"id": command["id"], "name": command["name"], "type": 1, "options": top}
        if "guild_id" in command:
            data["guild_id"] = command["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data

    @staticmethod
    def _check_can_see(command: dict[str, Any], member: FakeMember) -> None:
        # Discord's client hides commands whose default_member_permissions the member lacks.
        required = command.get("default_member_permissions")
        if required is None:
            return
        bits = int(required)
        # "0" means: administrators only.
        allowed = bool(member.permissions & ADMINISTRATOR) if bits == 0 else not bits & ~member.permissions
        if not allowed:
            raise PermissionError(
                f"/{command['name']} needs permissions {required}; {member.user.name} has {member.permissions}, "
                "so Discord would not offer the command"
            )

    def _option_value(self, spec: dict[str, Any], value: Any, guild: FakeGuild, resolved: Resolved) -> Any:
        kind, name = spec["type"], spec["name"]
        if kind == STRING:
            result: Any = str(value)
        elif kind == INTEGER:
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"option {name!r} is an integer, got {value!r}")
            result = value
        elif kind == NUMBER:
            result = float(value)
        elif kind == BOOLEAN:
            result = bool(value)
        elif kind in (USER, MENTIONABLE) and isinstance(value, FakeUser):
            result = self._resolve_user(value, guild, resolved)
        elif kind in (ROLE, MENTIONABLE) and isinstance(value, FakeRole):
            resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
            result = str(value.id)
        elif kind == CHANNEL and isinstance(value, FakeChannel):
            resolved.setdefault("channels", {})[str(value.id)] = self._channel_payload(value)
            result = str(value.id)
        elif kind == ATTACHMENT:
            attachment = value if isinstance(value, FakeAttachment) else self.state.store_attachment(*value)
            resolved.setdefault("attachments", {})[str(attachment.id)] = attachment.to_payload()
            result = str(attachment.id)
        else:
            raise TypeError(f"option {name!r} (type {kind}) cannot take {value!r}")
        choices = spec.get("choices")
        if choices and result not in [c["value"] for c in choices]:
            raise ValueError(f"option {name!r} must be one of {[c['value'] for c in choices]}, got {result!r}")
        return result

    @staticmethod
    def _channel_payload(channel: FakeChannel) -> dict[str, Any]:
        return {**channel.to_payload(), "permissions": str((1 << 53) - 1)}

    @staticmethod
    def _resolve_user(user: FakeUser, guild: FakeGuild, resolved: Resolved) -> str:
        resolved.setdefault("users", {})[str(user.id)] = user.to_payload()
        member = guild.members.get(user.id)
        if member is not None:
            resolved.setdefault("members", {})[str(user.id)] = member.to_payload(with_user=False, with_permissions=True)
        return str(user.id)

    # -- components ---------------------------------------------------------------------------------
    def component_data(self, message: FakeMessage, custom_id: str, values: list[Any] | None) -> dict[str, Any]:
        """``data`` of a click (``values`` None) or a select; checks the component exists and is enabled."""
        component = message.find_component(custom_id=custom_id)
        if component is None:
            raise LookupError(f"message {message.id} has no component {custom_id!r}; have {message.custom_ids()}")
        if component.get("disabled"):
            raise ValueError(f"component {custom_id!r} is disabled; a user cannot use it")
        kind = component["type"]
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": kind}
        if values is None:
            if kind != 2:
                raise ValueError(f"{custom_id!r} is not a button (type {kind}); use fake.select()")
            return data
        if kind == 2:
            raise ValueError(f"{custom_id!r} is a button; use fake.click()")
        data["values"], resolved = self._select_values(component, values, message.channel.guild)
        if resolved:
            data["resolved"] = resolved
        return data

    def _select_values(
        self, component: dict[str, Any], values: list[Any], guild: FakeGuild
    ) -> tuple[list[str], Resolved]:
        lo, hi = component.get("min_values", 1), component.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {component['custom_id']!r} takes {lo}..{hi} values, got {len(values)}")
        resolved: Resolved = {}
        if component["type"] == STRING_SELECT:
            allowed = [o["value"] for o in component.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"select {component['custom_id']!r} has no option(s) {bad}; have {allowed}")
            return [str(v) for v in values], resolved
        ids = []
        for value in values:
            if isinstance(value, FakeUser):
                ids.append(self._resolve_user(value, guild, resolved))
            elif isinstance(value, FakeRole):
                resolved.setdefault("roles", {})[str(value.id)] = value.to_payload()
                ids.append(str(value.id))
            elif isinstance(value, FakeChannel):
                resolved.setdefault("channels", {})[str(value.id)] = self._channel_payload(value)
                ids.append(str(value.id))
            else:
                raise TypeError(f"entity select values must be FakeUser/FakeRole/FakeChannel, got {value!r}")
        return ids, resolved

    # -- modals -------------------------------------------------------------------------------------
    def find_modal(self, user: FakeUser, custom_id: str) -> Reply | None:
        """The latest interaction of ``user`` that the bot answered with modal ``custom_id``."""
        for reply in reversed(self.state.replies.values()):
            opened = reply.modal if reply.user is user else None
            if opened is not None and opened.get("custom_id") == custom_id:
                return reply
        return None

    def modal_data(self, opened_by: Reply | None, custom_id: str, values: dict[str, Any]) -> dict[str, Any]:
        """``data`` of a modal submission, mirroring the layout the bot sent (action rows or labels)."""
        if opened_by is None:
            # No record of the modal (e.g. opened by an earlier process): send the classic layout.
            rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]} for k, v in values.items()]
            return {"custom_id": custom_id, "components": rows}
        modal = opened_by.modal or {}
        remaining = dict(values)
        components = []
        for top in modal.get("components", []):
            if top.get("type") == 1:
                inner = [self._submitted(c, remaining) for c in top.get("components", [])]
                components.append({"type": 1, "components": [c for c in inner if c]})
            elif top.get("type") == 18:
                submitted = self._submitted(top.get("component") or {}, remaining)
                if submitted:
                    components.append({"type": 18, "component": submitted})
        if remaining:
            known = [c["custom_id"] for c in walk_components(modal.get("components", [])) if "custom_id" in c]
            raise LookupError(f"modal {custom_id!r} has no input(s) {sorted(remaining)}; have {known}")
        return {"custom_id": custom_id, "components": components}

    @staticmethod
    def _submitted(component: dict[str, Any], remaining: dict[str, Any]) -> dict[str, Any] | None:
        custom_id = component.get("custom_id")
        if custom_id is None:
            return None
        if component.get("type") == 4:
            value = str(remaining.pop(custom_id, component.get("value") or ""))
            if component.get("required", True) and not value:
                raise ValueError(f"text input {custom_id!r} is required")
            if len(value) > component.get("max_length", 4000) or len(value) < component.get("min_length", 0):
                raise ValueError(f"text input {custom_id!r}: length {len(value)} outside the allowed range")
            return {"type": 4, "custom_id": custom_id, "value": value}
        values = remaining.pop(custom_id, [])
        return {"type": component.get("type"), "custom_id": custom_id, "values": [str(v) for v in values]}

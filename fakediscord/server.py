"""``FakeDiscord``: the aiohttp app (REST + gateway) and the driver API tests use to play the users."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any, Literal

from aiohttp import web

from .faults import Fault, Faults, Hold, Route
from .gateway import HEARTBEAT_INTERVAL_MS, Gateway, GatewaySession
from .interactions import InteractionFactory
from .locales import DEFAULT_LOCALE
from .models import (
    DEFAULT_APP_PERMISSIONS,
    DEFAULT_MEMBER_PERMISSIONS,
    ErrorRecord,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
)
from .old_edits import OldEditLimit
from .process import BotProcess, launch_module
from .ratelimits import DEFAULT as DEFAULT_RATE_LIMITS
from .ratelimits import RateLimiter, RateLimits
from .replies import DEFERRED_CHANNEL_MESSAGE, Reply
from .rest import RestApi
from .spec import load_spec
from .state import State
from .validation import BodyValidation

APPLICATION_COMMAND, COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 2, 3, 4, 5


class FakeDiscord:
    """A fake Discord on 127.0.0.1 that an unmodified discord.py client can log in to.

    Use it from async tests on the same event loop as the client::

        fake = FakeDiscord()
        await fake.start()
        guild = fake.add_guild("Mesa")
        ana = fake.add_user("ana", guild)
        point_discord_py_at(fake.base_url, fake.gateway_url)
        ... start the bot, await fake.wait_for_commands() ...
        reply = await fake.slash(ana, guild.channel("general"), "turista new", options={"seats": 4})
        await reply.wait()
    """

    def __init__(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        ack_deadline: float = 3.0,
        token: str | None = None,
        app_permissions: int = DEFAULT_APP_PERMISSIONS,
        heartbeat_interval: float = HEARTBEAT_INTERVAL_MS / 1000,
        rate_limits: RateLimits | None = DEFAULT_RATE_LIMITS,
    ) -> None:
        """``port=0`` picks a free port. ``ack_deadline`` is Discord's 3 s; ``token``, if given, is the
        only bot token ``GET /users/@me`` accepts (others get 401, i.e. ``LoginFailure``).
        ``app_permissions`` is what the bot may do in every channel (``interaction.app_permissions``).
        ``heartbeat_interval`` is the seconds between the client's heartbeats (Discord's 41.25 s).
        ``rate_limits``: Discord's rate limits the bot is held to (see `fakediscord.ratelimits`), None for none;
        every answer is counted in :attr:`rate_limiter` either way."""
        self.host = host
        self.port = port
        self.state = State()
        self.gateway = Gateway(
            ready_payload=self._ready_payload,
            guild_payloads=lambda session: [g.to_payload() for g in self.state.guilds.values() if session.owns(g.id)],
            member_payloads=self._member_payloads,
            on_change=self.state.notifier.changed,
            heartbeat_interval=heartbeat_interval,
        )
        self.state.dispatch = self.gateway.dispatch
        self.rest = RestApi(self.state, token=token, app_permissions=app_permissions)
        self.interactions = InteractionFactory(self.state, ack_deadline=ack_deadline, app_permissions=app_permissions)
        self.faults = Faults()
        self.rate_limiter = RateLimiter(rate_limits)
        # Bodies checked against Discord's spec (when it is there) after the faults a test injects.
        self.validation = BodyValidation(self.rest, load_spec())
        self.app = web.Application(client_max_size=64 * 1024 * 1024,
                                   middlewares=[self.rate_limiter.middleware, self.faults.middleware,
                                                self.validation.middleware])
        self.app.router.add_get("/gateway", self.gateway.handle)
        self.app.add_routes(self.rest.routes())
        self._runner: web.AppRunner | None = None

    # -- lifecycle ----------------------------------------------------------------------------------
    async def start(self) -> FakeDiscord:
        """Listen on ``host:port`` (a free port when 0); returns self so ``fake = await FakeDiscord().start()``."""
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = self._runner.addresses[0][1]
        self.state.base_url = f"http://{self.host}:{self.port}"
        self.rest.gateway_url = self.gateway_url
        return self

    async def stop(self) -> None:
        """Close gateway sockets and the HTTP server."""
        await self.gateway.disconnect(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        """REST base for ``discord.http.Route.BASE``, e.g. ``http://127.0.0.1:PORT/api/v10``."""
        return f"{self.state.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        """Websocket URL for ``DiscordWebSocket.DEFAULT_GATEWAY``, e.g. ``ws://127.0.0.1:PORT/gateway``."""
        return f"ws://{self.host}:{self.port}/gateway"

    def _member_payloads(self, guild_id: int) -> list[dict[str, Any]]:
        guild = self.state.guilds.get(guild_id)
        return [m.to_payload() for m in guild.members.values()] if guild else []

    def _ready_payload(self, session: GatewaySession) -> dict[str, Any]:
        return {
            "v": 10,
            "user": {**self.state.bot.to_payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "session_id": session.id,
            "resume_gateway_url": self.gateway_url,
            "guilds": [{"id": str(g), "unavailable": True} for g in self.state.guilds if session.owns(g)],
            "application": {"id": str(self.state.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "shard": list(session.shard),
        }

    # -- world building -----------------------------------------------------------------------------
    @property
    def bot_user(self) -> FakeUser:
        """The bot's own user (its id is also the application id)."""
        return self.state.bot

    @property
    def guilds(self) -> list[FakeGuild]:
        """All guilds, in creation order."""
        return list(self.state.guilds.values())

    def add_guild(
        self,
        name: str = "Turista test",
        *,
        locale: str = DEFAULT_LOCALE,
        channels: Iterable[str] = ("general",),
        on_shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Create a guild the bot is in, with an @everyone role and text ``channels``.

        Its owner is a separate user (``fake.state.owner``) so test users are not owners by accident.
        ``on_shard=(shard_id, shard_count)`` picks an id that Discord routes to that shard.
        ``locale`` (its ``preferred_locale``, sent as ``guild_locale``) must be one of Discord's, else ``ValueError``.
        If the bot is already connected, it receives GUILD_CREATE.
        """
        state = self.state
        guild_id = state.ids.next() if on_shard is None else state.ids.next_on_shard(*on_shard)
        guild = FakeGuild(id=guild_id, name=name, owner_id=state.owner.id, locale=locale)
        guild.roles.append(
            FakeRole(id=guild.id, guild_id=guild.id, name="@everyone", permissions=DEFAULT_MEMBER_PERMISSIONS)
        )
        state.guilds[guild.id] = guild
        for user in (state.bot, state.owner):
            guild.members[user.id] = FakeMember(user=user, guild=guild)
        for channel_name in channels:
            self._new_channel(guild, channel_name)
        self._dispatch("GUILD_CREATE", guild.to_payload())
        return guild

    def _new_channel(self, guild: FakeGuild, name: str, topic: str | None = None) -> FakeChannel:
        channel = FakeChannel(
            id=self.state.ids.next(), guild=guild, name=name, position=len(guild.channels), topic=topic
        )
        guild.channels.append(channel)
        self.state.channels[channel.id] = channel
        return channel

    def add_channel(self, guild: FakeGuild, name: str, *, topic: str | None = None) -> FakeChannel:
        """Create a text channel (CHANNEL_CREATE is sent if the bot is connected)."""
        channel = self._new_channel(guild, name, topic)
        self._dispatch("CHANNEL_CREATE", channel.to_payload())
        return channel

    def add_role(self, guild: FakeGuild, name: str, *, permissions: int = 0) -> FakeRole:
        """Create a role (GUILD_ROLE_CREATE is sent if the bot is connected)."""
        role = FakeRole(
            id=self.state.ids.next(), guild_id=guild.id, name=name, permissions=permissions, position=len(guild.roles)
        )
        guild.roles.append(role)
        self._dispatch("GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role.to_payload()})
        return role

    def add_user(
        self,
        name: str,
        guild: FakeGuild | None = None,
        *,
        locale: str = DEFAULT_LOCALE,
        permissions: int | None = None,
        roles: Iterable[FakeRole] = (),
        nick: str | None = None,
    ) -> FakeUser:
        """Create a human user; with ``guild``, also make them a member (see :meth:`add_member`).

        ``locale`` is the client language sent as ``interaction.locale``: one of Discord's (``LOCALES``), else
        ``ValueError``, as no Discord client sends another.
        """
        user = FakeUser(id=self.state.ids.next(), name=name, locale=locale)
        self.state.users[user.id] = user
        if guild is not None:
            self.add_member(user, guild, permissions=permissions, roles=roles, nick=nick)
        return user

    def add_member(
        self,
        user: FakeUser,
        guild: FakeGuild,
        *,
        permissions: int | None = None,
        roles: Iterable[FakeRole] = (),
        nick: str | None = None,
    ) -> FakeMember:
        """Make ``user`` a member of ``guild``. ``permissions`` (an int bit set) overrides what the roles
        give; by default a member has the usual text permissions but is not an administrator."""
        member = FakeMember(user=user, guild=guild, roles=list(roles), permissions_override=permissions, nick=nick)
        guild.members[user.id] = member
        self._dispatch("GUILD_MEMBER_ADD", {**member.to_payload(), "guild_id": str(guild.id)})
        return member

    def _dispatch(self, event: str, data: dict[str, Any]) -> None:
        self.gateway.dispatch(event, data)
        self.state.notifier.changed()

    # -- waiting for the bot ------------------------------------------------------------------------
    @property
    def connected(self) -> bool:
        """Whether a client is identified and its socket open (with shards: every shard of its count)."""
        session = self.gateway.current
        return session is not None and session.connected and self.shards_connected(*range(session.shard[1]))

    def shards_connected(self, *shard_ids: int, count: int | None = None) -> bool:
        """Whether a session of each of these shards (of `count`, default: the newest session's) is connected."""
        if count is None:
            current = self.gateway.current
            count = current.shard[1] if current is not None else 1
        connected = self.gateway.connected_shards()
        return all((shard_id, count) in connected for shard_id in shard_ids)

    async def wait_until_connected(self, timeout: float = 10.0, *, guild: FakeGuild | None = None) -> None:
        """Wait until a client has identified (READY and GUILD_CREATE were queued to it); with ``guild``,
        until the session of that guild's shard is connected (other shards may be down)."""

        def ready() -> bool:
            if guild is None:
                return self.connected
            session = self.gateway.session_for(guild.id)
            return session is not None and session.connected

        await self.state.notifier.wait_for(ready, timeout, "the bot to connect to the gateway")

    async def wait_for_commands(self, *names: str, timeout: float = 10.0) -> None:
        """Wait until the bot has synced application commands (all ``names``, if given, are registered)."""

        def done() -> bool:
            registered = {c["name"] for cmds in self.state.commands.values() for c in cmds}
            return self.state.command_syncs > 0 and set(names) <= registered

        await self.state.notifier.wait_for(done, timeout, f"the bot to register commands {names or ''}")

    async def disconnect(self, *, resume: bool = True) -> None:
        """Close the bot's gateway socket, as Discord does now and then. With ``resume`` the client
        RESUMEs and gets the missed events replayed. Without, the session is forgotten first, so the
        RESUME is refused (op 9) and the client identifies again; discord.py waits 5 s before that."""
        if not resume:
            self.gateway.sessions.clear()
        await self.gateway.disconnect(code=4000)

    def fail_next(
        self,
        method: str,
        path_contains: str,
        *,
        status: int = 429,
        code: int = 0,
        message: str = "",
        retry_after: float = 0.05,
        times: int = 1,
    ) -> Fault:
        """Make the next ``times`` requests like ``("POST", "/callback")`` fail with ``status``.

        A 429 carries ``retry_after`` the way Discord does, so discord.py waits and retries; other statuses
        (500, 403 with ``code=50013``…) reach the bot as ``HTTPException``. Injected failures are the
        test's own doing, so they are not added to :attr:`errors`; they are listed in ``fake.faults.injected``.
        """
        route = Route(method, path_contains, substring=True)
        return self._add_fault(Fault(route, status, code, message, retry_after, times))

    def fail(
        self,
        method: str,
        route: str,
        *,
        status: int,
        code: int = 0,
        reason: str = "",
        retry_after: float = 0.05,
        times: int | None = 1,
        errors: dict[str, Any] | None = None,
        **pinned: int | str,
    ) -> Fault:
        """Answer requests to ``route`` (Discord's notation, e.g. ``"/channels/{channel}/messages/{message}"``)
        with ``status`` (and Discord's error ``code`` and ``reason``): the next ``times`` of them, or every
        one until ``fault.clear()`` with ``times=None``. ``errors`` is the error tree a 400 carries
        (``{"0": {"name": {"_errors": [{"code": ..., "message": ...}]}}}``). Keyword arguments pin placeholders
        (``channel=channel.id, message=message.id``). See :meth:`fail_next` for the rest."""
        return self._add_fault(Fault(Route(method, route, pinned), status, code, reason, retry_after, times,
                                     errors=errors))

    def limit_old_edits(self, budget: int, *, older_than: float = 3600.0, window: float = 3600.0,
                        retry_after: float = 60.0, channel: FakeChannel | None = None) -> OldEditLimit:
        """Refuse edits of old messages past a budget, as Discord does (429, JSON code 30046): each channel may
        edit messages at least ``older_than`` seconds old (by their id) ``budget`` times within any ``window``
        seconds. With ``channel``, the rule of that channel alone; else of every channel without its own. Edits
        through the channel's and the interaction webhooks' message routes count; a refusal is listed in the
        rule's ``refused``, not in :attr:`errors` (a bot may meet the limit without a bug)."""
        limit = OldEditLimit(budget, older_than, window, retry_after)
        self.state.old_edit_limits[channel.id if channel is not None else None] = limit
        return limit

    def _add_fault(self, fault: Fault) -> Fault:
        self.faults.pending.append(fault)
        return fault

    def hold(
        self,
        method: str,
        route: str,
        *,
        when: Literal["before", "after"] = "before",
        delay: float | None = None,
        times: int | None = None,
        **pinned: int | str,
    ) -> Hold:
        """Keep requests to ``route`` waiting until ``hold.release()`` (or ``delay`` seconds each).

        ``when="after"`` applies each request first and holds only its answer: the message exists on the
        fake, the bot has not heard back. ``await hold.reached(n)`` waits until n requests are held."""
        hold = Hold(Route(method, route, pinned), when=when, delay=delay, times=times)
        self.faults.holds.append(hold)
        return hold

    def clear_faults(self) -> None:
        """Drop every failure rule and release every held request."""
        self.faults.clear()

    async def launch(
        self,
        module: str,
        *args: str,
        log_path: Path,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        extra_pythonpath: list[Path] | None = None,
        cpus: frozenset[int] = frozenset(),
        inherit: bool = True,
    ) -> BotProcess:
        """Run ``python -m module *args`` in a child process pointed at this fake (see
        :func:`~fakediscord.process.launch_module`). Stop it with ``await process.stop()``."""
        return await launch_module(
            self.base_url,
            self.gateway_url,
            module,
            *args,
            log_path=log_path,
            env=env,
            cwd=cwd,
            extra_pythonpath=extra_pythonpath,
            cpus=cpus,
            inherit=inherit,
        )

    def commands(self, guild: FakeGuild | None = None) -> list[dict[str, Any]]:
        """The commands the bot registered globally (or for ``guild``), as Discord echoed them."""
        return self.state.commands.get(guild.id if guild else None, [])

    # -- simulated users ----------------------------------------------------------------------------
    async def _await_sync(self, guild: FakeGuild | None = None) -> None:
        # Bots sync in setup_hook (before connecting) or in on_ready (after): wait for either, so a test
        # may act right after starting the bot. Once any sync happened, lookups fail fast instead.
        await self.wait_until_connected(timeout=10.0, guild=guild)
        if self.state.command_syncs == 0:
            await self.wait_for_commands(timeout=10.0)

    async def _send(self, reply: Reply) -> Reply:
        # Commands are often synced in setup_hook, before the gateway connects: give the client time.
        guild = self.state.guilds.get(int(reply.payload["guild_id"])) if reply.payload.get("guild_id") else None
        await self.wait_until_connected(timeout=10.0, guild=guild)
        reply.created = time.monotonic()  # the 3 s start when Discord delivers, not while we waited
        self.gateway.dispatch("INTERACTION_CREATE", reply.payload)
        return reply

    async def slash(
        self, user: FakeUser, channel: FakeChannel, command: str, options: dict[str, Any] | None = None
    ) -> Reply:
        """Run slash command ``command`` as ``user`` in ``channel``: ``"roll"`` or ``"turista new"``
        (group + subcommand; ``"a b c"`` for a subcommand group).

        Option types come from what the bot registered: pass ``int``/``str``/``bool``/``float``,
        ``FakeUser``/``FakeRole``/``FakeChannel`` for entity options, and ``(filename, bytes)`` or a
        ``FakeAttachment`` for attachments. Unknown or missing required options raise like Discord's
        client would refuse. Returns at once; ``await reply.wait()`` for the answer.
        """
        await self._await_sync(channel.guild)
        data = self.interactions.command_data(channel.guild, command, options or {}, user=user)
        return await self._send(self.interactions.create(APPLICATION_COMMAND, user, channel, data))

    async def autocomplete(
        self,
        user: FakeUser,
        channel: FakeChannel,
        command: str,
        *,
        focused: str,
        value: str = "",
        options: dict[str, Any] | None = None,
        timeout: float = 5.0,
    ) -> list[dict[str, Any]]:
        """Type ``value`` into option ``focused`` of ``command`` and return the bot's choices
        (``[{"name": ..., "value": ...}]``). Other already-filled ``options`` go along, typed."""
        await self._await_sync(channel.guild)
        data = self.interactions.command_data(
            channel.guild, command, options or {}, user=user, focused=focused, focused_value=value
        )
        reply = await self._send(self.interactions.create(AUTOCOMPLETE, user, channel, data))
        await reply.wait(timeout)
        return reply.choices

    async def click(
        self, user: FakeUser, message: FakeMessage, custom_id: str | None = None, *, label: str | None = None
    ) -> Reply:
        """Click a button on ``message`` by ``custom_id`` or by its ``label``.

        The interaction carries the message as it is now, so persistent views and dynamic items match.
        Raises if there is no such button or it is disabled.
        """
        if custom_id is None:
            if label is None:
                raise TypeError("click() needs a custom_id or a label")
            custom_id = message.component(label=label, type=2)["custom_id"]
        data = self.interactions.component_data(message, custom_id, None)
        return await self._send(self.interactions.create(COMPONENT, user, message.channel, data, message))

    async def select(self, user: FakeUser, message: FakeMessage, custom_id: str, values: list[Any]) -> Reply:
        """Choose ``values`` in select ``custom_id`` of ``message``: option values for a string select,
        ``FakeUser``/``FakeRole``/``FakeChannel`` objects for entity selects."""
        data = self.interactions.component_data(message, custom_id, list(values))
        return await self._send(self.interactions.create(COMPONENT, user, message.channel, data, message))

    async def forge(
        self,
        user: FakeUser,
        channel: FakeChannel,
        data: dict[str, Any],
        *,
        kind: Literal["component", "modal"] = "component",
        message: FakeMessage | None = None,
    ) -> Reply:
        """Send an interaction with exactly this ``data``, unchecked: what a modified client could send
        (a custom_id no message carries, an empty ``values`` list, a 5,000-digit id…). ``message`` is the
        message it claims to come from."""
        itype = COMPONENT if kind == "component" else MODAL_SUBMIT
        return await self._send(self.interactions.create(itype, user, channel, data, message))

    async def submit_modal(self, user: FakeUser, channel: FakeChannel, custom_id: str, values: dict[str, Any]) -> Reply:
        """Submit modal ``custom_id`` with ``{input_custom_id: value}`` (a list of values for selects).

        The layout mirrors the modal the bot last opened for ``user``, and inputs left out keep their
        default; if the modal opened on a component, the submission carries that message.
        """
        opened_by = self.interactions.find_modal(user, custom_id)
        data = self.interactions.modal_data(opened_by, custom_id, values)
        message = opened_by.source_message if opened_by else None
        return await self._send(self.interactions.create(MODAL_SUBMIT, user, channel, data, message))

    async def say(self, user: FakeUser, channel: FakeChannel, content: str) -> FakeMessage:
        """Post a plain message as ``user`` (MESSAGE_CREATE), e.g. for prefix commands or chat."""
        return await self.state.create_message(channel, user, {"content": content}, [])

    async def delete_message(self, message: FakeMessage) -> None:
        """Delete a message as a moderator would (MESSAGE_DELETE is sent to the bot)."""
        await self.state.delete_message(message)

    # -- inspecting what the bot did ----------------------------------------------------------------
    def messages(self, channel: FakeChannel, *, include_ephemeral: bool = True,
                 threads: bool = False) -> list[FakeMessage]:
        """Messages currently in ``channel``, oldest first, with edits applied and deletions gone.

        Ephemeral responses are included (their ``ephemeral`` is True) unless ``include_ephemeral=False``.
        With ``threads``, the messages of the threads started in ``channel`` are merged in, in the order they
        were posted, as a reader following the channel and its threads sees them.
        """
        found = self.state.channel_messages(channel)
        if threads:
            for thread in self.threads(channel):
                found += self.state.channel_messages(thread)
            found.sort(key=lambda m: m.id)
        return found if include_ephemeral else [m for m in found if not m.ephemeral]

    def threads(self, channel: FakeChannel) -> list[FakeChannel]:
        """The threads started from messages of ``channel``, oldest first."""
        return sorted((c for c in self.state.channels.values() if c.parent is channel), key=lambda c: c.id)

    def last_message(self, channel: FakeChannel) -> FakeMessage | None:
        """The newest message in ``channel``, or None."""
        found = self.state.channel_messages(channel)
        return found[-1] if found else None

    async def wait_for_message(
        self, channel: FakeChannel, predicate: Callable[[FakeMessage], bool] | None = None, timeout: float = 5.0,
        *, threads: bool = False,
    ) -> FakeMessage:
        """Wait until ``channel`` (with ``threads``, or one of its threads) holds a message (not "thinking…")
        satisfying ``predicate``; newest wins.

        The predicate is re-checked after every change, so it also catches a message being edited.
        """

        def find() -> FakeMessage | None:
            for message in reversed(self.messages(channel, threads=threads)):
                if not message.loading and (predicate is None or predicate(message)):
                    return message
            return None

        return await self.state.notifier.wait_for(find, timeout, f"a matching message in #{channel.name}")

    async def wait_for(self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "a condition") -> Any:
        """Wait until ``predicate()`` (re-checked on every change of the fake) is truthy; return it."""
        return await self.state.notifier.wait_for(predicate, timeout, what)

    @property
    def errors(self) -> list[ErrorRecord]:
        """Every failure the fake answered: late acknowledgements (10062), double acknowledgements,
        400s for broken limits, unknown messages/channels and endpoints the fake does not implement."""
        return self.state.errors

    def assert_no_errors(self) -> None:
        """Raise ``AssertionError`` listing :attr:`errors` if there are any."""
        if self.state.errors:
            raise AssertionError("fake Discord recorded errors:\n" + "\n".join(map(str, self.state.errors)))

    def typing_count(self, channel: FakeChannel) -> int:
        """How many times the bot triggered "typing…" in ``channel``."""
        return self.state.typing.get(channel.id, 0)

    @property
    def replies(self) -> list[Reply]:
        """Every interaction sent so far, oldest first."""
        return list(self.state.replies.values())

    def unfinished(self) -> list[Reply]:
        """Interactions a user would still see waiting: never acknowledged (and not refused as late), or
        deferred with "thinking…" and never completed by an edit of the original response."""
        return [r for r in self.state.replies.values()
                if (not r.acknowledged and r.error is None)
                or (r.response_type == DEFERRED_CHANNEL_MESSAGE and r.message is not None and r.message.loading
                    and not r.message.deleted)]

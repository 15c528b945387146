"""The websocket gateway: HELLO, heartbeats, IDENTIFY → READY + GUILD_CREATE, RESUME with replay, dispatch.

Sharding works as Discord's: a client identifies with `shard: [shard_id, shard_count]` and that session gets
the events of the guilds with `(guild_id >> 22) % shard_count == shard_id` (events with no guild, such as
direct messages, go to shard 0). Several sessions (several shards, several bot processes) may be connected
at once; each event goes to the newest session whose shard owns its guild.

Dispatching is synchronous (a sequence number is taken and the frame queued at once) so events reach the
client in the order the test caused them, even when one is triggered from plain (non-async) driver code.
Events are logged per session so a client that reconnects with RESUME gets what it missed; without that,
discord.py falls back to IDENTIFY and waits 5 s first, which would make tests slow.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import WSMsgType, web

OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_RESUME, OP_RECONNECT = 0, 1, 2, 6, 7
OP_REQUEST_MEMBERS, OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 8, 9, 10, 11
HEARTBEAT_INTERVAL_MS = 41_250
# How long the fake takes to acknowledge a heartbeat: about a round trip to Discord from a server near it. An
# instant acknowledgement is measured wrongly by discord.py: its keep-alive thread notes when a heartbeat
# went out only once it wakes after the send, and an acknowledgement read by the event loop before that is
# timed from the previous heartbeat, a whole interval earlier ("Can't keep up, shard ID 0 websocket is 41.3s
# behind" once the interval passes the 10 s it warns at). No real gateway answers before its packets cross the
# network, so the fake waits as long as a short one takes.
HEARTBEAT_ACK_DELAY = 0.02
# Message events reach only a client that identified with the intent covering them, as on Discord: a bot
# that asked for `guilds` alone never hears of the messages it posts or edits.
MESSAGE_EVENTS = frozenset({"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE", "MESSAGE_DELETE_BULK"})
INTENT_GUILD_MESSAGES, INTENT_DIRECT_MESSAGES = 1 << 9, 1 << 12


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's rule: the shard that receives a guild's events."""
    return (guild_id >> 22) % shard_count


def guild_of(event: str, data: dict[str, Any]) -> int | None:
    """The guild an event belongs to, None for one outside any guild."""
    raw = data.get("guild_id")
    if raw is None and event.startswith("GUILD_") and event != "GUILD_MEMBERS_CHUNK":
        raw = data.get("id")
    return int(raw) if raw is not None else None


@dataclass(eq=False)
class GatewaySession:
    """One identified session; it outlives its socket so that it can be resumed."""

    id: str
    sequence: int = 0
    events: list[dict[str, Any]] = field(default_factory=list)
    outbox: asyncio.Queue[dict[str, Any]] | None = None
    identify: dict[str, Any] = field(default_factory=dict)

    @property
    def connected(self) -> bool:
        return self.outbox is not None

    @property
    def shard(self) -> tuple[int, int]:
        """(shard_id, shard_count) from IDENTIFY; a client that does not shard is shard 0 of 1."""
        shard = self.identify.get("shard") or [0, 1]
        return int(shard[0]), int(shard[1])

    def owns(self, guild_id: int | None) -> bool:
        shard_id, count = self.shard
        return shard_id == 0 if guild_id is None else shard_of(guild_id, count) == shard_id

    def wants(self, event: str, data: dict[str, Any]) -> bool:
        """Whether the intents this session identified with cover `event`."""
        intents = self.identify.get("intents")
        if event not in MESSAGE_EVENTS or intents is None:
            return True
        return bool(int(intents) & (INTENT_GUILD_MESSAGES if data.get("guild_id") else INTENT_DIRECT_MESSAGES))

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        if not self.wants(event, data):
            return
        self.sequence += 1
        frame = {"op": OP_DISPATCH, "t": event, "s": self.sequence, "d": data}
        self.events.append(frame)
        if self.outbox is not None:
            self.outbox.put_nowait(frame)


class Gateway:
    """Accepts gateway websockets and fans dispatches out to the current session."""

    def __init__(
        self,
        *,
        ready_payload: Callable[[GatewaySession], dict[str, Any]],
        guild_payloads: Callable[[GatewaySession], list[dict[str, Any]]],
        member_payloads: Callable[[int], list[dict[str, Any]]],
        on_change: Callable[[], None],
        heartbeat_interval: float = HEARTBEAT_INTERVAL_MS / 1000,
        heartbeat_ack_delay: float = HEARTBEAT_ACK_DELAY,
    ) -> None:
        self.heartbeat_interval = heartbeat_interval
        self.heartbeat_ack_delay = heartbeat_ack_delay
        self._ready_payload = ready_payload
        self._guild_payloads = guild_payloads
        self._member_payloads = member_payloads
        self._on_change = on_change
        self.sessions: dict[str, GatewaySession] = {}
        self.identifies = 0
        self.resumes = 0
        self._sockets: set[web.WebSocketResponse] = set()

    @property
    def current(self) -> GatewaySession | None:
        """The most recently identified session."""
        return next(reversed(self.sessions.values()), None)

    def session_for(self, guild_id: int | None) -> GatewaySession | None:
        """The newest session whose shard owns `guild_id` (connected or not: it may still RESUME)."""
        return next((s for s in reversed(self.sessions.values()) if s.owns(guild_id)), None)

    def connected_shards(self) -> set[tuple[int, int]]:
        return {s.shard for s in self.sessions.values() if s.connected}

    def dispatch(self, event: str, data: dict[str, Any]) -> None:
        """Send an event to the session of its guild's shard (kept for replay if it is disconnected)."""
        session = self.session_for(guild_of(event, data))
        if session is not None:
            session.dispatch(event, data)

    async def disconnect(self, *, code: int = 4000) -> None:
        """Drop every socket. 4000 lets discord.py RESUME; 4004 and friends make it give up."""
        for ws in list(self._sockets):
            await ws.close(code=code, message=b"fake disconnect")

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        try:
            await ws.prepare(request)
        except ConnectionResetError:
            # The client gave up while connecting (a bot stopped as it started): nothing to serve, nor to log.
            return ws
        self._sockets.add(ws)
        outbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        writer = asyncio.create_task(self._write(ws, outbox))
        session: GatewaySession | None = None
        try:
            hello = {"heartbeat_interval": round(self.heartbeat_interval * 1000)}
            outbox.put_nowait({"op": OP_HELLO, "d": hello})
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op, data = frame.get("op"), frame.get("d") or {}
                if op == OP_HEARTBEAT:
                    ack = {"op": OP_HEARTBEAT_ACK, "d": None}
                    asyncio.get_running_loop().call_later(self.heartbeat_ack_delay, outbox.put_nowait, ack)
                elif op == OP_IDENTIFY:
                    session = self._identify(outbox, data)
                elif op == OP_RESUME:
                    session = self._resume(outbox, data)
                elif op == OP_REQUEST_MEMBERS and session is not None:
                    # Unanswered, discord.py would wait its chunk timeout before on_ready.
                    self._send_members(session, data)
                # Presence and voice state updates need no answer.
        finally:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
            self._sockets.discard(ws)
            if session is not None and session.outbox is outbox:
                session.outbox = None
            self._on_change()
        return ws

    @staticmethod
    async def _write(ws: web.WebSocketResponse, outbox: asyncio.Queue[dict[str, Any]]) -> None:
        while True:
            frame = await outbox.get()
            try:
                await ws.send_str(json.dumps(frame))
            except ConnectionResetError:
                # The client went away; the session's log still has the frame for a RESUME.
                return

    def _identify(self, outbox: asyncio.Queue[dict[str, Any]], data: dict[str, Any]) -> GatewaySession:
        session = GatewaySession(id=secrets.token_hex(16), outbox=outbox, identify=data)
        # A new IDENTIFY means the client (or a new bot process) gave up its old session of that shard;
        # one with another shard count means the bot resharded, and every old disconnected one is gone.
        for old in [s for s in self.sessions.values() if not s.connected]:
            if old.shard == session.shard or old.shard[1] != session.shard[1]:
                del self.sessions[old.id]
        self.sessions[session.id] = session
        self.identifies += 1
        session.dispatch("READY", self._ready_payload(session))
        for guild in self._guild_payloads(session):
            session.dispatch("GUILD_CREATE", guild)
        self._on_change()
        return session

    def _send_members(self, session: GatewaySession, data: dict[str, Any]) -> None:
        members = self._member_payloads(int(data["guild_id"]))
        wanted = data.get("user_ids")
        if wanted:
            ids = {str(u) for u in (wanted if isinstance(wanted, list) else [wanted])}
            members = [m for m in members if m["user"]["id"] in ids]
        elif data.get("query"):
            members = [m for m in members if m["user"]["username"].lower().startswith(data["query"].lower())]
        chunk = {"guild_id": data["guild_id"], "members": members, "chunk_index": 0, "chunk_count": 1}
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        session.dispatch("GUILD_MEMBERS_CHUNK", chunk)

    def _resume(self, outbox: asyncio.Queue[dict[str, Any]], data: dict[str, Any]) -> GatewaySession | None:
        session = self.sessions.get(data.get("session_id") or "")
        if session is None:
            outbox.put_nowait({"op": OP_INVALID_SESSION, "d": False})
            return None
        self.resumes += 1
        session.outbox = outbox
        seq = data.get("seq") or 0
        for frame in session.events:
            if frame["s"] > seq:
                outbox.put_nowait(frame)
        session.dispatch("RESUMED", {})
        self._on_change()
        return session

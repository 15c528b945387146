"""Point an unmodified discord.py at the fake (or any other) Discord."""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def point_discord_py_at(base_url: str, gateway_url: str) -> None:
    """Make every discord.py client in this process use ``base_url`` for REST and ``gateway_url`` for
    the websocket. Call it before ``login()``/``start()``.

    Both are class attributes, read when a request route or a gateway connection is built, so this also
    covers interaction callbacks and webhooks (they build their URLs from ``Route.BASE``). A plain
    ``Client`` dials ``DEFAULT_GATEWAY`` directly and reconnects to ``READY.resume_gateway_url``.
    """
    discord.http.Route.BASE = base_url.rstrip("/")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)


def restore_discord_py() -> None:
    """Point discord.py back at the real Discord (for tests that must not leak the patch)."""
    point_discord_py_at("https://discord.com/api/v10", "wss://gateway.discord.gg/")

"""The REST base URL is a setting (`TURISTA_DISCORD_API`): the bot sends every REST request there, its start, its
commands' registration, and the answers to clicks included, as it would to an HTTP rate-limit proxy that several
shard processes share. Here the proxy forwards to the fake Discord and counts what it forwarded; the launcher
points discord.py at the fake itself, so a request that bypassed the setting would reach the fake without it."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from bot.config import load_config
from devkit.world import TEST_SETTINGS, Bot, World, assert_clean, bot_environment
from fakediscord import FakeDiscord

# Headers that describe one hop of the connection, not the request or the answer.
HOP_HEADERS = {"host", "content-length", "transfer-encoding", "content-encoding", "connection", "keep-alive"}


@asynccontextmanager
async def forwarding_proxy(target: str) -> AsyncIterator[tuple[str, list[tuple[str, str]]]]:
    """An HTTP server on loopback that forwards every request to `target` + its path, as a rate-limit proxy in
    front of Discord does: its base URL, and the (method, path) of each request it forwarded."""
    seen: list[tuple[str, str]] = []
    prefix = "/api/v10"
    assert target.endswith(prefix)
    upstream = target[: -len(prefix)]
    async with aiohttp.ClientSession(auto_decompress=False) as session:

        async def forward(request: web.Request) -> web.Response:
            seen.append((request.method, request.path))
            headers = {k: v for k, v in request.headers.items() if k.lower() not in HOP_HEADERS}
            async with session.request(request.method, upstream + request.path_qs, headers=headers,
                                       data=await request.read(), allow_redirects=False) as answer:
                body = await answer.read()
                kept = {k: v for k, v in answer.headers.items() if k.lower() not in HOP_HEADERS}
                return web.Response(status=answer.status, body=body, headers=kept)

        app = web.Application(client_max_size=64 * 2**20)
        app.router.add_route("*", "/{tail:.*}", forward)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        try:
            yield f"http://127.0.0.1:{port}{prefix}", seen
        finally:
            await runner.cleanup()


async def test_the_bot_sends_its_rest_requests_to_the_configured_base(tmp_path: Path) -> None:
    async with FakeDiscord() as fake, forwarding_proxy(fake.base_url) as (proxy, seen):
        guild = fake.add_guild("Mesa", channels=("mesa",))
        ana = fake.add_user("Ana", guild, locale="es-419")
        db = tmp_path / "turista.db"
        env = bot_environment(db, {**TEST_SETTINGS, "TURISTA_DISCORD_API": proxy + "/"})
        bot = Bot(fake, db, tmp_path / "bot.log", env)
        await bot.start()
        try:
            reply = await (await fake.slash(ana, guild.channel("mesa"), "turista new")).wait()
            lobby = await fake.wait_for(lambda: reply.message if reply.message and reply.message.custom_ids() else None,
                                        timeout=15, what="the lobby")
            assert not reply.ephemeral, reply.content
            assert World.custom_id(lobby, "join")
            await World.eventually(lambda: "lobby opened" in bot.log(), timeout=10, what="the lobby to be stored")
        finally:
            await bot.stop()
        assert_clean(bot)
        paths = {(method, "/".join(path.split("/")[:4])) for method, path in seen}
        assert ("GET", "/api/v10/users") in paths  # logging in
        assert ("PUT", "/api/v10/applications") in paths  # the commands' registration
        assert ("POST", "/api/v10/interactions") in paths  # the command's answer ("thinking…")
        assert ("PATCH", "/api/v10/webhooks") in paths  # the lobby, in place of "thinking…"
        assert f"REST requests go to {proxy}" in bot.log()
        assert fake.errors == [], "\n".join(map(str, fake.errors))


def test_the_rest_base_setting(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TURISTA_DISCORD_API", raising=False)
    assert load_config().rest_url is None  # Discord itself
    monkeypatch.setenv("TURISTA_DISCORD_API", " http://127.0.0.1:8080/api/v10/ ")
    assert load_config().rest_url == "http://127.0.0.1:8080/api/v10"
    monkeypatch.setenv("TURISTA_DISCORD_API", "127.0.0.1:8080")
    with pytest.raises(SystemExit, match="TURISTA_DISCORD_API"):
        load_config()

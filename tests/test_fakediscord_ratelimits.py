"""The fake's rate limits over raw REST and through discord.py's own HTTP client: per-route buckets with Discord's
headers, counted apart per channel; the 429 Discord sends; the global limit with the interaction endpoints exempt;
the invalid-request budget and Cloudflare's ban past it."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import discord
import pytest

from fakediscord import Bucket, FakeChannel, FakeDiscord, RateLimits, point_discord_py_at, restore_discord_py

QUICK = RateLimits(routes={"POST /channels/{channel}/messages": Bucket(3, 0.4),
                           "PATCH /channels/{channel}/messages/{message}": Bucket(2, 0.4)},
                   global_per_second=1000, invalid_budget=6)


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as session:
        yield session


def two_channels(fake: FakeDiscord) -> tuple[FakeChannel, FakeChannel]:
    guild = fake.add_guild("Mesa", channels=("uno", "dos"))
    return guild.channel("uno"), guild.channel("dos")


async def post(http: aiohttp.ClientSession, fake: FakeDiscord, channel: FakeChannel,
               content: str = "hola") -> tuple[int, Any, dict[str, str]]:
    async with http.post(f"{fake.base_url}/channels/{channel.id}/messages", json={"content": content}) as answer:
        body = await answer.json() if answer.content_type == "application/json" else await answer.text()
        return answer.status, body, dict(answer.headers)


async def test_a_bucket_per_channel_with_discords_headers(http: aiohttp.ClientSession) -> None:
    async with FakeDiscord(rate_limits=QUICK) as fake:
        uno, dos = two_channels(fake)
        answers = [await post(http, fake, uno) for _ in range(4)]
        assert [status for status, _, _ in answers] == [200, 200, 200, 429]
        first = answers[0][2]
        assert first["X-RateLimit-Limit"] == "3" and first["X-RateLimit-Remaining"] == "2"
        assert 0 < float(first["X-RateLimit-Reset-After"]) <= 0.4
        assert abs(float(first["X-RateLimit-Reset"]) - time.time() - float(first["X-RateLimit-Reset-After"])) < 0.1
        assert answers[2][2]["X-RateLimit-Remaining"] == "0"
        status, body, headers = answers[3]
        assert body["global"] is False and 0 < body["retry_after"] <= 0.4 and body["message"]
        assert headers["Retry-After"] == "1" and headers["Via"] and headers["X-RateLimit-Scope"] == "user"
        assert "X-RateLimit-Global" not in headers
        # The bucket is the same route's for every channel (one hash), counted apart for each.
        status, _, other = await post(http, fake, dos)
        assert status == 200 and other["X-RateLimit-Bucket"] == first["X-RateLimit-Bucket"]
        assert other["X-RateLimit-Remaining"] == "2"
        assert [m.content for m in fake.messages(uno)] == ["hola"] * 3  # the refused one changed nothing
        assert len(fake.rate_limiter.throttled) == 1 and fake.errors == []
        # A new window once the old one is over.
        time.sleep(float(answers[3][1]["retry_after"]))
        assert (await post(http, fake, uno))[0] == 200


async def test_the_global_limit_spares_the_interaction_endpoints(http: aiohttp.ClientSession) -> None:
    limits = RateLimits(global_per_second=3, routes={})
    async with FakeDiscord(rate_limits=limits) as fake:
        uno, _ = two_channels(fake)
        answers = [await post(http, fake, uno) for _ in range(4)]
        assert [status for status, _, _ in answers] == [200, 200, 200, 429]
        _, body, headers = answers[3]
        assert body["global"] is True and headers["X-RateLimit-Global"] == "true"
        assert headers["X-RateLimit-Scope"] == "global"
        # An interaction's webhook is not bound by it: it reaches its route (here: an unknown token, 404).
        async with http.get(f"{fake.base_url}/webhooks/{fake.bot_user.id}/no-such-token/messages/@original") as got:
            assert got.status != 429


async def test_invalid_requests_are_counted_and_past_the_budget_cloudflare_bans(
        http: aiohttp.ClientSession) -> None:
    async with FakeDiscord(rate_limits=QUICK) as fake:
        uno, dos = two_channels(fake)
        fake.fail("POST", "/channels/{channel}/messages", status=403, code=50013, times=None, channel=uno.id)
        statuses = [(await post(http, fake, uno))[0] for _ in range(5)]
        # 403s count, and so do the 429s of the exhausted bucket; a 200 does not.
        assert statuses == [403, 403, 403, 429, 429]
        assert fake.rate_limiter.invalid_requests() == 5 and not fake.rate_limiter.banned
        assert (await post(http, fake, dos))[0] == 200
        status, body, headers = await post(http, fake, uno)
        assert fake.rate_limiter.banned and fake.rate_limiter.bans == 1
        # Banned: every request, to any channel, gets Cloudflare's page; discord.py takes it for what it is.
        status, body, headers = await post(http, fake, dos)
        assert status == 429 and isinstance(body, str) and "Cloudflare" in body and "Via" not in headers
        assert fake.rate_limiter.count("POST", f"/channels/{uno.id}/") == 6


async def test_a_shared_429_does_not_count_and_limits_can_be_off(http: aiohttp.ClientSession) -> None:
    async with FakeDiscord(rate_limits=None) as fake:
        uno, _ = two_channels(fake)
        assert [(await post(http, fake, uno))[0] for _ in range(12)] == [200] * 12
        assert fake.rate_limiter.count("POST", status=200) == 12 and fake.rate_limiter.throttled == []
        message = fake.messages(uno)[0]
        fake.limit_old_edits(0, older_than=0)  # Discord's 30046: a 429 of scope "shared"
        async with http.patch(f"{fake.base_url}/channels/{uno.id}/messages/{message.id}",
                              json={"content": "x"}) as answer:
            assert answer.status == 429 and answer.headers["X-RateLimit-Scope"] == "shared"
        assert fake.rate_limiter.invalid_requests() == 0


async def test_the_defaults_are_discords_and_what_bots_observe() -> None:
    limits = RateLimits()
    assert (limits.global_per_second, limits.invalid_budget, limits.invalid_window) == (50, 10_000, 600.0)
    assert limits.routes["POST /channels/{channel}/messages"] == Bucket(5, 5.0)
    assert limits.routes["PATCH /channels/{channel}/messages/{message}"] == Bucket(5, 5.0)
    async with FakeDiscord() as fake:
        assert fake.rate_limiter.limits == limits


async def test_discord_py_waits_out_the_bucket_it_is_told_of() -> None:
    """discord.py reads the headers: past the bucket it waits for the reset instead of meeting a 429, and a 429
    it does meet (the window shared with another client) it waits out and retries."""
    async with FakeDiscord(rate_limits=QUICK) as fake:
        uno, _ = two_channels(fake)
        point_discord_py_at(fake.base_url, fake.gateway_url)
        http = discord.http.HTTPClient(loop=None)  # type: ignore[arg-type]
        try:
            await http.static_login("fake-token")
            began = time.monotonic()
            for i in range(5):
                await http.send_message(uno.id, params=discord.http.handle_message_parameters(content=str(i)))
            took = time.monotonic() - began
        finally:
            await http.close()
            restore_discord_py()
        assert [m.content for m in fake.messages(uno)] == ["0", "1", "2", "3", "4"]
        assert took >= 0.3 and fake.rate_limiter.throttled == []

"""The fake's fault injection over raw REST: errors per route, until cleared, and held requests."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import aiohttp
import pytest

from fakediscord import FakeChannel, FakeDiscord


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        yield server


@pytest.fixture
def channels(fake: FakeDiscord) -> tuple[FakeChannel, FakeChannel]:
    guild = fake.add_guild("Mesa", channels=("uno", "dos"))
    return guild.channel("uno"), guild.channel("dos")


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(headers={"Authorization": "Bot fake-token"}) as session:
        yield session


async def post(http: aiohttp.ClientSession, fake: FakeDiscord, channel: FakeChannel, content: str) -> int:
    async with http.post(f"{fake.base_url}/channels/{channel.id}/messages", json={"content": content}) as answer:
        return answer.status


async def test_a_route_fails_for_one_channel_until_cleared(
    fake: FakeDiscord, channels: tuple[FakeChannel, FakeChannel], http: aiohttp.ClientSession
) -> None:
    uno, dos = channels
    rule = fake.fail("POST", "/channels/{channel}/messages", status=403, code=50013, times=None, channel=uno.id)
    assert [await post(http, fake, uno, "a"), await post(http, fake, dos, "b"), await post(http, fake, uno, "c")] \
        == [403, 200, 403]
    assert rule.hits == 2 and [m.content for m in fake.messages(dos)] == ["b"] and fake.messages(uno) == []
    rule.clear()
    assert await post(http, fake, uno, "d") == 200
    assert fake.errors == [] and [status for _, _, status in fake.faults.injected] == [403, 403]


async def test_a_counted_fault_and_a_pinned_message(
    fake: FakeDiscord, channels: tuple[FakeChannel, FakeChannel], http: aiohttp.ClientSession
) -> None:
    uno, _ = channels
    fake.fail("POST", "/channels/{channel}/messages", status=500, times=2)
    assert [await post(http, fake, uno, str(i)) for i in range(3)] == [500, 500, 200]
    message = fake.messages(uno)[0]
    fake.fail("PATCH", "/channels/{channel}/messages/{message}", status=404, code=10008, message=message.id)
    url = f"{fake.base_url}/channels/{uno.id}/messages/{message.id}"
    async with http.patch(url, json={"content": "x"}) as answer:
        assert answer.status == 404 and (await answer.json())["code"] == 10008
    async with http.patch(url, json={"content": "x"}) as answer:
        assert answer.status == 200
    with pytest.raises(ValueError, match="placeholders"):
        fake.fail("POST", "/channels/{channel}/messages", status=500, guild=1)


async def test_held_before_nothing_happens_until_released(
    fake: FakeDiscord, channels: tuple[FakeChannel, FakeChannel], http: aiohttp.ClientSession
) -> None:
    uno, dos = channels
    hold = fake.hold("POST", "/channels/{channel}/messages", channel=uno.id)
    sent = asyncio.create_task(post(http, fake, uno, "held"))
    await hold.reached(1)
    assert fake.messages(uno) == [] and not sent.done()
    assert await post(http, fake, dos, "free") == 200  # other channels are not held
    hold.release()
    assert await sent == 200 and [m.content for m in fake.messages(uno)] == ["held"]
    assert await post(http, fake, uno, "after") == 200  # a released hold holds nothing more


async def test_held_after_the_message_exists_before_the_answer(
    fake: FakeDiscord, channels: tuple[FakeChannel, FakeChannel], http: aiohttp.ClientSession
) -> None:
    uno, _ = channels
    hold = fake.hold("POST", "/channels/{channel}/messages", when="after", times=1)
    sent = asyncio.create_task(post(http, fake, uno, "posted"))
    await hold.reached(1)
    assert [m.content for m in fake.messages(uno)] == ["posted"] and not sent.done()
    assert await post(http, fake, uno, "second") == 200  # times=1: only the first is held
    hold.release()
    assert await sent == 200


async def test_a_delay_holds_each_request_for_a_while(
    fake: FakeDiscord, channels: tuple[FakeChannel, FakeChannel], http: aiohttp.ClientSession
) -> None:
    uno, _ = channels
    fake.hold("POST", "/channels/{channel}/messages", delay=0.3)
    sent = asyncio.create_task(post(http, fake, uno, "slow"))
    await asyncio.sleep(0.1)
    assert not sent.done()
    assert await sent == 200
    fake.clear_faults()
    assert await post(http, fake, uno, "fast") == 200

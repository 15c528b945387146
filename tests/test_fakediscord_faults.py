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


async def edit(http: aiohttp.ClientSession, fake: FakeDiscord, channel: FakeChannel,
               message_id: int) -> tuple[int, dict]:
    url = f"{fake.base_url}/channels/{channel.id}/messages/{message_id}"
    async with http.patch(url, json={"content": "edited"}) as answer:
        return answer.status, await answer.json()


async def test_edits_of_old_messages_are_refused_past_a_budget_per_channel(
    fake: FakeDiscord, channels: tuple[FakeChannel, FakeChannel], http: aiohttp.ClientSession
) -> None:
    uno, dos = channels
    for channel in (uno, dos, uno):
        assert await post(http, fake, channel, "old") == 200
    old_uno, old_dos = fake.messages(uno)[0], fake.messages(dos)[0]
    await asyncio.sleep(0.3)
    assert await post(http, fake, uno, "new") == 200
    young = fake.messages(uno)[-1]
    limit = fake.limit_old_edits(2, older_than=0.2, window=60, retry_after=30)

    # The young message edited first, the moment it is posted (its age, not the machine's speed, is what counts):
    # it is not counted, so the budget of two is still whole for the old ones.
    assert (await edit(http, fake, uno, young.id))[0] == 200
    statuses = [(await edit(http, fake, uno, old_uno.id))[0] for _ in range(2)]
    status, body = await edit(http, fake, uno, fake.messages(uno)[1].id)  # another old message: the same budget
    assert statuses == [200, 200] and status == 429
    assert body["code"] == 30046 and body["retry_after"] == 30 and "older than 1 hour" in body["message"]
    assert (await edit(http, fake, dos, old_dos.id))[0] == 200  # every channel has a budget of its own
    assert limit.refused == [(uno.id, fake.messages(uno)[1].id)] and fake.errors == []

    own = fake.limit_old_edits(0, older_than=0.2, channel=dos)  # a channel's own rule wins over every channel's
    assert (await edit(http, fake, dos, old_dos.id))[0] == 429 and own.refused == [(dos.id, old_dos.id)]


async def test_an_old_edit_counts_no_more_once_its_window_is_over(
    fake: FakeDiscord, channels: tuple[FakeChannel, FakeChannel], http: aiohttp.ClientSession
) -> None:
    uno, _ = channels
    assert await post(http, fake, uno, "old") == 200
    message = fake.messages(uno)[0]
    fake.limit_old_edits(1, older_than=0.0, window=0.5)
    assert [(await edit(http, fake, uno, message.id))[0] for _ in range(2)] == [200, 429]
    await asyncio.sleep(0.6)
    assert (await edit(http, fake, uno, message.id))[0] == 200

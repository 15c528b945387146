"""The bot's side of Discord's rate limits, without Discord: a message's edits wait for the channel's bucket and a
newer one replaces a waiting one (`bot.face.edits`); a channel that answers 403 is backed off
(`bot.face.forbidden`); the answers are counted for `turista status` (`bot.requests`)."""

from __future__ import annotations

import asyncio
import io
import time
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import requests
from bot.face import adapter, forbidden
from bot.face.edits import Edits
from bot.face.forbidden import ChannelBackoff, Withheld


def response(status: int, reason: str = "") -> Any:
    return SimpleNamespace(status=status, reason=reason, headers={})


class Channel:
    """What `adapter.edit_message_once` would reach: records each edit, answers with a bucket of `limit` edits per
    `per` seconds as Discord's headers tell it, or with the refusals queued in `refuse`."""

    def __init__(self, limit: int, per: float) -> None:
        self.limit, self.per = limit, per
        self.sent: list[dict[str, Any]] = []
        self.refuse: list[Exception] = []
        self.used = 0

    async def edit(self, client: object, channel_id: int, message_id: int, fields: dict[str, Any]) -> adapter.Limit:
        await asyncio.sleep(0)
        if self.refuse:
            raise self.refuse.pop(0)
        self.sent.append(fields)
        self.used += 1
        return adapter.Limit(max(0, self.limit - self.used), self.per)


@pytest.fixture
def channel(monkeypatch: pytest.MonkeyPatch) -> Channel:
    fake = Channel(limit=2, per=0.2)
    monkeypatch.setattr(adapter, "edit_message_once", fake.edit)
    return fake


async def test_a_spent_bucket_keeps_only_the_newest_edit(channel: Channel) -> None:
    game = Edits(client=None, what="game 1")  # type: ignore[arg-type]
    shown: list[int] = []
    picture = discord.File(io.BytesIO(b"png"), filename="board.png")
    assert await game.edit(5, 50, {"content": "v1"}, lambda: shown.append(1))
    assert await game.edit(5, 50, {"content": "v2"}, lambda: shown.append(2))  # the bucket's last edit
    # Spent (its headers said so): these wait, each newer one in place of the one before; the picture of v3 stays.
    assert not await game.edit(5, 50, {"content": "v3", "attachments": [picture]}, lambda: shown.append(3))
    assert not await game.edit(5, 50, {"content": "v4"}, lambda: shown.append(4))
    assert not await game.edit(5, 50, {"content": "v5"}, lambda: shown.append(5))
    assert not await game.edit(5, 50, {"view": None}, lambda: shown.append(6))  # the game ended: no buttons
    assert [f["content"] for f in channel.sent] == ["v1", "v2"] and shown == [1, 2]
    assert game.busy(50) and not game.busy(51)  # an answer to a click on it must not overtake v5
    await asyncio.sleep(0.3)
    assert [f["content"] for f in channel.sent] == ["v1", "v2", "v5"] and shown == [1, 2, 6]
    assert channel.sent[-1]["attachments"] == [picture] and channel.sent[-1]["view"] is None
    assert game.waiting == {} and game.throttled == 1 and not game.busy(50)


async def test_a_429_is_waited_out_in_the_background(channel: Channel) -> None:
    game = Edits(client=None, what="game 1")  # type: ignore[arg-type]
    limited = adapter.Refused(response(429, "Too Many Requests"), {"message": "slow", "retry_after": 0.1})
    channel.refuse.append(limited)
    began = asyncio.get_running_loop().time()
    assert not await game.edit(5, 50, {"content": "v1"}, lambda: None)
    assert asyncio.get_running_loop().time() - began < 0.05  # the caller did not wait
    assert not await game.edit(5, 50, {"content": "v2"}, lambda: None)
    await asyncio.sleep(0.2)
    assert [f["content"] for f in channel.sent] == ["v2"]
    # Another channel's bucket is its own.
    assert await game.edit(6, 60, {"content": "elsewhere"}, lambda: None)


async def test_a_waiting_edit_refused_with_403_backs_the_channel_off(channel: Channel) -> None:
    backoff = ChannelBackoff(game=1)
    game = Edits(client=None, what="game 1", forbidden=backoff.refused)  # type: ignore[arg-type]
    channel.refuse += [adapter.Refused(response(429), {"retry_after": 0.05}), discord.Forbidden(response(403), "no")]
    assert not await game.edit(5, 50, {"content": "v1"}, lambda: None)
    await asyncio.sleep(0.15)
    assert backoff.refusals == 1 and channel.sent == [] and game.waiting == {}


async def test_a_channel_that_answers_403_is_left_alone_for_longer_each_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forbidden, "FIRST", 0.05)
    backoff = ChannelBackoff(game=1)
    calls = 0

    async def refused() -> None:
        nonlocal calls
        calls += 1
        raise discord.Forbidden(response(403), "Missing Permissions")

    with pytest.raises(discord.Forbidden):
        await backoff.send(refused)
    for _ in range(20):  # every move of the game meanwhile: none reaches Discord
        with pytest.raises(Withheld):
            await backoff.send(refused)
    assert calls == 1 and backoff.withheld == 20
    await asyncio.sleep(0.06)
    began = time.monotonic()
    with pytest.raises(discord.Forbidden):
        await backoff.send(refused)
    assert calls == 2 and backoff.until - began >= 0.09  # twice as long now

    async def taken() -> str:
        return "ok"

    await asyncio.sleep(0.11)
    assert await backoff.send(taken) == "ok" and backoff.refusals == 0


def test_the_counts_of_discords_answers() -> None:
    counts = requests.RequestCounts()
    counts.note(403, now=100.0)  # more than 10 minutes before the others
    for status, scope in ((200, ""), (204, ""), (403, ""), (404, ""), (429, "user"), (429, "shared"), (500, "")):
        counts.note(status, scope, now=1000.0)
    assert (counts.answered, counts.refused, counts.throttled) == (8, 3, 2)
    assert counts.recent(now=1001.0) == {"refused": 2, "throttled": 2, "invalid": 2}
    text = requests.line(counts.snapshot(now=1001.0))
    assert text.startswith("Discord refused 2 and throttled 2 request(s) in the last 10 min (2 of the 10,000")


def test_the_counts_are_written_where_status_reads_them(tmp_path: Any) -> None:
    counts = requests.RequestCounts()
    counts.note(429, "user")
    counts.write(tmp_path)
    counts.write(tmp_path, "shards-2-3")
    found = requests.read(tmp_path)
    assert len(found) == 2 and all(c["throttled"] == 1 and c["last_10_min"]["invalid"] == 1 for c in found)



async def test_the_global_pace_keeps_any_second_under_its_count() -> None:
    pace = requests.GlobalPace(per_second=10)
    loop = asyncio.get_running_loop()
    sent: list[float] = []

    async def one() -> None:
        await pace.turn()
        sent.append(loop.time())

    await asyncio.gather(*(one() for _ in range(25)))
    assert len(sent) == 25 and pace.waited == 15
    assert all(sum(1 for t in sent if start <= t < start + 0.99) <= 10 for start in sent)
    assert sent[-1] - sent[0] >= 2.0


def test_the_interaction_endpoints_are_not_paced() -> None:
    api = "https://discord.com/api/v10"
    assert requests.paced(f"{api}/channels/1/messages/2")
    assert not requests.paced(f"{api}/interactions/1/token/callback")
    assert not requests.paced(f"{api}/webhooks/1/token/messages/@original")
    assert not requests.paced("wss://gateway.discord.gg/?v=10")

"""Gateway shards: the settings that choose them, and the fake Discord routing each guild to its shard."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import discord
import pytest

from bot.config import load_config, parse_shards, with_shards
from fakediscord import FakeDiscord, point_discord_py_at, restore_discord_py
from fakediscord.gateway import shard_of


def test_shard_settings(monkeypatch: pytest.MonkeyPatch, tmp_path: object) -> None:
    assert parse_shards("0-3", 4) == (0, 1, 2, 3)
    assert parse_shards("4, 0,2-3", 8) == (0, 2, 3, 4)
    for bad, count in (("4", 4), ("3-1", 4), ("x", 4), ("1-", 4)):
        with pytest.raises(SystemExit):
            parse_shards(bad, count)
    monkeypatch.chdir(tmp_path)  # type: ignore[arg-type]
    for name in ("TURISTA_SHARD_COUNT", "TURISTA_SHARDS"):
        monkeypatch.delenv(name, raising=False)
    plain = load_config()
    assert plain.shard_count is None and plain.shards is None  # one process, every shard Discord recommends
    monkeypatch.setenv("TURISTA_SHARD_COUNT", "4")
    monkeypatch.setenv("TURISTA_SHARDS", "1-2")
    config = load_config()
    assert (config.shard_count, config.shards) == (4, (1, 2))
    # The command line wins: `turista run --shard-count 6 --shards 5`.
    assert with_shards(config, "6", "5").shards == (5,)
    assert with_shards(config, "6", None).shards is None
    with pytest.raises(SystemExit):
        with_shards(plain, None, "0-1")  # which shards, out of how many?
    with pytest.raises(SystemExit):
        with_shards(plain, "0", None)


class QuickShards(discord.AutoShardedClient):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # the fake has no identify rate limit


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    async with FakeDiscord() as server:
        point_discord_py_at(server.base_url, server.gateway_url)
        try:
            yield server
        finally:
            restore_discord_py()


async def _run(client: discord.Client) -> asyncio.Task[None]:
    task = asyncio.create_task(client.start("fake-token"))
    await asyncio.wait_for(client.wait_until_ready(), 10)
    return task


async def test_one_process_runs_every_shard_discord_recommends(fake: FakeDiscord) -> None:
    fake.state.recommended_shards = 2
    guilds = [fake.add_guild(f"g{k}", on_shard=(k % 2, 2)) for k in range(3)]
    assert [shard_of(g.id, 2) for g in guilds] == [0, 1, 0]
    client = QuickShards(intents=discord.Intents.none() | discord.Intents(guilds=True))
    task = await _run(client)
    try:
        assert client.shard_count == 2 and sorted(client.shards) == [0, 1]
        assert {g.id: g.shard_id for g in client.guilds} == {g.id: k % 2 for k, g in enumerate(guilds)}
        assert fake.shards_connected(0, 1, count=2) and fake.connected
        late = fake.add_guild("late", on_shard=(1, 2))  # GUILD_CREATE reaches shard 1's session only
        async with asyncio.timeout(5):
            while client.get_guild(late.id) is None:
                await asyncio.sleep(0.01)
        assert fake.gateway.session_for(late.id).shard == (1, 2)  # type: ignore[union-attr]
    finally:
        await client.close()
        await task


async def test_two_processes_each_see_only_their_shards_guilds(fake: FakeDiscord) -> None:
    guilds = [fake.add_guild(f"g{k}", on_shard=(k % 2, 2)) for k in range(4)]
    clients = [QuickShards(intents=discord.Intents(guilds=True), shard_count=2, shard_ids=[k]) for k in range(2)]
    tasks = [await _run(c) for c in clients]
    try:
        for k, client in enumerate(clients):
            assert {g.id for g in client.guilds} == {g.id for g in guilds if shard_of(g.id, 2) == k}
        first = next(iter(fake.gateway.sessions.values()))
        ready = first.events[0]["d"]
        assert ready["shard"] == [0, 2] and {int(g["id"]) for g in ready["guilds"]} == {guilds[0].id, guilds[2].id}
        await clients[1].close()
        await tasks[1]
        await fake.wait_for(lambda: not fake.shards_connected(1, count=2), 5, "shard 1 to leave")
        assert fake.shards_connected(0, count=2) and not fake.connected
    finally:
        for client, task in zip(clients, tasks, strict=True):
            await client.close()
            await task

"""Timers: the game's time limit, and a player who lets the turn clock run out."""

from __future__ import annotations

import re

import pytest

from devkit.world import World


@pytest.fixture
def bot_env() -> dict[str, str]:
    # One game minute lasts 0.12 s here; auctions keep a long quiet period so they never close under a click.
    return {"TURISTA_TIME_SCALE": "0.002", "TURISTA_AUCTION_QUIET": "5000"}


async def test_game_to_the_time_limit(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], time_limit=30, turn_timeout=0)
    row = world.game(gid)
    assert row.settings["time_limit"] == 30
    await world.start(gid, world.ana)
    assert world.game(gid).settings["ends_at"] > 0
    # Nobody buys, so nobody goes bankrupt: only the clock can end this game.
    final = await world.play_until(gid, lambda st: False, steps=5000, timers=True,
                                  buy=lambda st: False)
    assert final.phase == "over" and final.ending
    contents = [m.text for m in world.bot_messages()]
    assert any("⏰" in c for c in contents)
    assert "🏆" in contents[-1]
    assert world.game(gid).status == "finished"


async def test_turn_timeout_warns_then_plays_for_the_player(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], turn_timeout=60)
    st = await world.start(gid, world.ana)
    version = st.version
    seat = st.current
    user = world.user_of(gid, seat)
    # 60 s are 0.12 s here: first a warning that pings the player...
    warning = await world.fake.wait_for_message(world.channel, lambda m: "⏳" in m.text, timeout=10, threads=True)
    assert f"<@{user.id}>" in warning.content
    # The time left is Discord's relative timestamp, counting down where the player reads it.
    assert re.search(r"<t:\d+:R>", warning.text), warning.text
    assert [int(u) for u in (warning.allowed_mentions or {}).get("users", [])] == [user.id]
    # ...then the computer makes the move for them.
    await world.fake.wait_for(lambda: world.game(gid).version > version, timeout=10, what="a move played for them")
    assert any("🤖" in m.text for m in world.bot_messages())
    # After a few decisions in a row made by the clock, a computer takes the seat until they come back.
    replaced = await world.fake.wait_for_message(world.channel, lambda m: "una computadora juega" in m.text,
                                                 timeout=15, threads=True)
    assert "🤖" in replaced.text
    assert any(s.computer for s in world.game(gid).seats)

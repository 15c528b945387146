"""The clock of a pending decision lives in the database: a restart resumes it instead of starting over."""

from __future__ import annotations

import time

import pytest

from devkit.world import World
from fakediscord.snowflake import snowflake_time


@pytest.fixture
def bot_env() -> dict[str, str]:
    # One game minute lasts 0.6 s: the 600 s decision clock runs out in 6 s.
    return {"TURISTA_TIME_SCALE": "0.01", "TURISTA_AUCTION_QUIET": "5000"}


async def test_a_restart_resumes_the_decision_clock(world: World) -> None:
    gid = await world.open_table(world.ana, [world.beto], turn_timeout=600)
    st = await world.start(gid, world.ana)
    deadline = world.game(gid).deadline
    assert deadline is not None and 0 < deadline - time.time() <= 6.5
    await world.bot.kill()
    await world.bot.start()
    await world.settled(gid)
    assert world.game(gid).deadline == deadline  # the same clock, not a fresh one
    user = world.user_of(gid, st.current)
    # Half the time gone (3 s of the 6), a warning; at the deadline, the move played for them.
    warning = await world.fake.wait_for_message(world.channel, lambda m: "⏳" in m.text, timeout=15, threads=True)
    posted = snowflake_time(warning.id).timestamp()  # when the bot posted it, not when this test looked
    assert f"<@{user.id}>" in warning.content and deadline - 3.5 <= posted < deadline
    await world.fake.wait_for(lambda: world.game(gid).version > st.version, timeout=15, what="the move played")
    assert time.time() >= deadline - 0.1

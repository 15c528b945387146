"""Each person's reminders (`/notify`, time scaled): by direct message with a link to the table, in the channel
once when Discord refuses the direct message (50007, logged), and none during the person's quiet hours."""

from __future__ import annotations

import time
from datetime import UTC, datetime

import pytest

from devkit.world import World

FOUR_HOURS = 4 * 3600
SCALE = 0.00025  # four hours last 3.6 s: reminders at 1.8 s and 2.7 s


@pytest.fixture
def bot_env() -> dict[str, str]:
    return {"TURISTA_TIME_SCALE": str(SCALE), "TURISTA_AUCTION_QUIET": "3000"}


def reminders(world: World) -> list:
    return [m for m in world.bot_messages() if (m.content or "").startswith("⏰")]


async def test_a_reminder_by_direct_message_and_the_channel_when_discord_refuses_it(world: World) -> None:
    for person in (world.ana, world.beto):
        chosen = await world.slash(person, "notify", mode="dm")
        assert chosen.ephemeral and "mensaje directo" in (chosen.content or ""), chosen.content
    gid = await world.open_table(world.ana, [world.beto], turn_timeout=FOUR_HOURS)
    st = await world.start(gid, world.ana)
    user = world.user_of(gid, st.current)
    dm = world.fake.state.dm_channel(user)
    first = await world.fake.wait_for_message(dm, lambda m: m.content.startswith("⏰"), timeout=15)
    table = world.game(gid).messages["table"]
    assert f"https://discord.com/channels/{world.channel.guild.id}/{table.channel_id}/{table.message_id}" \
        in first.content
    assert not reminders(world)  # not in the channel as well
    # The person stops taking direct messages: the next reminder goes to the channel, mentioning them.
    user.accepts_dms = False
    fallback = await world.fake.wait_for_message(world.channel, lambda m: m.content.startswith("⏰"), timeout=15,
                                                 threads=True)
    assert f"<@{user.id}>" in fallback.content and world.fake.state.refused_dms == [user.id]
    assert "Discord refused a direct message to" in world.bot.log()
    assert len([m for m in world.fake.messages(dm) if m.content.startswith("⏰")]) == 1


async def test_no_reminder_in_quiet_hours_and_the_clock_runs_all_the_same(world: World) -> None:
    hour = datetime.now(UTC).hour
    for person in (world.ana, world.beto):  # quiet for the next hour or two, in UTC
        await world.slash(person, "notify", quiet_from=hour, quiet_to=(hour + 2) % 24, time_zone="UTC")
    gid = await world.open_table(world.ana, [world.beto], turn_timeout=FOUR_HOURS)
    st = await world.start(gid, world.ana)
    deadline = world.game(gid).deadline
    assert deadline is not None
    await world.fake.wait_for(lambda: world.game(gid).version > st.version, timeout=15, what="the move played")
    assert time.time() >= deadline - 0.1
    assert not reminders(world)
    assert not [m for p in (world.ana, world.beto) for m in world.fake.messages(world.fake.state.dm_channel(p))]

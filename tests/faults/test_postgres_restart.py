"""PostgreSQL restarted in the middle of play: the server stops for a few seconds (10 to 30 in real life) and starts
again, and the bot is not restarted. Every click and command during the outage is answered in time and in the
player's language, nothing is applied then, and afterwards the same button plays its move exactly once and the
game goes on (a computer seat included); the log says what happened and that it healed.

The server is one of this test's own (`devkit.pgcluster`), so stopping it disturbs no other test. Skipped where
PostgreSQL is absent, a failure under CI=true, as the store's PostgreSQL tests are.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bot.store import Store
from devkit.pgcluster import ClusterUnavailable, ThrowawayCluster
from devkit.world import ROOT, TEST_SETTINGS, Bot, World, assert_clean, bot_environment
from engine import State
from fakediscord import FakeDiscord

OUTAGE = 4.0  # seconds the server is away: twice the store's 2 s wait for a connection
UNAVAILABLE = "La base de datos del bot no está disponible"


@pytest.fixture
def cluster() -> Iterator[ThrowawayCluster]:
    try:
        server = ThrowawayCluster().start()
    except ClusterUnavailable as exc:
        if os.environ.get("CI"):
            pytest.fail(f"CI must run the PostgreSQL tests, but the server cannot start: {exc}")
        pytest.skip(f"PostgreSQL is not available here: {exc}")
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
async def pg_world(tmp_path: Path, cluster: ThrowawayCluster) -> AsyncIterator[World]:
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Mesa de pruebas", channels=("mesa", "otra"))
        people = [fake.add_user(name, guild, locale=locale) for name, locale in
                  (("Ana", "es-419"), ("Beto", "es-ES"), ("Carl", "en-US"), ("Dora", "es-419"))]
        url = cluster.new_schema()
        process = Bot(fake, Path("unused.db"), tmp_path / "bot.log", bot_environment(url, TEST_SETTINGS))
        await process.start()
        store = Store(url)
        world = World(fake, guild, guild.channel("mesa"), guild.channel("otra"), *people, process, store)
        try:
            yield world
            await fake.wait_for(lambda: not fake.unfinished(), timeout=10, what="every interaction answered")
        finally:
            await process.stop()
            store.close()
        assert_clean(process)
        assert fake.errors == [], "\n".join(map(str, fake.errors))


def a_persons_roll(st: State) -> bool:
    return st.phase == "roll" and not st.seats[st.current].computer and not st.debts and st.turn >= 2


async def test_a_postgresql_restart_in_the_middle_of_play(pg_world: World, cluster: ThrowawayCluster) -> None:
    world = pg_world
    gid = await world.open_table(world.ana, [world.beto], computers=1)
    await world.start(gid, world.ana)
    st = await world.play_until(gid, a_persons_roll)
    table = world.table()
    assert table is not None
    player = world.user_of(gid, st.current)
    log_before = len(world.bot.log())

    cluster.halt()
    halted = time.monotonic()
    try:
        click = await world.fake.click(player, table, world.custom_id(table, "roll"))
        history = await world.fake.slash(world.carl, world.channel, "turista history")
        for reply in (click, history):
            await reply.wait()  # in time: the fake counts a late answer as an error
        refused = (await click.wait_followups(1, timeout=15))[0]
        assert refused.ephemeral and UNAVAILABLE in refused.content, refused.content
        await world.fake.wait_for(lambda: history.message is not None and not history.message.loading
                                  or history.followups, timeout=15, what="the answer to /turista history")
        said = history.followups[0].content if history.followups else history.content
        assert history.ephemeral or history.followups[0].ephemeral
        assert "database is not available" in (said or ""), said  # Carl's client speaks English
        await asyncio.sleep(max(0.0, OUTAGE - (time.monotonic() - halted)))
    finally:
        cluster.resume()

    # The same button, on the same message: the move is made once, and the game goes on by itself. The pool may
    # not have its connection back for the very first click (it tries a second apart): that one is refused as
    # during the outage, changes nothing, and the player clicks again.
    returned = time.monotonic()
    assert world.game(gid).version == st.version  # nothing was applied during the outage
    while True:
        reply = await (await world.fake.click(player, table, world.custom_id(table, "roll"))).wait()
        refused = reply if reply.response_type == 4 else reply.followups[0] if reply.followups else None
        if reply.response_type == 6 and refused is None:
            with contextlib.suppress(TimeoutError):
                refused = (await reply.wait_followups(1, timeout=1.0))[0]
        if refused is None or UNAVAILABLE not in (refused.content or ""):
            break
        assert world.game(gid).version == st.version and time.monotonic() - returned < 5, refused.content
    await world.eventually(lambda: world.game(gid).version > st.version, what="the roll to be applied")
    made = [r for r in world.store.log(gid, after=st.version)]
    assert made[0].seq == st.version + 1 and made[0].actor == player.id
    assert json.loads(made[0].action or "{}")["kind"] == "roll"
    after = await world.play_until(gid, lambda s: s.turn >= st.turn + 3)
    assert after.version > st.version + 1

    log = world.bot.log()[log_before:]
    assert "does not answer" in log and "answers again after" in log, log[-3000:]
    check = subprocess.run([sys.executable, "-m", "bot.store", "verify", "--db", world.bot.env["TURISTA_DB"]],
                           capture_output=True, text=True, cwd=ROOT, check=False)
    assert check.returncode == 0, check.stdout + check.stderr
    assert check.stdout.splitlines()[-1].endswith(", 0 mismatched"), check.stdout

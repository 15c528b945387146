"""Two bot processes that both think they own a shard, on one database: a stale one left running during a deploy,
and the new one. The newer takes the shard's lease at its start; a click that still reaches the older is refused
by the database (the lease's epoch is checked in the write's own transaction), answered politely in the player's
language, and the older steps aside and says so; the game goes on in the newer, each move made once, and
`turista store verify` finds nothing wrong. On one SQLite file shared by both, and on PostgreSQL.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import Store
from devkit.world import ROOT, TEST_SETTINGS, Bot, World, assert_clean, bot_environment
from engine import State
from fakediscord import FakeDiscord
from fakediscord.gateway import GatewaySession

SERVED_ELSEWHERE = "Otro proceso del bot atiende ahora esta mesa"


def send_clicks_to(fake: FakeDiscord, session: GatewaySession) -> None:
    """The fake sends a guild's events to the newest session of its shard: make `session` the newest, as if
    Discord handed this click to the other of the two connections."""
    sessions = fake.gateway.sessions
    key = next(k for k, s in sessions.items() if s is session)
    sessions[key] = sessions.pop(key)


def a_persons_roll(st: State) -> bool:
    return st.phase == "roll" and not st.debts and st.turn >= 2


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
async def test_a_stale_process_on_the_same_shard_steps_aside(tmp_path: Path, request: pytest.FixtureRequest,
                                                             backend: str) -> None:
    db = str(tmp_path / "turista.db") if backend == "sqlite" else request.getfixturevalue("pg_url")
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Mesa de pruebas", channels=("mesa", "otra"))
        people = [fake.add_user(name, guild, locale=locale) for name, locale in
                  (("Ana", "es-419"), ("Beto", "es-ES"), ("Carl", "en-US"), ("Dora", "es-419"))]
        old = Bot(fake, Path(db), tmp_path / "old.log", bot_environment(db, TEST_SETTINGS))
        new = Bot(fake, Path(db), tmp_path / "new.log", bot_environment(db, TEST_SETTINGS))
        await old.start()
        store = Store(db)
        world = World(fake, guild, guild.channel("mesa"), guild.channel("otra"), *people, old, store)
        try:
            gid = await world.open_table(world.ana, [world.beto])
            await world.start(gid, world.ana)
            st = await world.play_until(gid, a_persons_roll)
            stale = fake.gateway.session_for(guild.id)
            assert stale is not None

            await new.start()  # the deploy's new process, on the same shard (every shard: 0 of 1)
            await world.eventually(lambda: "resumed 1 open game(s)" in new.log(), timeout=20, what="the new start")
            assert [(lease.owner.split(" pid ")[1], lease.epoch) for lease in store.leases()] == [
                (str(new.process.pid), 2)]  # type: ignore[union-attr]
            assert "taken over from" in new.log()
            fresh = fake.gateway.session_for(guild.id)
            assert fresh is not None and fresh is not stale

            # A click that reaches the stale process: the database refuses its write, the player hears why.
            table = world.table()
            assert table is not None
            player = world.user_of(gid, st.current)
            send_clicks_to(fake, stale)
            for _ in range(2):  # the first is refused by the database, the second by the process that stepped aside
                reply = await (await fake.click(player, table, world.custom_id(table, "roll"))).wait()
                answer = reply if reply.response_type == 4 else (await reply.wait_followups(1, timeout=10))[0]
                assert answer.ephemeral and SERVED_ELSEWHERE in (answer.content or ""), answer.content
                assert world.game(gid).version == st.version
            await world.eventually(lambda: "steps aside" in old.log(), what="the stale process to say it")
            assert old.log().count("steps aside") == 1

            # The same button, through the new process: made once, and the game goes on there.
            send_clicks_to(fake, fresh)
            await world.act(gid, player, table, "roll")
            made = list(store.log(gid, after=st.version))
            assert made[0].seq == st.version + 1 and made[0].actor == player.id
            world.bot = new
            after = await world.play_until(gid, lambda s: s.turn >= st.turn + 2)
            assert after.version > st.version + 1
            await fake.wait_for(lambda: not fake.unfinished(), timeout=10, what="every interaction answered")
        finally:
            # Each process stops itself (`Bot.stop` would wait for the fake to see no session of the shard left).
            for process in (new.process, old.process):
                if process is not None:
                    await process.stop()
            store.close()
        for process in (old, new):
            assert_clean(process)
        check = subprocess.run([sys.executable, "-m", "bot.store", "verify", "--db", db],
                               capture_output=True, text=True, cwd=ROOT, check=False)
        assert check.returncode == 0, check.stdout + check.stderr
        assert check.stdout.splitlines()[-1].endswith(", 0 mismatched"), check.stdout
        assert fake.errors == [], "\n".join(map(str, fake.errors))

"""Several bot processes, each running some gateway shards, against a fake Discord that routes each guild to
its shard: two processes on two shards, one killed mid-turn and restarted; then the SQLite files resharded
from two to three (`python -m bot.store split`) and three processes, one killed mid-turn again. Every game
(people and a computer seat each) goes on with nothing lost, and old buttons keep working.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from bot.store import GameRow, NoSuchGame, Store
from devkit.world import ROOT, TEST_SETTINGS, Bot, World, assert_clean, bot_environment
from engine import State
from fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser

GUILDS = 4
LCM = 6  # guild k sits on shard k of 6: shard k % 2 of 2 and shard k % 3 of 3


class Stores:
    """The SQLite files of every process, read as one database (all the World helpers need)."""

    def __init__(self, paths: list[Path]) -> None:
        self.stores = [Store(p) for p in paths]

    def game(self, gid: int) -> GameRow:
        for store in self.stores:
            try:
                return store.game(gid)
            except NoSuchGame:
                continue
        raise NoSuchGame(gid)

    def game_by_channel(self, channel_id: int) -> GameRow | None:
        return next((row for s in self.stores if (row := s.game_by_channel(channel_id)) is not None), None)

    def close(self) -> None:
        for store in self.stores:
            store.close()


def processes(fake: FakeDiscord, folder: Path, count: int, prefix: str) -> list[Bot]:
    """One process per shard, each with a SQLite file of its own."""
    made = []
    for shard in range(count):
        db = folder / f"{prefix}-{shard}.db"
        env = bot_environment(db, {**TEST_SETTINGS, "TURISTA_SHARD_COUNT": str(count), "TURISTA_SHARDS": str(shard)})
        made.append(Bot(fake, db, folder / f"{prefix}-{shard}.log", env, shards=(shard,), shard_count=count))
    return made


def mid_turn(st: State) -> bool:
    """A person's decision after their dice: a restart now must keep the open question."""
    return st.phase in ("buy", "end") and not st.seats[st.current].computer and st.turn >= 2


async def resume_old_table(world: World, gid: int, st: State, table: FakeMessage, channel: FakeChannel) -> None:
    """Click the table message the killed process posted, as it is: the move applies exactly once."""
    assert world.game(gid).version == st.version  # nothing acknowledged was lost
    await world.act(gid, world.user_of(gid, st.current), table, "buy" if st.phase == "buy" else "end_turn")
    row = world.game(gid)
    assert row.state is not None and row.state.version > st.version


async def test_two_processes_then_three_after_resharding(tmp_path: Path) -> None:
    async with FakeDiscord() as fake:
        guilds = [fake.add_guild(f"Mesa {k}", channels=("mesa",), on_shard=(k, LCM)) for k in range(GUILDS)]
        channels = [g.channel("mesa") for g in guilds]
        people: list[tuple[FakeUser, FakeUser]] = [
            (fake.add_user(f"Ana{k}", g, locale="es-419"), fake.add_user(f"Beto{k}", g, locale="es-419"))
            for k, g in enumerate(guilds)
        ]
        before = processes(fake, tmp_path, 2, "two")
        for process in before:
            await process.start()
        stores = Stores([p.db_path for p in before])
        flat = [u for pair in people for u in pair]
        after: list[Bot] = []
        world = World(fake, guilds[0], channels[0], channels[1], *flat[:4], before[0], stores)  # type: ignore[arg-type]
        try:
            gids = []
            for k, channel in enumerate(channels):
                host, guest = people[k]
                gid = await world.open_table(host, [guest], computers=1, channel=channel)
                await world.start(gid, host, channel)
                gids.append(gid)
            # Each guild's game lives in the file of its shard's process, numbered in that file's id block.
            assert [gid // 2**40 for gid in gids] == [k % 2 for k in range(GUILDS)]

            # Kill the process of shard 1 while its games (guilds 1 and 3) wait for a person.
            paused = {k: await world.play_until(gids[k], mid_turn, channels[k]) for k in (1, 3)}
            tables = {k: world.table(channels[k]) for k in (1, 3)}
            await before[1].kill()
            # Shard 0 plays on meanwhile.
            st0 = await world.play_until(gids[0], mid_turn, channels[0])
            await world.play_turn_step(gids[0], st0, channels[0])
            await before[1].start()
            for k in (1, 3):
                await resume_old_table(world, gids[k], paused[k], tables[k], channels[k])  # type: ignore[arg-type]
            for k in range(GUILDS):
                st = world.game(gids[k]).state
                assert st is not None
                await world.play_until(gids[k], lambda s, turn=st.turn: s.turn > turn, channels[k])

            # Reshard 2 -> 3: stop both, split their files by guild, start three processes.
            for process in before:
                await process.stop()
                assert_clean(process)
            stores.close()
            out = str(tmp_path / "three-{shard}.db")
            split = subprocess.run(
                [sys.executable, "-m", "bot.store", "split", "--shards", "3", "--out", out,
                 *(str(p.db_path) for p in before)],
                capture_output=True, text=True, cwd=ROOT, check=False,
            )
            assert split.returncode == 0, split.stderr
            after += processes(fake, tmp_path, 3, "three")
            for process in after:
                await process.start()
            world.store = stores = Stores([p.db_path for p in after])  # type: ignore[assignment]
            for k in range(GUILDS):
                assert stores.stores[k % 3].game(gids[k]).status == "active"  # each game moved to its new shard

            paused = {k: await world.play_until(gids[k], mid_turn, channels[k]) for k in range(GUILDS)}
            tables = {k: world.table(channels[k]) for k in range(GUILDS)}
            await after[1].kill()  # shard 1 of 3: guild 1
            await after[1].start()
            for k in range(GUILDS):
                await resume_old_table(world, gids[k], paused[k], tables[k], channels[k])  # type: ignore[arg-type]
                await world.play_until(gids[k], lambda s, turn=paused[k].turn: s.turn > turn, channels[k])
            for process in after:
                await process.stop()
                assert_clean(process)
                assert f"shard {process.shards[0]} of 3" in process.log()
        finally:
            for process in before + after:
                await process.stop()
            stores.close()
        for process in after:
            check = subprocess.run([sys.executable, "-m", "bot.store", "verify", "--db", str(process.db_path)],
                                   capture_output=True, text=True, cwd=ROOT, check=False)
            assert check.returncode == 0, check.stdout + check.stderr
        assert fake.errors == [], "\n".join(map(str, fake.errors))


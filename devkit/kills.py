"""Kill the bot (SIGKILL) at random moments while people play, and check afterwards that every open game
waits for a decision its messages let a person make and that every game's log replays (`store verify`).
`bench/kill_loop.py` prints the figures; `test_kill_loop.py` runs a few kills of the same loop.

A round lasts a number of moves, not a time: the bot is killed after a random number of recorded moves (then a
moment's random pause) or while Discord holds the answer to one of its posts, so how much gets played does not
depend on the machine's speed. A round in which the games make no move (or the bot posts nothing) for
`STUCK_SECONDS` fails, saying which; after the last restart each open game is given as long to wait for a
person (a game that does not is counted out of `games_answerable`)."""

from __future__ import annotations

import asyncio
import random
import sys
import time
from pathlib import Path
from typing import Any

from bot.store import Store
from bot.store.replay import verify
from devkit.world import TEST_RATE_LIMITS, TEST_SETTINGS, Bot, World, bot_environment
from fakediscord import FakeChannel, FakeDiscord

MOVES_BETWEEN = 40  # a round that kills at a random moment lets the games make up to this many moves first
STUCK_SECONDS = 60.0  # far longer than any move or post takes, however busy the machine: the bot is stuck


class Stuck(AssertionError):
    """The games made no move, or the bot posted nothing, for STUCK_SECONDS after a restart."""


def moves_made(store: Store) -> int:
    """Every move the games in the database have recorded (a game's version counts its moves)."""
    with store.backend.read() as tx:
        return int(tx.execute("SELECT coalesce(sum(version), 0) FROM games").fetchone()[0])


async def moves_later(store: Store, count: int, after_kill: int) -> None:
    """Return once the games have recorded `count` more moves; Stuck if none is recorded for STUCK_SECONDS."""
    target = moves_made(store) + count
    last, quiet_since = -1, time.monotonic()
    while (now := moves_made(store)) < target:
        if now != last:
            last, quiet_since = now, time.monotonic()
        elif time.monotonic() - quiet_since > STUCK_SECONDS:
            raise Stuck(f"after {after_kill} kills the games made no move in {STUCK_SECONDS:.0f} s "
                        f"({target - now} of {count} still wanted)")
        await asyncio.sleep(0.02)


async def keep_playing(world: World, games: dict[FakeChannel, int], host: dict[FakeChannel, Any]) -> None:
    """People make their decisions, channel after channel, until cancelled; a game over is replaced."""
    while True:
        for channel, gid in list(games.items()):
            try:
                st = await world.settled(gid, channel, timeout=3)
                if st.phase == "over":
                    games[channel] = await new_game(world, channel, host[channel])
                    continue
                await world.play_turn_step(gid, st, channel)
            except Exception:  # noqa: BLE001 - the bot is restarting, or a message is still being put right
                await asyncio.sleep(0.05)


async def new_game(world: World, channel: FakeChannel, people: Any) -> int:
    first, second = people
    gid = await world.open_table(first, [second], computers=1, channel=channel)
    await world.start(gid, first, channel)
    return gid


async def run(kills: int, seed: int, tmp: Path, between_share: float = 0.3) -> dict[str, Any]:
    rng = random.Random(seed)
    began = time.monotonic()
    async with FakeDiscord(rate_limits=TEST_RATE_LIMITS) as fake:
        guild = fake.add_guild("Mesa de pruebas", channels=("mesa", "otra"))
        users = [fake.add_user(name, guild, locale="es-419") for name in ("Ana", "Beto", "Carl", "Dora")]
        db = tmp / "turista.db"
        bot = Bot(fake, db, tmp / "bot.log", bot_environment(db, TEST_SETTINGS))
        await bot.start()
        store = Store(db)
        world = World(fake, guild, guild.channel("mesa"), guild.channel("otra"), *users, bot, store)
        host = {world.channel: (users[0], users[1]), world.other: (users[2], users[3])}
        games = {channel: await new_game(world, channel, people) for channel, people in host.items()}
        first_versions = {gid: store.game(gid).version for gid in games.values()}
        between = 0
        try:
            for done in range(kills):
                players = asyncio.create_task(keep_playing(world, games, host))
                try:
                    if rng.random() < between_share:
                        held = fake.hold("POST", "/channels/{channel}/messages", when="after", times=1)
                        try:
                            await held.reached(1, timeout=STUCK_SECONDS)
                        except TimeoutError:
                            raise Stuck(f"after {done} kills the bot posted nothing in {STUCK_SECONDS:.0f} s") from None
                        between += 1
                    else:
                        await moves_later(store, rng.randint(0, MOVES_BETWEEN), done)
                        await asyncio.sleep(rng.uniform(0.0, 0.05))
                    await bot.kill()
                finally:
                    players.cancel()
                    await asyncio.gather(players, return_exceptions=True)
                fake.clear_faults()
                await bot.start()
            answerable = 0
            for channel, gid in games.items():
                try:
                    st = await world.settled(gid, channel, timeout=STUCK_SECONDS)
                    if st.phase != "over":
                        before = store.game(gid).version
                        await world.play_turn_step(gid, st, channel)
                        answerable += store.game(gid).version > before
                    else:
                        answerable += 1
                except (AssertionError, TimeoutError) as error:
                    print(f"game {gid}: {error}", file=sys.stderr)
        finally:
            await bot.stop()
        verdicts = list(verify(store))
        moves = sum(store.game(gid).version for gid in store.game_ids()) - sum(first_versions.values())
        store.close()
        errors = [line for line in bot.log().splitlines() if " ERROR " in line or "Traceback" in line]
        return {
            "kills": kills, "kills_between_post_and_save": between, "moves_recorded": moves,
            "games": len(verdicts), "games_answerable": answerable, "open_games_checked": len(games),
            "verified_ok": sum(v.ok for v in verdicts), "verify_failures": [v.line() for v in verdicts if not v.ok],
            "errors_logged": len(errors), "seconds": round(time.monotonic() - began, 1),
        }

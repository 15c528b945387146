"""End-to-end harness: the real bot in its own process against a fake Discord on loopback, with people clicking
and typing (`devkit.world`).

Every test fails if the bot logs an ERROR (discord.py only logs exceptions in handlers), if the fake saw an
interaction answered after 3 s or anything else a real Discord would refuse: among them every request body that
Discord's own OpenAPI spec refuses (`fakediscord.spec`, kind "schema" in `fake.errors`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.store import Store
from devkit.world import TEST_RATE_LIMITS, TEST_SETTINGS, Bot, World, assert_clean, bot_environment, not_embeds
from fakediscord import FakeDiscord
from fakediscord.ratelimits import RateLimits

__all__ = ["World", "bot_env", "rate_limits", "world"]


@pytest.fixture
def bot_env() -> dict[str, str]:
    """Override in a test module (or parametrize) to change the bot's environment."""
    return {}


@pytest.fixture
def rate_limits() -> RateLimits:
    """The fake's rate limits: Discord's on the tests' clock (`devkit.world.TEST_RATE_LIMITS`); override in a test
    module for Discord's own windows (`RateLimits()`)."""
    return TEST_RATE_LIMITS


@pytest.fixture
async def world(tmp_path: Path, bot_env: dict[str, str], rate_limits: RateLimits) -> AsyncIterator[World]:
    async with FakeDiscord(rate_limits=rate_limits) as fake:
        guild = fake.add_guild("Mesa de pruebas", channels=("mesa", "otra"))
        ana = fake.add_user("Ana", guild, locale="es-419")
        beto = fake.add_user("Beto @everyone", guild, locale="es-ES")
        carl = fake.add_user("Carl", guild, locale="en-US")
        dora = fake.add_user("Dora", guild, locale="es-419")
        db_path = tmp_path / "turista.db"
        process = Bot(fake, db_path, tmp_path / "bot.log", bot_environment(db_path, {**TEST_SETTINGS, **bot_env}))
        await process.start()
        store = Store(db_path)
        world = World(fake, guild, guild.channel("mesa"), guild.channel("otra"), ana, beto, carl, dora, process,
                      store)
        try:
            yield world
            # Every click and command is answered, and every "thinking…" completed, as a person sees it.
            try:
                await fake.wait_for(lambda: not fake.unfinished(), timeout=5, what="every interaction answered")
            except TimeoutError:
                raise AssertionError(f"interactions left pending: {fake.unfinished()}") from None
            problems = not_embeds(fake)
            assert not problems, "\n".join(problems)
        finally:
            await process.stop()
            store.close()
        assert_clean(process)
        assert fake.errors == [], "\n".join(map(str, fake.errors))

"""Fault tests run the real bot against the fake Discord, like the end-to-end suite, with its fixtures."""

from tests.e2e.conftest import bot_env, rate_limits, world

__all__ = ["bot_env", "rate_limits", "world"]

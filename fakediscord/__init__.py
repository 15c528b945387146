"""A fake Discord on 127.0.0.1 for end-to-end tests of the real discord.py client.

See ``fakediscord/README.md``. The pieces tests use::

    from fakediscord import FakeDiscord, point_discord_py_at
"""

from .client_patch import point_discord_py_at, restore_discord_py
from .faults import Fault, Hold, Route
from .logcheck import DiscordErrors, capture_discord_errors
from .models import (
    ADMINISTRATOR,
    DEFAULT_MEMBER_PERMISSIONS,
    ErrorRecord,
    FakeAttachment,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeMessage,
    FakeRole,
    FakeUser,
    Pings,
)
from .old_edits import OldEditLimit
from .process import BotProcess, launch_module
from .ratelimits import Bucket, RateLimiter, RateLimits
from .replies import Reply
from .server import FakeDiscord

__all__ = [
    "BotProcess",
    "Bucket",
    "RateLimiter",
    "RateLimits",
    "DiscordErrors",
    "capture_discord_errors",
    "launch_module",
    "ADMINISTRATOR",
    "DEFAULT_MEMBER_PERMISSIONS",
    "ErrorRecord",
    "Fault",
    "Hold",
    "Route",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "OldEditLimit",
    "Pings",
    "Reply",
    "point_discord_py_at",
    "restore_discord_py",
]

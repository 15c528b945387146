"""The `custom_id` of every component and modal: `turista:<game>:<version>:<verb>[:<arg>]`.

The game and the state version it was drawn for travel with the click, so any process can handle it and a
click on an old version is recognised as outdated. Who clicked always comes from Discord, never from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# ASCII digits only and bounded lengths: a forged id can carry neither "²" nor a 5,000-digit number (a game
# id stays inside SQLite's 64-bit integers).
PATTERN = re.compile(
    r"turista:(?P<game>[0-9]{1,18}):(?P<version>[0-9]{1,12}):(?P<verb>[a-z_]{1,24})(?::(?P<arg>[A-Za-z0-9_-]{1,40}))?"
)

# The buttons of `turista selftest`, answered by the self-test's own gateway connection: the bot leaves them alone.
SELF_TEST_PREFIX = "selftest:"


@dataclass(frozen=True)
class ComponentId:
    game: int
    version: int
    verb: str
    arg: str = ""

    def __str__(self) -> str:
        return make(self.game, self.version, self.verb, self.arg)


def make(game: int, version: int, verb: str, arg: str | int = "") -> str:
    base = f"turista:{game}:{version}:{verb}"
    return f"{base}:{arg}" if arg != "" else base


def parse(custom_id: str) -> ComponentId | None:
    match = PATTERN.fullmatch(custom_id or "")
    if match is None:
        return None
    return ComponentId(int(match["game"]), int(match["version"]), match["verb"], match["arg"] or "")


def number(raw: object, limit: int) -> int | None:
    """`raw` as a whole number from 0 to `limit`, written in ASCII digits (as the bot writes them into
    custom_ids and select values); None for anything else, such as "-1", "²", "١" or 5,000 digits."""
    if not isinstance(raw, str) or not (raw.isascii() and raw.isdigit()) or len(raw) > len(str(limit)):
        return None
    value = int(raw)
    return value if value <= limit else None

"""The `custom_id` of every component and modal: `turista:<game>:<version>:<verb>[:<arg>]`.

The game and the state version it was drawn for travel with the click, so any process can handle it and a
click on an old version is recognised as outdated. Who clicked always comes from Discord, never from here.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

PATTERN = re.compile(r"turista:(?P<game>\d+):(?P<version>\d+):(?P<verb>[a-z_]+)(?::(?P<arg>[\w-]+))?")


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

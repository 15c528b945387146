"""What a sandbox line means: a slash command, a button press, a select, a switch of seat, or a sandbox verb."""

from __future__ import annotations

import shlex
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Slash:
    words: list[str]  # command words and positional values, e.g. ["turista", "new", "mundial"]
    named: dict[str, str] = field(default_factory=dict)  # key:value options


@dataclass(frozen=True)
class Press:
    target: str  # a number shown next to a button, or (the start of) its label


@dataclass(frozen=True)
class Choose:
    target: str  # the number or placeholder of a select
    values: list[str]  # option labels or values


@dataclass(frozen=True)
class Switch:
    name: str


@dataclass(frozen=True)
class Verb:
    name: str  # help, look, wait, quit
    arg: str = ""


Input = Slash | Press | Choose | Switch | Verb | None

VERBS = {"help", "ayuda", "look", "ver", "wait", "espera", "quit", "exit", "salir"}


def parse(line: str) -> Input:
    """The meaning of one line; None for blank lines and # comments. Raises ValueError on bad quoting."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None
    if line.startswith("/"):
        words = shlex.split(line[1:])
        named = {}
        positional = []
        for w in words:
            key, sep, value = w.partition(":")
            if sep and key.isidentifier() and value:
                named[key] = value
            else:
                positional.append(w)
        return Slash(positional, named)
    head, _, rest = line.partition(" ")
    head_l = head.lower()
    if head_l in ("as", "como"):
        return Switch(rest.strip())
    if head_l in ("press", "click", "pulsa", "boton", "botón"):
        return Press(rest.strip())
    if head_l in ("select", "choose", "elige"):
        target, _, values = rest.strip().partition(" ")
        return Choose(target, [v.strip() for v in values.split(",") if v.strip()])
    if head_l in VERBS:
        return Verb(head_l, rest.strip())
    return Press(line)

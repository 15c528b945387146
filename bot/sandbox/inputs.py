"""What a sandbox line means: a slash command, a button press, a choice in a list, a switch of seat, or one
of the sandbox's own verbs.

A line that is not a command or a verb presses the button with that label, so every label on screen
("Salir", the Leave button, included) can be typed as it is. Quitting is `/quit` (or Ctrl+D), which no
button can be mistaken for.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Slash:
    words: list[str]  # command words and positional values, e.g. ["turista", "new", "mundial"]
    named: dict[str, str] = field(default_factory=dict)  # key:value options


@dataclass(frozen=True)
class Press:
    target: str  # a button's number (12.3) or (the start of) its label


@dataclass(frozen=True)
class Choose:
    target: str  # the number or placeholder of a list
    values: list[str]  # option labels or values


@dataclass(frozen=True)
class Switch:
    name: str


@dataclass(frozen=True)
class Verb:
    name: str  # help, look, wait, quit
    arg: str = ""


class BadLine(ValueError):
    """A line the sandbox cannot read (unclosed quotes); `code` is its sandbox.* text."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


Input = Slash | Press | Choose | Switch | Verb | None

QUIT = "/quit"
# Verbs take exactly this shape; any other line starting with the same word is a button label.
VERBS = {
    "help": "help", "ayuda": "help",
    "look": "look", "ver": "look",
    "wait": "wait", "espera": "wait",
}
SECONDS = re.compile(r"^\d+(\.\d+)?$")


def parse(line: str) -> Input:
    """The meaning of one line; None for blank lines and # comments. Raises BadLine on unclosed quotes."""
    line = line.strip()
    if not line or line.startswith("#"):
        return None
    if line.casefold() == QUIT:
        return Verb("quit")
    if line.startswith("/"):
        try:
            words = shlex.split(line[1:])
        except ValueError:
            raise BadLine("bad_quotes") from None
        named: dict[str, str] = {}
        positional: list[str] = []
        current = None
        for w in words:
            key, sep, value = w.partition(":")
            if sep and key.isidentifier():
                # `start_cash:5000`, `start_cash: 5000` and `titulo: Glorieta de Bilbao` alike: as in Discord's
                # client, what follows an option's name is its value, up to the next option.
                current = key
                named[key] = value
            elif current is not None:
                named[current] = f"{named[current]} {w}".strip()
            else:
                positional.append(w)
        return Slash(positional, named)
    head, _, rest = line.partition(" ")
    head_l, rest = head.casefold(), rest.strip()
    if head_l in ("as", "como") and rest:
        return Switch(rest)
    if head_l in ("press", "click", "pulsa", "boton", "botón") and rest:
        return Press(rest)
    if head_l in ("select", "choose", "elige") and rest:
        target, _, values = rest.partition(" ")
        return Choose(target, [v.strip() for v in values.split(",") if v.strip()])
    verb = VERBS.get(head_l)
    if verb == "wait" and (not rest or SECONDS.match(rest)):
        return Verb(verb, rest)
    if verb is not None and not rest:
        return Verb(verb)
    return Press(line)

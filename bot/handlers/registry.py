"""Every button, select and modal of the bot, declared once: its verb, the shape of its argument and its handler.

A component's custom_id is `turista:<game>:<version>:<verb>[:<arg>]` (`bot.face.ids`); the face writes it, and
a handler declares here what it answers:

    @verb("lift", arg=number(MAX_SQUARE))
    async def lift(click: Click) -> None: ...

The router (`bot.handlers.router`) reads nothing but these declarations: a custom_id whose verb is not declared,
whose argument does not have the declared shape, or that comes as a click for a modal's verb (or the reverse),
was made up by a modified client and is answered "invalid". In the spirit of discord.py's `DynamicItem`, the
state of every component lives in its custom_id, so a message posted by an earlier process works like a new one.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord

from bot.face import ids
from bot.table.session import Session


class Invalid(ValueError):
    """The custom_id's argument does not have the verb's shape."""


@dataclass(frozen=True)
class Shape:
    """What a verb's argument may be: `parse` turns the custom_id's text into the handler's value (raising
    Invalid), `optional` lets the verb also come without one."""

    parse: Callable[[str], Any]
    optional: bool = False


def number(limit: int) -> Shape:
    """A whole number from 0 to `limit`, in ASCII digits (as the face writes it)."""

    def parse(raw: str) -> int:
        value = ids.number(raw, limit)
        if value is None:
            raise Invalid(raw)
        return value

    return Shape(parse)


def one_of(*choices: str, optional: bool = False) -> Shape:
    """One of `choices`, as written."""

    def parse(raw: str) -> str:
        if raw not in choices:
            raise Invalid(raw)
        return raw

    return Shape(parse, optional)


@dataclass(frozen=True)
class Click:
    """A click on a component (or a modal's submission), as its handler gets it."""

    interaction: discord.Interaction
    game: int
    version: int  # the state version the component was drawn for
    arg: Any  # the argument, as its shape parsed it; None when there is none
    session: Session | None  # the game's session, for verbs of a game in play (`at_table`)


Handler = Callable[[Click], Awaitable[None]]


@dataclass(frozen=True)
class Verb:
    name: str
    handler: Handler
    arg: Shape | None  # None: the verb takes no argument
    modal: bool  # a modal's submission, not a click
    at_table: bool  # the game must be in play in the channel clicked in; its session comes with the click

    def argument(self, raw: str) -> Any:
        """The parsed argument of a custom_id (Invalid when it does not have the declared shape)."""
        if raw == "":
            if self.arg is not None and not self.arg.optional:
                raise Invalid(self.name)
            return None
        if self.arg is None:
            raise Invalid(raw)
        return self.arg.parse(raw)


VERBS: dict[str, Verb] = {}


def verb(name: str, *, arg: Shape | None = None, modal: bool = False,
         at_table: bool = True) -> Callable[[Handler], Handler]:
    """Declare the handler of the components with verb `name`."""

    def declare(handler: Handler) -> Handler:
        if name in VERBS:
            raise ValueError(f"the verb {name!r} is declared twice")
        VERBS[name] = Verb(name, handler, arg, modal, at_table)
        return handler

    return declare

"""Small helpers to build components that any process can handle (see `bot.ids`)."""

from __future__ import annotations

import discord

from bot import ids

NO_MENTIONS = discord.AllowedMentions.none()
MAX_CONTENT = 2000


def button(
    game: int, version: int, verb: str, label: str, *, arg: str | int = "", style: discord.ButtonStyle | None = None,
    row: int | None = None, emoji: str | None = None, disabled: bool = False,
) -> discord.ui.Button:
    return discord.ui.Button(
        label=label[:80], custom_id=ids.make(game, version, verb, arg), style=style or discord.ButtonStyle.secondary,
        row=row, emoji=emoji, disabled=disabled,
    )


def select(
    game: int, version: int, verb: str, placeholder: str, options: list[discord.SelectOption], *,
    arg: str | int = "", min_values: int = 1, max_values: int = 1, row: int | None = None,
) -> discord.ui.Select:
    options = options[:25]
    return discord.ui.Select(
        custom_id=ids.make(game, version, verb, arg), placeholder=placeholder[:150], options=options,
        min_values=min(min_values, len(options)), max_values=max(1, min(max_values, len(options))), row=row,
    )


def option(label: str, value: str | int, *, description: str | None = None, default: bool = False,
           emoji: str | None = None) -> discord.SelectOption:
    return discord.SelectOption(label=label[:100], value=str(value)[:100],
                                description=description[:100] if description else None, default=default, emoji=emoji)


def view(*items: discord.ui.Item) -> discord.ui.View:
    """A view that discord.py does not keep in memory: clicks are routed by custom_id (see `bot.router`),
    so old messages keep working after a restart and nothing accumulates."""
    result = discord.ui.View(timeout=None)
    for item in items:
        result.add_item(item)
    result.stop()
    return result


def fit(lines: list[str], head: str = "", tail: str = "", limit: int = MAX_CONTENT) -> str:
    """`head`, as many of the last `lines` as fit, then `tail`: the newest of a long account is what matters."""
    budget = limit - len(head) - len(tail) - 4
    kept: list[str] = []
    for line in reversed(lines):
        if budget - len(line) - 1 < 0:
            kept.append("…")
            break
        kept.append(line)
        budget -= len(line) + 1
    body = "\n".join(reversed(kept))
    return "\n".join(part for part in (head, body, tail) if part)[:limit]


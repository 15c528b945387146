"""Small helpers to build components that any process can handle (see `bot.face.ids`)."""

from __future__ import annotations

from typing import Any

import discord

from bot.face import ids

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


class Rows:
    """Buttons as the JSON Discord takes, in rows: for the table, built anew after every move. discord.py's
    `ui.Button` and `ui.View` cost several times that JSON to make, and a view the bot sends is only asked for
    it (`to_components`; `has_components_v2`: these are classic action rows). Clicks are routed by custom_id,
    as for every view of the bot (`view`)."""

    def __init__(self, *buttons: dict[str, Any]) -> None:
        self.buttons = list(buttons)

    def to_components(self) -> list[dict[str, Any]]:
        rows: dict[int, list[dict[str, Any]]] = {}
        for button in self.buttons:
            rows.setdefault(button["row"], []).append({k: v for k, v in button.items() if k != "row"})
        return [{"type": 1, "components": rows[row]} for row in sorted(rows)]

    @staticmethod
    def has_components_v2() -> bool:
        return False


def button_json(
    game: int, version: int, verb: str, label: str, *, arg: str | int = "", style: discord.ButtonStyle | None = None,
    row: int = 0, emoji: str | None = None, disabled: bool = False,
) -> dict[str, Any]:
    """`button`, as the JSON of a `Rows`."""
    out: dict[str, Any] = {"type": 2, "style": (style or discord.ButtonStyle.secondary).value, "disabled": disabled,
                           "label": label[:80], "custom_id": ids.make(game, version, verb, arg), "row": row}
    if emoji:
        out["emoji"] = {"id": None, "name": emoji}
    return out


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
    """A view that discord.py does not keep in memory: clicks are routed by custom_id (see `bot.handlers.router`),
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


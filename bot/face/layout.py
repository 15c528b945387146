"""The table message, an auction's, a trade offer's, the lobby and the end of a game, as Discord's Components V2
layout (message flag IS_COMPONENTS_V2): pure functions of the game.

An embed's picture is fitted into 400 × 300 on a desktop, where no square's name can be read; a Media Gallery shows
its picture at the message's full width, with alt text. So the table is one Container: the turn's header and
account as Text Displays, the board in a Media Gallery, the decision beside the line that asks it (a Section with
the button as its accessory) or under it in a row when there are several, then what anyone may do in rows of at
most `BUTTONS_PER_ROW` (a phone's 350 px fits four), and the game's footer.

Discord's rules for such a message (`components-reference.mdx`): no `content` and no `embeds`, at most
`MAX_COMPONENTS` components in all and `MAX_TEXT` characters of text, an attachment shown only where a component
points at it (`attachment://board.png`), and the flag cannot be removed by an edit: a table that is a layout stays
one, and the classic embed table (`bot.face.embeds.table`) is always a new message. A mention inside such a message
notifies with an empty text (discord-api-docs #7854), so the table pings nobody and the publisher sends the turn's
ping as a plain message of its own (`ping`).

Like `bot.face.components.Rows`, a `Layout` is the JSON Discord takes, built anew after every move: discord.py's
`ui.LayoutView` items cost several times that to make, and a view the bot sends is only asked for its components
and whether it is a layout. discord.py sets the flag for it from 2.6 on (`SUPPORTED`); older releases get the
classic embed table. Clicks are routed by custom_id, as for every view of the bot.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

import discord

from bot.face import components, embeds, ids, texts
from bot.face.i18n import t
from bot.store import SeatRow
from bot.table.settings import TableSettings
from engine import Standing, State

# discord.py sends the IS_COMPONENTS_V2 flag for a view whose `has_components_v2()` says so since 2.6, the release
# that brought `ui.LayoutView`; before it the flag would be left out and Discord would refuse the message.
SUPPORTED = hasattr(discord.ui, "LayoutView")
IS_COMPONENTS_V2 = 1 << 15
MAX_COMPONENTS = 40
MAX_TEXT = 4000
BUTTONS_PER_ROW = 4
TEXT_DISPLAY, SECTION, MEDIA_GALLERY, SEPARATOR, CONTAINER, ACTION_ROW = 10, 9, 12, 14, 17, 1


class Layout:
    """A Components V2 message's components, as the JSON Discord takes (see the module's docstring)."""

    def __init__(self, *parts: dict[str, Any]) -> None:
        self.parts = list(parts)

    def to_components(self) -> list[dict[str, Any]]:
        return self.parts

    @staticmethod
    def has_components_v2() -> bool:
        return True

    def walk(self) -> Iterator[dict[str, Any]]:
        """Every component, depth first (a section's accessory included)."""
        stack = list(reversed(self.parts))
        while stack:
            part = stack.pop()
            yield part
            children = list(part.get("components") or [])
            if "accessory" in part:
                children.append(part["accessory"])
            stack.extend(reversed(children))

    def count(self) -> int:
        """The components Discord counts towards its 40."""
        return sum(1 for _ in self.walk())

    def text_length(self) -> int:
        """The characters of text Discord counts towards its 4,000."""
        return sum(len(part["content"]) for part in self.walk() if part["type"] == TEXT_DISPLAY)


def sendable(shown: Layout) -> discord.ui.View:
    """`shown` as a view discord.py's public calls take (`Messageable.send`, `InteractionResponse.edit_message`,
    `Interaction.edit_original_response` accept only their own): a `ui.LayoutView` that only hands over the JSON,
    finished at once (nothing is kept in memory; clicks are routed by custom_id). Needs a running event loop, as
    every discord.py view does."""
    return _Sendable(shown)


if SUPPORTED:
    class _Sendable(discord.ui.LayoutView):
        def __init__(self, shown: Layout) -> None:
            super().__init__(timeout=None)
            self.shown = shown
            self.stop()

        def to_components(self) -> list[dict[str, Any]]:
            return self.shown.to_components()

        def has_components_v2(self) -> bool:  # discord.py asks its own children, and this view has none
            return True


def text(content: str) -> dict[str, Any]:
    return {"type": TEXT_DISPLAY, "content": content}


def gallery(name: str, description: str) -> dict[str, Any]:
    """One attached picture at the message's width, with its alt text."""
    return {"type": MEDIA_GALLERY,
            "items": [{"media": {"url": f"attachment://{name}"}, "description": description or None,
                       "spoiler": False}]}


def section(lines: list[str], accessory: dict[str, Any]) -> dict[str, Any]:
    """Up to three lines of text with one button beside them."""
    return {"type": SECTION, "components": [text(line) for line in lines[:3]], "accessory": accessory}


def separator() -> dict[str, Any]:
    return {"type": SEPARATOR, "divider": True, "spacing": 1}


def container(parts: Iterable[dict[str, Any]], accent: discord.Colour | None) -> dict[str, Any]:
    return {"type": CONTAINER, "accent_color": accent.value if accent is not None else None, "spoiler": False,
            "components": list(parts)}


def rows(buttons: list[dict[str, Any]], per_row: int = BUTTONS_PER_ROW) -> list[dict[str, Any]]:
    """`buttons` (JSON as `components.button_json` makes it) in action rows of at most `per_row`."""
    bare = [{k: v for k, v in b.items() if k != "row"} for b in buttons]
    return [{"type": ACTION_ROW, "components": bare[i:i + per_row]} for i in range(0, len(bare), per_row)]


def _account(lines: list[str], budget: int) -> str:
    """The newest of the turn's lines that fit in `budget` characters, "…" first when some were left out."""
    return components.fit(lines, limit=max(0, budget)) if lines else ""


def table(state: State, seats: list[SeatRow], events: list[dict], lang: str, *, live: bool, game: int,
          alt: str, buttons: components.Rows | None, narration: embeds.Narration | None = None,
          waiting: str = "") -> Layout:
    """The table message as a layout: the header, the turn's account, the board (`attachment://board.png`, with
    `alt` as its alt text), what the game waits for with its buttons, what anyone may do, the footer. `buttons`:
    the table's buttons (`bot.face.buttons.table_view`), the turn's decisions on its first row. `waiting`: by
    correspondence, who the game waits for and since when (`texts.waiting_line`), under the prompt."""
    header = "### " + embeds.plain(texts.turn_header(state, events, lang))
    told = embeds.told(state, events, lang, narration)
    prompt = texts.prompt(state, seats, lang) if live else ""
    if prompt and waiting:
        prompt = f"{prompt}\n{waiting}"
    footer = f"-# {embeds.footer_text(lang, state.edition, game)}" if game else ""
    offered = buttons.buttons if buttons is not None and live else []
    decisions = [b for b in offered if b["row"] == 0]
    others = [b for b in offered if b["row"] != 0]
    parts: list[dict[str, Any]] = [text(header)]
    account = _account([f"• {line}" for line in told], MAX_TEXT - len(header) - len(prompt) - len(footer) - 8)
    if account:
        parts.append(text(account))
    parts.append(gallery(embeds.BOARD, alt))
    if prompt:
        if len(decisions) == 1:
            parts.append(section([prompt], decisions[0]))
        else:
            parts.append(text(prompt))
            parts.extend(rows(decisions))
    if others:
        parts.append(separator())
        parts.extend(rows(others))
    if footer:
        parts.append(text(footer))
    accent = embeds.acting_colour(state) if live or state.phase == "over" else embeds.GREY
    return Layout(container(parts, accent))


def auction(state: State, lang: str, quiet: float, *, game: int, alt: str,
            buttons: components.Rows | None, closes: str = "") -> Layout:
    """An open auction as a layout: its title and quiet period (by correspondence `closes`, its clock:
    `texts.auction_clock`), the highest bid, the list price and who bids, the deed in a gallery
    (`attachment://deed.png`, with `alt`), the bids' buttons in rows of four, the footer.
    `buttons` None: the same without buttons (the auction is over, with no result to tell)."""
    title, colour, quiet_line, fields = embeds.auction_parts(state, lang, quiet, closes)
    parts = [text("### " + embeds.plain(title)), text("\n".join([quiet_line, _fields(fields)])[:MAX_TEXT - 400]),
             gallery(embeds.DEED, alt)]
    if buttons is not None:
        parts.extend(rows(buttons.buttons))
    if game:
        parts.append(text(f"-# {embeds.footer_text(lang, state.edition, game)}"))
    return Layout(container(parts, colour))


def auction_result(state: State, result: list[dict], lang: str, *, game: int, alt: str) -> Layout:
    """A closed auction as a layout: who won it and for how much, or that nobody bid; the deed stays shown."""
    title, colour, told = embeds.auction_result_parts(state, result, lang)
    parts = [text("### " + embeds.plain(title))]
    if told != title:
        parts.append(text(told[:MAX_TEXT - 400]))
    parts.append(gallery(embeds.DEED, alt))
    if game:
        parts.append(text(f"-# {embeds.footer_text(lang, state.edition, game)}"))
    return Layout(container(parts, colour))


def _fields(fields: list[embeds.Field]) -> str:
    return "\n".join(f"**{embeds.plain(name)}**: {value}" if inline else f"**{embeds.plain(name)}**\n{value}"
                     for name, value, inline in fields)


def offer(state: State, seats: list[SeatRow], lang: str, *, game: int, buttons: components.Rows | None) -> Layout:
    """A trade offer as a layout: who offers what to whom and who must answer, the answers' buttons, the footer
    (the person who must answer is pinged by a plain message of its own: `offer_ping`)."""
    title, colour, answer, fields = embeds.trade_parts(state, seats, lang)
    parts = [text("### " + embeds.plain(title)), text("\n".join([answer, _fields(fields)])[:MAX_TEXT - 400])]
    if buttons is not None:
        parts.extend(rows(buttons.buttons))
    if game:
        parts.append(text(f"-# {embeds.footer_text(lang, state.edition, game)}"))
    return Layout(container(parts, colour))


def offer_outcome(state: State, outcome: list[dict], lang: str, *, game: int, countered: bool = False) -> Layout:
    """An offer once settled, rejected or cancelled, as a layout: what happened, and what moved each way."""
    title, colour, told, fields = embeds.trade_outcome_parts(state, outcome, lang, countered=countered)
    body = "\n".join(part for part in (told, _fields(fields)) if part)
    parts = [text("### " + embeds.plain(title)), text(body[:MAX_TEXT - 400])]
    if game:
        parts.append(text(f"-# {embeds.footer_text(lang, state.edition, game)}"))
    return Layout(container(parts, colour))


def offer_ping(state: State, seats: list[SeatRow], lang: str) -> str | None:
    """The ping beside a layout offer: the person who must answer, and what they are asked (None for a
    computer)."""
    if embeds.answerer(state, seats) is None:
        return None
    title, _, answer, _ = embeds.trade_parts(state, seats, lang)
    return f"{embeds.plain(title)} · {answer}"[: components.MAX_CONTENT]


def ping(state: State, seats: list[SeatRow], lang: str) -> str | None:
    """The turn's ping beside a layout table: what the game waits for, addressed to the person it waits for (the
    mention opens it, so the notification says who and what); None when it waits for nobody in particular."""
    if embeds.pinged(state, seats) is None:
        return None
    return texts.prompt(state, seats, lang)[: components.MAX_CONTENT]


def _items(view: discord.ui.View | None) -> list[dict[str, Any]]:
    """The buttons and selects of a classic view, as JSON, in order."""
    if view is None:
        return []
    return [item for row in view.to_components() for item in row["components"]]


def _verb(item: dict[str, Any]) -> str:
    parsed = ids.parse(str(item.get("custom_id") or ""))
    return parsed.verb if parsed is not None else ""


def lobby(game: int, host_id: int, seats: list[SeatRow], settings: TableSettings, opened_with: str, lang: str, *,
          closed: str = "", view: discord.ui.View | None = None) -> Layout:
    """The lobby message as a layout: the title and host, the players with Join beside them, the house rules at
    the message's width (their list is long: beside a button, a phone's 350 px would leave it a word a line), the
    buttons that come before Start in a row, the hint with Start beside it, then the level's select and the rest;
    once closed (`closed`: the game's state or result), the same words without buttons. `view`: the lobby's
    buttons (`bot.face.buttons.lobby_view`), in its order, so a button keeps its place (the sandbox numbers
    them by place)."""
    parts_of = embeds.lobby_parts(host_id, seats, settings, opened_with, lang, closed=closed)
    items = _items(view)
    join = next((i for i in items if i["type"] == 2 and _verb(i) == "join"), None)
    start = next((i for i in items if i["type"] == 2 and _verb(i) == "start"), None)
    cut = items.index(start) if start is not None else len(items)
    before = [i for i in items[:cut] if i is not join]
    after = items[cut + 1:]
    players = [f"**{embeds.plain(parts_of.players)}**", "\n".join(parts_of.seats)]
    parts: list[dict[str, Any]] = [text("### " + embeds.plain(parts_of.title)), text(parts_of.host)]
    parts.append(section(players, join) if join is not None else text("\n".join(players)))
    parts.append(text("\n".join([f"**{embeds.plain(parts_of.rules)}**", *parts_of.summary])))
    if items:
        parts.append(separator())
    parts.extend(_in_rows(before))
    parts.append(section([parts_of.line], start) if start is not None else text(parts_of.line))
    parts.extend(_in_rows(after))
    parts.append(text(f"-# {embeds.footer_text(lang, parts_of.edition, game)}"))
    return Layout(container(parts, parts_of.colour))


def _in_rows(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Buttons in rows of at most `BUTTONS_PER_ROW`, a select in a row of its own, in their order."""
    found: list[dict[str, Any]] = []
    waiting: list[dict[str, Any]] = []
    for item in items:
        if item["type"] == 2:
            waiting.append(item)
            continue
        found.extend(rows(waiting))
        waiting = []
        found.append({"type": ACTION_ROW, "components": [item]})
    return found + rows(waiting)


def end_of_game(state: State, head: str, ranking: Iterable[Standing], lang: str, *, game: int, alt: str | None,
                ratings: Iterable[str] = (), view: discord.ui.View | None = None) -> Layout:
    """The end of a game as a layout: the head, the ranking and what the game did to its people's ratings, the
    end-of-game picture at the message's full width (`attachment://summary.png`, with `alt`; None: no picture),
    the buttons (`bot.face.league.end_view`: Rematch, Replay) and the footer."""
    colour, lines = embeds.standings_parts(state, ranking, lang)
    rated = list(ratings)
    parts: list[dict[str, Any]] = [text("### " + embeds.plain(head))]
    body = [f"**{embeds.plain(t(lang, 'embed.standings'))}**", *lines]
    if rated:
        body += ["", f"**{embeds.plain(t(lang, 'embed.ratings'))}**", *rated]
    parts.append(text(components.fit(body, limit=MAX_TEXT - len(head) - 200)))
    if alt is not None:
        parts.append(gallery(embeds.SUMMARY, alt))
    parts.extend(rows(_items(view)))
    if game:
        parts.append(text(f"-# {embeds.footer_text(lang, state.edition, game)}"))
    return Layout(container(parts, colour))


def heading(message: discord.Message | None) -> str | None:
    """The head of a layout message the bot sent (its first text display, without the "### "), as discord.py read
    it: what a message rebuilt from the store cannot know again, such as who ended a game."""
    stack = list(reversed(getattr(message, "components", None) or []))
    while stack:
        component = stack.pop()
        content = getattr(component, "content", None)
        if isinstance(content, str) and content.startswith("### "):
            return content[4:]
        stack.extend(reversed(list(getattr(component, "children", None) or [])))
    return None

"""The private menus of the table's Build…, Sell…, Mortgage… buttons: what the clicking person may pick now."""

from __future__ import annotations

import discord

from bot.face import components
from bot.face.i18n import t
from bot.face.texts import cash
from bot.table.plans import even_builds
from engine import (
    Action,
    State,
    building_cost,
    edition_of,
    legal_actions,
    refusal,
    title_to_bank_value,
    title_value,
    unmortgage_cost,
)
from words import square_name, text

MENU_KINDS = ("build", "sell", "mortgage", "unmortgage", "sell_title", "take_loan", "title_to_bank")


def menu_select(game: int, state: State, seat: int, kind: str, lang: str) -> discord.ui.Select | None:
    """The titles `seat` may act on with `kind` now, as a select (None when there are none)."""
    options = []
    for action in legal_actions(state, seat):
        if action.kind != kind:
            continue
        if kind == "take_loan":
            amount = edition_of(state).economy.club_loans[action.block]
            options.append(components.option(text(lang, f"block.{action.block}"), action.block,
                                     description=t(lang, "menu.hint.take_loan", amount=cash(state, amount))))
            continue
        options.append(components.option(square_name(state.edition, action.square, lang), action.square,
                                 description=menu_hint(state, kind, action.square, lang)))
    if not options:
        return None
    return components.select(game, state.version, "pick", t(lang, f"menu.{kind}"), options, arg=kind)


def menu_items(game: int, state: State, seat: int, kind: str, lang: str) -> list[discord.ui.Item]:
    """A private menu's selects: the titles for `kind`, and for building, whole blocks at once."""
    items: list[discord.ui.Item] = [s for s in (menu_select(game, state, seat, kind, lang),) if s is not None]
    if kind == "build" and items and (even := even_build_select(game, state, seat, lang)) is not None:
        items.append(even)
    return items


def even_build_select(game: int, state: State, seat: int, lang: str) -> discord.ui.Select | None:
    """Build evenly up to N on a whole block, in one pick."""
    options = [components.option(t(lang, "menu.even_option", variant=state.edition, block=text(lang, f"block.{block}"),
                           level=text(lang, f"event.level.{level}", variant=state.edition)),
                         f"{block}:{level}", description=t(lang, "menu.hint.build_even", cost=cash(state, cost)))
               for block, level, _, cost in even_builds(state, seat)]
    if not options:
        return None
    return components.select(game, state.version, "pick", t(lang, "menu.build_even"), options, arg="build_even")


def no_menu_reason(state: State, seat: int, kind: str, lang: str) -> str:
    """Why a private menu has nothing to offer; for a Club loan, the engine's own reason when there is one."""
    if kind == "take_loan":
        ed = edition_of(state)
        for block in ed.economy.club_loans:
            why = refusal(state, Action(kind="take_loan", seat=seat, block=block))
            if why is not None and why[0] in ("loans_off", "not_a_member", "in_debt"):
                return text(lang, f"error.{why[0]}", variant=state.edition, **why[1])
    return t(lang, f"menu.none.{kind}")


def menu_hint(state: State, kind: str, square: int, lang: str) -> str:
    ed = edition_of(state)
    sq = ed.squares[square]
    level = state.level[square]
    if kind == "build":
        return t(lang, "menu.hint.build", cost=cash(state, building_cost(sq, level + 1)), level=level)
    if kind == "sell":
        value = (sq.hotel_cost if level == 5 else sq.house_cost) // 2
        return t(lang, "menu.hint.sell", value=cash(state, value), level=level)
    if kind == "mortgage":
        return t(lang, "menu.hint.mortgage", value=cash(state, sq.mortgage))
    if kind == "unmortgage":
        return t(lang, "menu.hint.unmortgage", cost=cash(state, unmortgage_cost(state, square)))
    if kind == "title_to_bank":
        return t(lang, "menu.hint.title_to_bank", value=cash(state, title_to_bank_value(state, square)))
    return t(lang, "menu.hint.sell_title", value=cash(state, title_value(state, square)))

"""Build…, Sell…, Mortgage… and the table's other menus: the clicking person's titles where that is possible
now, in a private message, and what they pick there."""

from __future__ import annotations

import discord

from bot.face import components, ids, menus
from bot.face.i18n import lang_of, t
from bot.face.replies import error_text, refuse, say
from bot.handlers.acting import perform, seated, values
from bot.handlers.registry import Click, one_of, verb
from bot.table.plans import even_builds
from bot.table.session import Session
from engine import Action
from words import account

MAX_SQUARE = 999  # far above any board's squares


def _table(click: Click) -> Session:
    assert click.session is not None  # declared `at_table`: the router found the game
    return click.session


@verb("menu", arg=one_of(*menus.MENU_KINDS))
async def menu(click: Click) -> None:
    interaction, session, kind = click.interaction, _table(click), click.arg
    seat = await seated(interaction, session)
    if seat is None or session.state is None:
        return
    lang = lang_of(interaction)
    items = menus.menu_items(session.gid, session.state, seat, kind, lang)
    if not items:
        await say(interaction, menus.no_menu_reason(session.state, seat, kind, lang))
        return
    head = t(lang, f"menu.{kind}")
    if kind == "take_loan":
        head = t(lang, "menu.terms.take_loan") + "\n" + head  # the terms before anything is taken
    await say(interaction, head, view=components.view(*items))


@verb("pick", arg=one_of(*menus.MENU_KINDS, "build_even"))
async def pick(click: Click) -> None:
    interaction, session, kind, version = click.interaction, _table(click), click.arg, click.version
    chosen = values(interaction)
    if kind == "take_loan" and chosen:
        block = chosen[0]
        await perform(interaction, session, lambda s: Action(kind=kind, seat=s, block=block), version=version,
                      edit_source=True)
        return
    if kind == "build_even" and chosen:
        await _build_even(interaction, session, chosen[0], version)
        return
    square = ids.number(chosen[0], MAX_SQUARE) if chosen else None
    if kind not in menus.MENU_KINDS or square is None:
        await refuse(interaction, "unknown_property")
        return
    await perform(interaction, session, lambda s: Action(kind=kind, seat=s, square=square), version=version,
                  edit_source=True, then=lambda: _menu_again(interaction, session, kind))


def _menu_again(interaction: discord.Interaction, session: Session, kind: str) -> discord.ui.View | None:
    """The private menu on the new version (a mortgaged title gone from it), so building a whole block is
    a few clicks; None when nothing is left to pick."""
    seat = session.seat_of(interaction.user.id)
    if seat is None or session.state is None:
        return None
    items = menus.menu_items(session.gid, session.state, seat, kind, lang_of(interaction))
    return components.view(*items) if items else None


async def _build_even(interaction: discord.Interaction, session: Session, raw: str, version: int) -> None:
    """Build evenly up to a level on a whole block: the plan the menu offered, made again on the game as it
    is now, one action after the other."""
    seat = await seated(interaction, session)
    if seat is None:
        return
    st = session.state
    if st is None or st.version != version:
        await refuse(interaction, "outdated")
        return
    plan = next((p for block, level, p, _ in even_builds(st, seat) if f"{block}:{level}" == raw), None)
    if plan is None:
        await refuse(interaction, "outdated")
        return
    await interaction.response.defer()
    lang = lang_of(interaction)
    done: list[dict] = []
    for action in plan:
        result = await session.run(action, interaction.user.id)
        if isinstance(result, tuple):
            await say(interaction, error_text(lang, result[0], result[1], session.state))
            break
        done += result
    summary = "\n".join(account(done, session.state, lang)[:12]) if session.state else ""
    await interaction.edit_original_response(content=(summary or t(lang, "done"))[:2000],
                                             view=_menu_again(interaction, session, "build"))

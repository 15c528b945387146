"""The one persistent handler of every button, select and modal of the bot.

Components are routed by their custom_id alone (`bot.face.ids`), so a message posted by an earlier process
works exactly like a new one. Everything read from an interaction (custom_id, select values, modal fields)
is checked before use: a modified client can send anything, and gets "invalid" or "outdated" back.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.client import bot_of
from bot.face import buttons, components, ids
from bot.face.answers import overview, seat_status
from bot.face.i18n import lang_of, t
from bot.face.replies import error_text, refuse, say
from bot.handlers import lobby, trades
from bot.handlers.acting import confirm_bankrupt, perform, seated
from bot.table.session import Session
from engine import Action
from engine.ai.levels import DEFAULT_LEVEL, LEVELS
from engine.narrate import account

log = logging.getLogger("turista.router")

SIMPLE = {"roll", "buy", "decline", "end_turn", "pay_fine", "use_card", "pass_bid",
          "accept_trade", "reject_trade", "cancel_trade", "keep_mortgaged"}
# Asked once more before: the private confirmation's button carries these verbs, and it then shows the outcome.
CONFIRMED = {"bankrupt_yes": "bankrupt", "withdraw": "withdraw"}
LOBBY = {"join", "leave", "addbot", "dropbot", "settings", "start", "set"}
MODAL_VERBS = {"bid_set", "trade_money_set"}  # the submissions of the bot's modals; every other verb is a click
# The verbs whose custom_id carries an argument; every other verb has none.
ARG_VERBS = {"bid", "lift", "menu", "pick", "set", "trade_give", "trade_take", "trade_money", "trade_money_set",
             "trade_send"}
MAX_BID = 10**9
MAX_SEAT = 16  # far above any table, so that a forged seat number is only ever a small one
MAX_SQUARE = 999  # far above any board's squares
MAX_VALUES = 25  # Discord's most options in one select


def _values(interaction: discord.Interaction) -> list[str]:
    """A select's chosen values; a forged list is cut to what a select can send."""
    data: Any = interaction.data or {}
    values = data.get("values")
    return [str(v)[:100] for v in values[:MAX_VALUES]] if isinstance(values, list) else []


def _modal_fields(interaction: discord.Interaction) -> dict[str, str]:
    """Text inputs of a submitted modal by custom_id, whatever the layout (action rows or labels)."""
    found: dict[str, str] = {}

    def walk(components: Any, depth: int = 0) -> None:
        if not isinstance(components, list) or depth > 3:
            return
        for component in components:
            if not isinstance(component, dict):
                continue
            if "custom_id" in component and "value" in component:
                found[str(component["custom_id"])] = str(component["value"])[:4000]
            walk(component.get("components"), depth + 1)
            child = component.get("component")
            if isinstance(child, dict):
                walk([child], depth + 1)

    data: Any = interaction.data or {}
    walk(data.get("components", []))
    return found


async def handle(interaction: discord.Interaction) -> None:
    """Entry point from `on_interaction` for components and modal submissions."""
    data: Any = interaction.data or {}
    cid = ids.parse(str(data.get("custom_id", ""))[:100])
    try:
        is_modal = interaction.type == discord.InteractionType.modal_submit
        if cid is None or not _well_formed(cid, is_modal):
            # No message of the bot ever carried this: a modified client made it up.
            log.info("refused a component nobody was shown: %.100r", data.get("custom_id"))
            await refuse(interaction, "invalid")
            return
        await _route(interaction, cid)
    except discord.HTTPException:
        log.exception("answering %s failed", cid)


def _well_formed(cid: ids.ComponentId, is_modal: bool) -> bool:
    """Whether the bot could have made this custom_id: a modal's verb for a modal, a click's for a click, an
    argument exactly where the verb takes one."""
    takes_arg = cid.verb in ARG_VERBS or (cid.verb == "addbot" and cid.arg == "level")
    return is_modal == (cid.verb in MODAL_VERBS) and (cid.arg != "") == takes_arg


async def _route(interaction: discord.Interaction, cid: ids.ComponentId) -> None:
    verb = cid.verb
    if verb in LOBBY:
        await _lobby(interaction, cid)
        return
    if verb == "end_game":
        await lobby.end_game(interaction, cid.game)
        return
    session = await bot_of(interaction).sessions.for_game(cid.game)
    if session is None or not session.plays_in(interaction.channel_id):
        await refuse(interaction, "no_game")
        return
    version = cid.version
    if verb in SIMPLE:
        await perform(interaction, session, lambda s: Action(kind=verb, seat=s), version=version)
    elif verb in CONFIRMED:
        kind = CONFIRMED[verb]
        await perform(interaction, session, lambda s: Action(kind=kind, seat=s), version=version, edit_source=True)
    elif verb == "bankrupt":
        await confirm_bankrupt(interaction, session, version)
    elif verb == "bid":
        await _bid(interaction, session, cid.arg, version)
    elif verb == "bid_custom":
        await _ask_bid(interaction, session, version)
    elif verb == "bid_set":
        amount = _modal_fields(interaction).get("amount", "")
        await _bid(interaction, session, amount, version)
    elif verb == "lift":
        square = ids.number(cid.arg, MAX_SQUARE)
        if square is None:
            await refuse(interaction, "unknown_property")
            return
        await perform(interaction, session, lambda s: Action(kind="unmortgage", seat=s, square=square),
                      version=version)
    elif verb == "menu":
        await _menu(interaction, session, cid.arg)
    elif verb == "pick":
        await _pick(interaction, session, cid.arg, version)
    elif verb == "status":
        await _status(interaction, session)
    elif verb == "trade":
        await trades.start(interaction, session)
    elif verb == "trade_with":
        values = _values(interaction)
        await trades.open_builder(interaction, session, _int(values[0]) if values else -1)
    elif verb in ("trade_give", "trade_take"):
        await trades.choose_titles(interaction, session, _int(cid.arg), verb[6:], _values(interaction))
    elif verb == "trade_money":
        await trades.ask_money(interaction, session, _int(cid.arg))
    elif verb == "trade_money_set":
        await trades.set_money(interaction, session, _int(cid.arg), _modal_fields(interaction))
    elif verb == "trade_send":
        await trades.send(interaction, session, _int(cid.arg))
    elif verb == "counter":
        await trades.counter(interaction, session, version)
    else:
        await refuse(interaction, "outdated")


def _int(raw: str) -> int:
    """A seat number from a custom_id or a select; -1 (nobody) for anything else."""
    value = ids.number(raw, MAX_SEAT)
    return -1 if value is None else value


async def _lobby(interaction: discord.Interaction, cid: ids.ComponentId) -> None:
    if cid.verb == "join":
        await lobby.join(interaction, cid.game)
    elif cid.verb == "leave":
        await lobby.leave(interaction, cid.game)
    elif cid.verb == "addbot":
        # The button seats a `normal` computer; the level select sends the level it picked.
        picked = _values(interaction) if cid.arg == "level" else [DEFAULT_LEVEL]
        if len(picked) != 1 or picked[0] not in LEVELS:
            await refuse(interaction, "invalid")
            return
        await lobby.add_computer(interaction, picked[0], cid.game)
    elif cid.verb == "dropbot":
        await lobby.drop_computer(interaction, cid.game)
    elif cid.verb == "start":
        await lobby.start(interaction, cid.game)
    elif cid.verb == "settings":
        await lobby.show_settings(interaction)
    elif cid.verb == "set":
        await lobby.change_setting(interaction, cid.game, cid.arg, _values(interaction))


async def _bid(interaction: discord.Interaction, session: Session, raw: str, version: int) -> None:
    try:
        amount = trades.parse_amount(raw)
    except ValueError:
        amount = -1
    if amount <= 0 or amount > MAX_BID:
        await refuse(interaction, "bad_number")
        return
    await perform(interaction, session, lambda s: Action(kind="bid", seat=s, amount=amount), version=version)


async def _ask_bid(interaction: discord.Interaction, session: Session, version: int) -> None:
    seat = await seated(interaction, session)
    if seat is None:
        return
    st = session.state
    if st is None or st.version != version or st.auction is None:
        await refuse(interaction, "outdated")
        return
    lang = lang_of(interaction)
    lowest = max(st.auction.bid + 1, st.auction.minimum)
    modal = discord.ui.Modal(title=t(lang, "auction.modal_title")[:45],
                             custom_id=ids.make(session.gid, version, "bid_set"), timeout=None)
    modal.add_item(discord.ui.TextInput(label=t(lang, "auction.modal_label", minimum=buttons.cash(st, lowest))[:45],
                                        custom_id="amount", placeholder=str(lowest), max_length=12))
    modal.stop()
    await interaction.response.send_modal(modal)


async def _menu(interaction: discord.Interaction, session: Session, kind: str) -> None:
    """Build… / Sell… / Mortgage… : the clicking person's titles where that is possible now."""
    seat = await seated(interaction, session)
    if seat is None or session.state is None:
        return
    lang = lang_of(interaction)
    if kind not in buttons.MENU_KINDS:
        await refuse(interaction, "outdated")
        return
    items = buttons.menu_items(session.gid, session.state, seat, kind, lang)
    if not items:
        await say(interaction, buttons.no_menu_reason(session.state, seat, kind, lang))
        return
    head = t(lang, f"menu.{kind}")
    if kind == "take_loan":
        head = t(lang, "menu.terms.take_loan") + "\n" + head  # the terms before anything is taken
    await say(interaction, head, view=components.view(*items))


async def _pick(interaction: discord.Interaction, session: Session, kind: str, version: int) -> None:
    values = _values(interaction)
    if kind == "take_loan" and values:
        block = values[0]
        await perform(interaction, session, lambda s: Action(kind=kind, seat=s, block=block), version=version,
                      edit_source=True)
        return
    if kind == "build_even" and values:
        await _build_even(interaction, session, values[0], version)
        return
    square = ids.number(values[0], MAX_SQUARE) if values else None
    if kind not in buttons.MENU_KINDS or square is None:
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
    items = buttons.menu_items(session.gid, session.state, seat, kind, lang_of(interaction))
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
    plan = next((p for block, level, p, _ in buttons.even_builds(st, seat) if f"{block}:{level}" == raw), None)
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


async def _status(interaction: discord.Interaction, session: Session) -> None:
    seat = session.seat_of(interaction.user.id)
    if session.state is None:
        await refuse(interaction, "no_game")
        return
    if seat is None:
        await say(interaction, overview(session.state, lang_of(interaction)))
        return
    await say(interaction, seat_status(session.state, seat, lang_of(interaction)))

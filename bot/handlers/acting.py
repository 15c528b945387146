"""What the handlers and the slash commands share: turning a click or a command into an engine action for the
clicking person's seat, and reading what an interaction carries.

The cheap checks (is there a game, is this person seated, is the button current, would the engine accept
it) answer at once with an ephemeral refusal. Otherwise the interaction is deferred first, then the action
waits for the channel's lock, so Discord always hears back within its 3 seconds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import discord

from bot import pictures
from bot.client import bot_of
from bot.face.buttons import confirmation
from bot.face.i18n import lang_of, t
from bot.face.replies import ANSWER_WITHIN, ClickAnswer, error_text, refuse, say
from bot.face.texts import cash, seat_label
from bot.store import GameRow, NoSuchGame
from bot.table import names
from bot.table.lobby import Refusal
from bot.table.session import Session
from engine import Action, State
from words import account, text

ActionFor = Callable[[int], Action]
MAX_AMOUNT = 10**9  # the most money anyone may bid or offer: far above any edition's bank


def player_name(user: discord.abc.User) -> str:
    """The name a person plays under: their server nickname (else global name, else username), visible,
    on one line and inert in Discord text (see `bot.table.names`)."""
    return names.player_name([user.display_name, getattr(user, "global_name", None), user.name], user.id)


async def channel_session(interaction: discord.Interaction) -> Session | None:
    session = await bot_of(interaction).sessions.for_channel(interaction.channel_id or 0)
    if session is None:
        await refuse(interaction, "no_game")
    return session


async def ended_game(interaction: discord.Interaction, gid: int) -> GameRow | None:
    """The game `gid` if it was played in this server and has ended (finished or abandoned after its start), else
    None: what a replay or a rematch may be made of."""
    try:
        row = await bot_of(interaction).storage.game(gid)
    except NoSuchGame:
        return None
    if row.guild_id != interaction.guild_id or row.started_at is None or row.status not in ("finished", "abandoned"):
        return None
    return row


async def seated(interaction: discord.Interaction, session: Session) -> int | None:
    """The person's seat, if they play it: not one they left to a computer (they come back with `join`)."""
    seat = session.seat_of(interaction.user.id)
    if seat is None:
        await refuse(interaction, "not_a_player")
    elif session.left(seat):
        await refuse(interaction, "seat_left")
        return None
    return seat


async def confirm_bankrupt(interaction: discord.Interaction, session: Session, version: int | None = None) -> None:
    """Declaring bankruptcy cannot be undone: say what it means and ask once more, privately."""
    seat = await seated(interaction, session)
    if seat is None:
        return
    why = session.check(Action(kind="bankrupt", seat=seat), version)
    st = session.state
    if why is not None or st is None:
        code, params = why or ("no_game", {})
        await refuse(interaction, code, params, st)
        return
    lang = lang_of(interaction)
    debt = st.debts[0]
    creditor = text(lang, "event.party.bank") if debt.creditor < 0 else seat_label(st, debt.creditor)
    view = confirmation(session.gid, st.version, "bankrupt_yes", t(lang, "button.bankrupt_yes"), "💸", lang)
    await say(interaction, t(lang, "table.confirm_bankrupt", creditor=creditor, amount=cash(st, debt.amount)),
              view=view)


async def perform(interaction: discord.Interaction, session: Session, make: ActionFor, *,
                  version: int | None = None, edit_source: bool = False,
                  then: Callable[[], discord.ui.View | None] | None = None,
                  first: ActionFor | None = None) -> list[dict] | None:
    """Apply `make(seat)` for the person who clicked or typed; its events when it was applied.

    `version` is the state version a component was drawn for (None for slash commands). With
    `edit_source`, an ephemeral menu the click came from is replaced by the outcome (and by `then()`'s view).
    `first`: a move made just before, in the same turn of the lock, and shown with it.
    """
    seat = await seated(interaction, session)
    if seat is None:
        return None
    action = make(seat)
    before = first(seat) if first is not None else None
    why = session.check(before or action, version)
    if why is not None:
        await refuse(interaction, why[0], why[1], session.state)
        return None
    # Clicks and modals sent from a message update that message: a click on a public message is answered by
    # its edit, if the action makes one. Slash commands and private menus get a private answer.
    is_component = interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit)
    answer = None
    if interaction.response.is_done():
        pass
    elif is_component and not edit_source and interaction.message is not None:
        # With the table's pictures queuing up, its board would come late: the click is deferred at once.
        answer = ClickAnswer(interaction, within=0.0 if pictures.busy(session.gid) else ANSWER_WITHIN)
    elif is_component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)
    try:
        result = await session.run(action, interaction.user.id, version, click=answer, first=before)
    finally:
        if answer is not None:
            await answer.release()
    lang = lang_of(interaction)
    if isinstance(result, tuple):
        text = error_text(lang, result[0], result[1], session.state)
        if is_component:
            await say(interaction, text)
        else:
            await interaction.edit_original_response(content=text)
        return None
    if edit_source:
        # `then`: what the private message offers next (a menu refreshed on the new state), in the same edit.
        await interaction.edit_original_response(content=_summary(result, session.state, lang),
                                                 view=then() if then is not None else None)
    elif not is_component:
        await interaction.edit_original_response(content=_summary(result, session.state, lang))
    elif answer is not None:
        await answer.settle()
    return result


def _summary(events: list[dict], state: State | None, lang: str) -> str:
    """What a private answer tells of an action's events (a click on a public message only updates it)."""
    summary = "\n".join(account(events, state, lang)[:12]) if state else ""
    return (summary or t(lang, "done"))[:2000]


async def refused(interaction: discord.Interaction, refusal: Refusal) -> None:
    await refuse(interaction, refusal.code, refusal.params)


MAX_VALUES = 25  # Discord's most options in one select


def values(interaction: discord.Interaction) -> list[str]:
    """A select's chosen values; a forged list is cut to what a select can send."""
    data: Any = interaction.data or {}
    chosen = data.get("values")
    return [str(v)[:100] for v in chosen[:MAX_VALUES]] if isinstance(chosen, list) else []


def modal_fields(interaction: discord.Interaction) -> dict[str, str]:
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


def parse_amount(raw: str) -> int:
    """A whole, non-negative amount as people type it ("$1,500", "1500"); ValueError otherwise."""
    cleaned = raw.strip().replace("$", "").replace(",", "").replace("_", "").replace(" ", "")
    if cleaned == "":
        return 0
    if not (cleaned.isascii() and cleaned.isdigit()) or len(cleaned) > len(str(MAX_AMOUNT)):
        raise ValueError(raw)
    value = int(cleaned)
    if value > MAX_AMOUNT:
        raise ValueError(raw)
    return value

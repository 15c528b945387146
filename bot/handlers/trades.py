"""The trade builder: titles on both sides with selects, cash and jail cards with a modal, then the offer.

A draft lives in memory per game and person until it is proposed (it is private and cheap to redo); the
offer itself is engine state, so Accept / Reject / Counter keep working after a restart.
"""

from __future__ import annotations

import discord

from bot.face import ids, trade_builder
from bot.face.i18n import lang_of, t
from bot.face.replies import refuse, say
from bot.handlers.acting import modal_fields, parse_amount, perform, seated, values
from bot.handlers.registry import Click, number, verb
from bot.table.draft import Draft
from bot.table.session import Session
from engine import Action, titles_of, trade_refusal, window_refusal

MAX_SEAT = 16  # far above any table, so that a forged seat number is only ever a small one


def partners(session: Session, seat: int) -> list[int]:
    st = session.state
    assert st is not None
    return [s for s in range(len(st.seats)) if s != seat and not st.seats[s].out]


async def open_builder(interaction: discord.Interaction, session: Session, target: int,
                       draft: Draft | None = None) -> None:
    seat = await seated(interaction, session)
    if seat is None:
        return
    lang = lang_of(interaction)
    if target == seat or target not in partners(session, seat):
        await refuse(interaction, "cannot_trade_with")
        return
    draft = draft or Draft(target=target)
    session.drafts[interaction.user.id] = draft
    st = session.state
    assert st is not None
    content, view = trade_builder.builder(session.gid, st, seat, draft, lang)
    from_builder = interaction.type in (discord.InteractionType.component, discord.InteractionType.modal_submit)
    if from_builder and interaction.message is not None and interaction.message.flags.ephemeral:
        await interaction.response.edit_message(content=content, view=view)
    else:
        await say(interaction, content, view=view)


async def start(interaction: discord.Interaction, session: Session, target_user: int | None = None) -> None:
    """The Trade button or `/trade <user>`: pick a partner, or go straight to the builder."""
    seat = await seated(interaction, session)
    if seat is None:
        return
    lang = lang_of(interaction)
    st = session.state
    assert st is not None
    closed = window_refusal(st, seat)
    if closed is not None:
        # Said at once, before anyone puts an offer together that could not be sent.
        await refuse(interaction, closed[0], closed[1], st)
        return
    if target_user is None:
        if not partners(session, seat):
            await refuse(interaction, "cannot_trade_with")
            return
        view = trade_builder.partner_view(session.gid, st, partners(session, seat), lang)
        await say(interaction, t(lang, "trade.pick_partner"), view=view)
        return
    target = session.seat_of(target_user)
    if target is None:
        await refuse(interaction, "trade_not_seated")
        return
    await open_builder(interaction, session, target)


def current_draft(interaction: discord.Interaction, session: Session, target: int) -> Draft:
    draft = session.drafts.get(interaction.user.id)
    if draft is None or draft.target != target:
        draft = Draft(target=target)
        session.drafts[interaction.user.id] = draft
    return draft


async def with_partner(interaction: discord.Interaction, session: Session, target: int) -> int | None:
    """The clicking person's seat if `target` (read from a custom_id) is someone they may trade with;
    otherwise say why and None."""
    seat = await seated(interaction, session)
    if seat is None:
        return None
    if target not in partners(session, seat):
        await refuse(interaction, "cannot_trade_with")
        return None
    return seat


async def choose_titles(interaction: discord.Interaction, session: Session, target: int, side: str,
                        values: list[str]) -> None:
    seat = await with_partner(interaction, session, target)
    if seat is None or session.state is None:
        return
    draft = current_draft(interaction, session, target)
    # Only the titles the select offered: that side's own.
    owned = {str(sq): sq for sq in titles_of(session.state, seat if side == "give" else target)}
    if not set(values) <= set(owned):
        await refuse(interaction, "invalid")
        return
    chosen = {owned[v] for v in values}
    if side == "give":
        draft.give = chosen
    else:
        draft.take = chosen
    await open_builder(interaction, session, target, draft)


async def ask_money(interaction: discord.Interaction, session: Session, target: int) -> None:
    if await with_partner(interaction, session, target) is None:
        return
    draft = current_draft(interaction, session, target)
    modal = trade_builder.money_modal(session.gid, target, draft, lang_of(interaction))
    await interaction.response.send_modal(modal)


async def set_money(interaction: discord.Interaction, session: Session, target: int,
                    fields: dict[str, str]) -> None:
    seat = await with_partner(interaction, session, target)
    if seat is None:
        return
    draft = current_draft(interaction, session, target)
    try:
        values = {key: parse_amount(fields.get(key, "0")) for key in ("give_cash", "take_cash", "give_cards",
                                                                      "take_cards")}
    except ValueError:
        await refuse(interaction, "bad_number")
        return
    draft.give_cash, draft.take_cash = values["give_cash"], values["take_cash"]
    draft.give_cards, draft.take_cards = values["give_cards"], values["take_cards"]
    st = session.state
    assert st is not None
    if draft.give_cards > len(st.seats[seat].jail_cards) or draft.take_cards > len(st.seats[target].jail_cards):
        draft.give_cards = draft.take_cards = 0
        await refuse(interaction, "no_jail_card")
        return
    await open_builder(interaction, session, target, draft)


async def send(interaction: discord.Interaction, session: Session, target: int) -> None:
    """Propose the draft; a counter-offer first turns down the offer it answers."""
    seat = await with_partner(interaction, session, target)
    if seat is None:
        return
    draft = current_draft(interaction, session, target)
    st = session.state
    assert st is not None
    trade = draft.trade(st, seat)
    countering = st.trade is not None and st.trade.target == seat and st.trade.proposer == target
    if countering:
        why = trade_refusal(st, trade)
        if why is not None:
            await refuse(interaction, why[0], why[1], st)
            return
    # A counter-offer turns down the offer it answers, in the same turn of the table's lock: the old offer's
    # message then says it was countered, and nobody can act between the two.
    events = await perform(interaction, session, lambda s: Action(kind="propose_trade", seat=s, trade=trade),
                           edit_source=True,
                           first=(lambda s: Action(kind="reject_trade", seat=s)) if countering else None)
    if events is not None:
        session.drafts.pop(interaction.user.id, None)


async def counter(interaction: discord.Interaction, session: Session, version: int) -> None:
    """The receiver answers with an offer of their own, starting from the one on the table, swapped."""
    seat = await seated(interaction, session)
    if seat is None:
        return
    st = session.state
    assert st is not None
    if st.version != version:
        await refuse(interaction, "outdated")
        return
    if st.trade is None or st.trade.target != seat:
        await refuse(interaction, "not_your_trade")
        return
    tr = st.trade
    draft = Draft(target=tr.proposer, give=set(tr.take.titles), take=set(tr.give.titles), give_cash=tr.take.cash,
                  take_cash=tr.give.cash, give_cards=len(tr.take.cards), take_cards=len(tr.give.cards))
    await open_builder(interaction, session, tr.proposer, draft)


# -- the builder's components ------------------------------------------------------------------------------
def _table(click: Click) -> Session:
    assert click.session is not None  # declared `at_table`: the router found the game
    return click.session


@verb("trade")
async def trade_button(click: Click) -> None:
    await start(click.interaction, _table(click))


@verb("trade_with")
async def trade_with(click: Click) -> None:
    chosen = values(click.interaction)
    target = ids.number(chosen[0], MAX_SEAT) if chosen else None
    await open_builder(click.interaction, _table(click), -1 if target is None else target)


def _titles(side: str) -> None:
    @verb(f"trade_{side}", arg=number(MAX_SEAT))
    async def choose(click: Click) -> None:
        await choose_titles(click.interaction, _table(click), click.arg, side, values(click.interaction))


_titles("give")
_titles("take")


@verb("trade_money", arg=number(MAX_SEAT))
async def trade_money(click: Click) -> None:
    await ask_money(click.interaction, _table(click), click.arg)


@verb("trade_money_set", arg=number(MAX_SEAT), modal=True)
async def trade_money_set(click: Click) -> None:
    await set_money(click.interaction, _table(click), click.arg, modal_fields(click.interaction))


@verb("trade_send", arg=number(MAX_SEAT))
async def trade_send(click: Click) -> None:
    await send(click.interaction, _table(click), click.arg)


@verb("counter")
async def counter_button(click: Click) -> None:
    await counter(click.interaction, _table(click), click.version)

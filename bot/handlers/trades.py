"""The trade builder: titles on both sides with selects, cash and jail cards with a modal, then the offer.

A draft lives in memory per game and person until it is proposed (it is private and cheap to redo); the
offer itself is engine state, so Accept / Reject / Counter keep working after a restart.
"""

from __future__ import annotations

import discord

from bot.face import buttons, components
from bot.face.i18n import lang_of, t
from bot.face.replies import refuse, say
from bot.handlers.acting import perform, seated
from bot.table.draft import Draft
from bot.table.session import Session
from engine import Action, IllegalAction, edition_of
from engine.board import titles_of
from engine.legal import trade_refusal, window_refusal
from engine.narrate import explain, square_name

BUILDER = 0  # builder components are personal drafts: they carry version 0 and never go stale
MAX_NUMBER = 10**9


def partners(session: Session, seat: int) -> list[int]:
    st = session.state
    assert st is not None
    return [s for s in range(len(st.seats)) if s != seat and not st.seats[s].out]


def partner_view(session: Session, seat: int, lang: str) -> discord.ui.View:
    st = session.state
    assert st is not None
    options = [components.option(buttons.seat_label(st, s), s) for s in partners(session, seat)]
    return components.view(components.select(session.gid, BUILDER, "trade_with", t(lang, "trade.pick_partner"),
                                             options))


def builder(session: Session, seat: int, draft: Draft, lang: str) -> tuple[str, discord.ui.View]:
    st = session.state
    assert st is not None
    g = session.gid
    lines = [
        t(lang, "trade.builder", target=buttons.seat_label(st, draft.target)),
        t(lang, "trade.you_give", offer=buttons.offer_text(st, sorted(draft.give), draft.give_cash, draft.give_cards,
                                                         lang)),
        t(lang, "trade.you_get", offer=buttons.offer_text(st, sorted(draft.take), draft.take_cash, draft.take_cards,
                                                        lang)),
        t(lang, "trade.builder_hint"),
    ]
    # Gifts and loans between players are against the rules: say so while the offer is put together.
    why = trade_refusal(st, edition_of(st), draft.trade(st, seat))
    if why is not None and why[0] in ("trade_is_a_gift", "trade_is_a_loan") and not draft.empty():
        lines.append("⚠️ " + explain(IllegalAction(why[0], **why[1]), st, lang))
    items: list[discord.ui.Item] = []
    for verb, owner, chosen, key in (("trade_give", seat, draft.give, "trade.pick_give"),
                                     ("trade_take", draft.target, draft.take, "trade.pick_take")):
        owned = titles_of(st, owner)
        if owned:
            options = [components.option(square_name(st.edition, sq, lang) + (" (H)" if st.mortgaged[sq] else ""), sq,
                                 default=sq in chosen) for sq in owned[:25]]
            items.append(components.select(g, BUILDER, verb, t(lang, key), options, arg=draft.target, min_values=0,
                                   max_values=len(options), row=len(items)))
    row = len(items)
    items += [
        components.button(g, BUILDER, "trade_money", t(lang, "button.trade_money"), arg=draft.target, emoji="💰",
                          row=row),
        components.button(g, BUILDER, "trade_send", t(lang, "button.trade_send"), arg=draft.target,
                  style=discord.ButtonStyle.success, emoji="📨", row=row),
    ]
    return "\n".join(lines), components.view(*items)


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
    content, view = builder(session, seat, draft, lang)
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
    closed = window_refusal(st, edition_of(st), seat)
    if closed is not None:
        # Said at once, before anyone puts an offer together that could not be sent.
        await refuse(interaction, closed[0], closed[1], st)
        return
    if target_user is None:
        if not partners(session, seat):
            await refuse(interaction, "cannot_trade_with")
            return
        await say(interaction, t(lang, "trade.pick_partner"), view=partner_view(session, seat, lang))
        return
    target = session.seat_of(target_user)
    if target is None:
        await refuse(interaction, "cannot_trade_with")
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


def money_modal(session: Session, target: int, draft: Draft, lang: str) -> discord.ui.Modal:
    modal = discord.ui.Modal(title=t(lang, "trade.modal_title")[:45], custom_id=_modal_id(session.gid, target),
                             timeout=None)
    for key, value in (("give_cash", draft.give_cash), ("take_cash", draft.take_cash),
                       ("give_cards", draft.give_cards), ("take_cards", draft.take_cards)):
        modal.add_item(discord.ui.TextInput(label=t(lang, f"trade.field.{key}")[:45], custom_id=key,
                                            default=str(value), required=False, max_length=12))
    modal.stop()
    return modal


def _modal_id(game: int, target: int) -> str:
    from bot.face.ids import make

    return make(game, BUILDER, "trade_money_set", target)


async def ask_money(interaction: discord.Interaction, session: Session, target: int) -> None:
    if await with_partner(interaction, session, target) is None:
        return
    draft = current_draft(interaction, session, target)
    await interaction.response.send_modal(money_modal(session, target, draft, lang_of(interaction)))


def parse_amount(raw: str) -> int:
    """A whole, non-negative amount as people type it ("$1,500", "1500"); ValueError otherwise."""
    cleaned = raw.strip().replace("$", "").replace(",", "").replace("_", "").replace(" ", "")
    if cleaned == "":
        return 0
    if not (cleaned.isascii() and cleaned.isdigit()) or len(cleaned) > len(str(MAX_NUMBER)):
        raise ValueError(raw)
    value = int(cleaned)
    if value > MAX_NUMBER:
        raise ValueError(raw)
    return value


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
        why = trade_refusal(st, edition_of(st), trade)
        if why is not None:
            await refuse(interaction, why[0], why[1], st)
            return
        await interaction.response.defer()
        result = await session.run(Action(kind="reject_trade", seat=seat), interaction.user.id)
        if isinstance(result, tuple):
            await refuse(interaction, result[0], result[1], session.state)
            return
    events = await perform(interaction, session, lambda s: Action(kind="propose_trade", seat=s, trade=trade),
                           edit_source=True)
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

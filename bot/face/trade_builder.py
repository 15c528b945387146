"""The trade builder, a private message: titles on both sides with selects, cash and jail cards with a modal,
then the offer. Its components are personal drafts: they carry version 0 and never go stale."""

from __future__ import annotations

import discord

from bot.face import components, ids
from bot.face.i18n import t
from bot.face.texts import offer_text, seat_label
from bot.table.draft import Draft
from engine import IllegalAction, State, titles_of, trade_refusal
from words import explain, square_name, text

BUILDER = 0  # the version of every builder component


def partner_view(game: int, st: State, partners: list[int], lang: str) -> discord.ui.View:
    options = [components.option(seat_label(st, s), s) for s in partners]
    return components.view(components.select(game, BUILDER, "trade_with", t(lang, "trade.pick_partner"), options))


def builder(game: int, st: State, seat: int, draft: Draft, lang: str) -> tuple[str, discord.ui.View]:
    """The builder's text and components for `seat`'s draft offer."""
    lines = [
        t(lang, "trade.builder", target=seat_label(st, draft.target)),
        t(lang, "trade.you_give", offer=offer_text(st, sorted(draft.give), draft.give_cash, draft.give_cards, lang)),
        t(lang, "trade.you_get", offer=offer_text(st, sorted(draft.take), draft.take_cash, draft.take_cards, lang)),
        t(lang, "trade.builder_hint"),
    ]
    # Gifts and loans between players are against the rules: say so while the offer is put together.
    why = trade_refusal(st, draft.trade(st, seat))
    if why is not None and why[0] in ("trade_is_a_gift", "trade_is_a_loan") and not draft.empty():
        lines.append("⚠️ " + explain(IllegalAction(why[0], **why[1]), st, lang))
    items: list[discord.ui.Item] = []
    for side, owner, chosen, key in (("trade_give", seat, draft.give, "trade.pick_give"),
                                     ("trade_take", draft.target, draft.take, "trade.pick_take")):
        owned = titles_of(st, owner)
        if owned:
            options = [components.option(_title(st, sq, lang), sq, default=sq in chosen) for sq in owned[:25]]
            items.append(components.select(game, BUILDER, side, t(lang, key), options, arg=draft.target,
                                           min_values=0, max_values=len(options), row=len(items)))
    row = len(items)
    items += [
        components.button(game, BUILDER, "trade_money", t(lang, "button.trade_money"), arg=draft.target, emoji="💰",
                          row=row),
        components.button(game, BUILDER, "trade_send", t(lang, "button.trade_send"), arg=draft.target,
                          style=discord.ButtonStyle.success, emoji="📨", row=row),
    ]
    return "\n".join(lines), components.view(*items)


def _title(st: State, square: int, lang: str) -> str:
    """A title in a select, marked when it is mortgaged (as offers name it)."""
    name = square_name(st.edition, square, lang)
    return text(lang, "event.mortgaged_title", square=name) if st.mortgaged[square] else name


def money_modal(game: int, target: int, draft: Draft, lang: str) -> discord.ui.Modal:
    """Cash and jail cards of both sides, typed."""
    modal = discord.ui.Modal(title=t(lang, "trade.modal_title")[:45],
                             custom_id=ids.make(game, BUILDER, "trade_money_set", target), timeout=None)
    for key, value in (("give_cash", draft.give_cash), ("take_cash", draft.take_cash),
                       ("give_cards", draft.give_cards), ("take_cards", draft.take_cards)):
        modal.add_item(discord.ui.TextInput(label=t(lang, f"trade.field.{key}")[:45], custom_id=key,
                                            default=str(value), required=False, max_length=12))
    modal.stop()
    return modal

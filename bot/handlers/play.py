"""The table's own buttons: the turn's decisions, bankruptcy, bids, inherited mortgages and the status."""

from __future__ import annotations

import discord

from bot.face import answers, ids, texts
from bot.face.i18n import lang_of, t
from bot.face.replies import refuse, say
from bot.handlers.acting import MAX_AMOUNT, confirm_bankrupt, modal_fields, parse_amount, perform, seated
from bot.handlers.registry import Click, number, verb
from bot.table.session import Session
from engine import Action

MAX_SQUARE = 999  # far above any board's squares

# A click on one of these is the engine action of the same kind, for the clicking person's seat.
DECISIONS = ("roll", "buy", "decline", "end_turn", "pay_fine", "use_card", "pass_bid", "accept_trade",
             "reject_trade", "cancel_trade", "keep_mortgaged")
# Asked once more before: the private confirmation's button carries these verbs, and it then shows the outcome.
# (Withdrawing is the leave question's, `bot/handlers/seating.py`.)
CONFIRMED = {"bankrupt_yes": "bankrupt"}


def _table(click: Click) -> Session:
    assert click.session is not None  # declared `at_table`: the router found the game
    return click.session


def _decision(kind: str) -> None:
    @verb(kind)
    async def decide(click: Click) -> None:
        await perform(click.interaction, _table(click), lambda s: Action(kind=kind, seat=s), version=click.version)


def _confirmed(name: str, kind: str) -> None:
    @verb(name)
    async def confirm(click: Click) -> None:
        await perform(click.interaction, _table(click), lambda s: Action(kind=kind, seat=s), version=click.version,
                      edit_source=True)


for _kind in DECISIONS:
    _decision(_kind)
for _name, _kind in CONFIRMED.items():
    _confirmed(_name, _kind)


@verb("bankrupt")
async def bankrupt(click: Click) -> None:
    await confirm_bankrupt(click.interaction, _table(click), click.version)


async def _bid(click: Click, raw: str) -> None:
    try:
        amount = parse_amount(raw)
    except ValueError:
        amount = -1
    if amount <= 0 or amount > MAX_AMOUNT:
        await refuse(click.interaction, "bad_number")
        return
    await perform(click.interaction, _table(click), lambda s: Action(kind="bid", seat=s, amount=amount),
                  version=click.version)


@verb("bid", arg=number(MAX_AMOUNT))
async def bid(click: Click) -> None:
    await _bid(click, str(click.arg))


@verb("bid_set", modal=True)
async def bid_typed(click: Click) -> None:
    await _bid(click, modal_fields(click.interaction).get("amount", ""))


@verb("bid_custom")
async def ask_bid(click: Click) -> None:
    """A modal to type a bid of one's own."""
    interaction, session = click.interaction, _table(click)
    if await seated(interaction, session) is None:
        return
    st = session.state
    if st is None or st.version != click.version or st.auction is None:
        await refuse(interaction, "outdated")
        return
    lang = lang_of(interaction)
    lowest = max(st.auction.bid + 1, st.auction.minimum)
    modal = discord.ui.Modal(title=t(lang, "auction.modal_title")[:45],
                             custom_id=ids.make(session.gid, click.version, "bid_set"), timeout=None)
    modal.add_item(discord.ui.TextInput(label=t(lang, "auction.modal_label", minimum=texts.cash(st, lowest))[:45],
                                        custom_id="amount", placeholder=str(lowest), max_length=12))
    modal.stop()
    await interaction.response.send_modal(modal)


@verb("lift", arg=number(MAX_SQUARE))
async def lift(click: Click) -> None:
    """Lift an inherited mortgage for the mortgage alone."""
    square: int = click.arg
    await perform(click.interaction, _table(click), lambda s: Action(kind="unmortgage", seat=s, square=square),
                  version=click.version)


@verb("status")
async def status(click: Click) -> None:
    interaction, session = click.interaction, _table(click)
    if session.state is None:
        await refuse(interaction, "no_game")
        return
    seat = session.seat_of(interaction.user.id)
    if seat is None:
        await say(interaction, answers.overview(session.state, lang_of(interaction)))
        return
    await say(interaction, answers.seat_status(session.state, seat, lang_of(interaction)))


@verb("dismiss", at_table=False)
async def dismiss(click: Click) -> None:
    """The No of a private question (end the game? leave it? declare bankruptcy?): the question goes away."""
    await click.interaction.response.edit_message(content=t(lang_of(click.interaction), "dismissed"), view=None)

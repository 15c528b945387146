"""Top-level commands to play: the same actions as the table's buttons, for people who like typing."""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any

import discord
from discord import app_commands

from bot.client import bot_of
from bot.commands.options import within
from bot.face import answers
from bot.face.i18n import lang_of, ls
from bot.face.replies import refuse
from bot.face.texts import cash
from bot.handlers import trades
from bot.handlers.acting import MAX_AMOUNT, channel_session, confirm_bankrupt, perform
from engine import Action, legal_actions
from words import square_name

Handler = Callable[..., Coroutine[Any, Any, None]]
PLAY_COMMANDS: list[app_commands.Command] = []


def title_choices(edition: str, squares: list[int], current: str, lang: str) -> list[app_commands.Choice[str]]:
    wanted = answers._fold(current)
    found = []
    for sq in squares:
        name = square_name(edition, sq, lang)
        if not wanted or wanted in answers._fold(name):
            found.append(app_commands.Choice(name=name[:100], value=str(sq)))
    return found[:25]


def _simple(kind: str, name: str, description: str) -> None:
    async def callback(interaction: discord.Interaction) -> None:
        session = await channel_session(interaction)
        if session is not None:
            await perform(interaction, session, lambda s: Action(kind=kind, seat=s))

    callback = app_commands.guild_only()(callback)
    PLAY_COMMANDS.append(app_commands.Command(name=ls(name, f"{name}.name"), description=ls(description,
                                              f"{name}.desc"), callback=callback))


_simple("roll", "roll", "Roll the dice")
_simple("buy", "buy", "Buy the title you are on")
_simple("decline", "decline", "Do not buy it (the bank auctions it)")
_simple("end_turn", "endturn", "End your turn")


@app_commands.command(name=ls("bankrupt", "bankrupt.name"),
                      description=ls("Declare bankruptcy (only while in debt)", "bankrupt.desc"))
@app_commands.guild_only()
async def bankrupt(interaction: discord.Interaction) -> None:
    session = await channel_session(interaction)
    if session is not None:
        await confirm_bankrupt(interaction, session)


Completer = Callable[[discord.Interaction, str], Coroutine[Any, Any, list[app_commands.Choice[str]]]]


def _seat_titles(kind: str) -> Completer:
    """Autocomplete: the titles on which the typing person may `kind` now."""
    async def complete(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        session = await bot_of(interaction).sessions.for_channel(interaction.channel_id or 0)
        if session is None or session.state is None:
            return []
        seat = session.seat_of(interaction.user.id)
        if seat is None:
            return []
        squares = sorted({a.square for a in legal_actions(session.state, seat) if a.kind == kind})
        return title_choices(session.state.edition, squares, current, lang_of(interaction))

    return complete


def _on_title(kind: str, name: str, description: str, *, with_count: bool) -> None:
    async def run(interaction: discord.Interaction, property: str, count: int = 1) -> None:
        session = await channel_session(interaction)
        if session is None or session.state is None:
            return
        square = answers.find_square(session.state.edition, property)
        if square is None:
            await refuse(interaction, "unknown_property")
            return
        if not await within(interaction, "count", count, 1, 5):
            return
        await perform(interaction, session, lambda s: Action(kind=kind, seat=s, square=square, count=count))

    if with_count:
        async def callback(interaction: discord.Interaction, property: str, count: int = 1) -> None:
            await run(interaction, property, count)
    else:
        async def callback(interaction: discord.Interaction, property: str) -> None:  # type: ignore[misc]
            await run(interaction, property)

    renames: dict[str, Any] = {"property": ls("property", "opt.title.name")}
    describes: dict[str, Any] = {"property": ls("The title", "opt.title.desc")}
    if with_count:
        renames["count"] = ls("count", "opt.count.name")
        describes["count"] = ls("How many buildings", "opt.count.desc")
    callback = app_commands.rename(**renames)(callback)
    callback = app_commands.describe(**describes)(callback)
    callback = app_commands.autocomplete(property=_seat_titles(kind))(callback)
    callback = app_commands.guild_only()(callback)
    PLAY_COMMANDS.append(app_commands.Command(name=ls(name, f"{name}.name"), description=ls(description,
                                              f"{name}.desc"), callback=callback))


_on_title("build", "build", "Build restaurants/houses or a hotel", with_count=True)
_on_title("sell", "sell", "Sell buildings back to the bank", with_count=True)
_on_title("mortgage", "mortgage", "Mortgage a title", with_count=False)
_on_title("unmortgage", "unmortgage", "Lift a mortgage", with_count=False)


@app_commands.command(name=ls("bid", "bid.name"), description=ls("Bid in the auction", "bid.desc"))
@app_commands.rename(amount=ls("amount", "opt.amount.name"))
@app_commands.describe(amount=ls("Your bid", "opt.amount.desc"))
@app_commands.guild_only()
async def bid(interaction: discord.Interaction, amount: int) -> None:
    session = await channel_session(interaction)
    if session is None:
        return
    edition = session.state.edition if session.state else "turismundo"
    if not await within(interaction, "amount", amount, 1, MAX_AMOUNT, lambda n: cash(edition, n)):
        return
    await perform(interaction, session, lambda s: Action(kind="bid", seat=s, amount=amount))


@app_commands.command(name=ls("trade", "trade.name"), description=ls("Offer a trade to another player", "trade.desc"))
@app_commands.rename(user=ls("user", "opt.user.name"))
@app_commands.describe(user=ls("Who you want to trade with", "opt.trade_user.desc"))
@app_commands.guild_only()
async def trade(interaction: discord.Interaction, user: discord.User) -> None:
    session = await channel_session(interaction)
    if session is not None:
        await trades.start(interaction, session, user.id)


@app_commands.command(name=ls("bail", "bail.name"), description=ls("Leave jail: use a card or pay the fine",
                                                                 "bail.desc"))
@app_commands.guild_only()
async def bail(interaction: discord.Interaction) -> None:
    session = await channel_session(interaction)
    if session is None or session.state is None:
        return
    seat = session.seat_of(interaction.user.id)
    has_card = seat is not None and bool(session.state.seats[seat].jail_cards)
    kind = "use_card" if has_card else "pay_fine"
    await perform(interaction, session, lambda s: Action(kind=kind, seat=s))


PLAY_COMMANDS += [bankrupt, bid, trade, bail]

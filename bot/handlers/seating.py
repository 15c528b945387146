"""Seats changing hands during a game: `/turista join` into a computer's seat (the host's yes on the table, or at
once under the house rule `join_free`) or back into one's own seat, and `/turista leave`, which hands the seat to
a computer (or withdraws, as before). The rules are the session's (`Session.sit_down`, `Session.hand_over`).

A request for a seat is a public message whose buttons carry the seat and the person (`sit_yes:<seat>-<user>`),
so the host may answer it after a restart as well.
"""

from __future__ import annotations

import discord

from bot.client import bot_of
from bot.face import components, embeds
from bot.face.i18n import lang_of, t
from bot.face.replies import error_text, refuse, say
from bot.face.requests import leave_view, seat_view
from bot.handlers.acting import perform, player_name
from bot.handlers.registry import Click, Invalid, Shape, verb
from bot.store import GameRow
from bot.table.lobby import Actor, may_manage
from bot.table.session import Session
from engine import Action

MAX_USER_ID = 2**63 - 1


def _seat_and_person(raw: str) -> tuple[int, int]:
    seat, _, user = raw.partition("-")
    if not (seat.isascii() and seat.isdigit() and user.isascii() and user.isdigit()) or len(seat) > 1 \
            or len(user) > 19 or int(user) > MAX_USER_ID:
        raise Invalid(raw)
    return int(seat), int(user)


SEAT_AND_PERSON = Shape(_seat_and_person)


def _actor(interaction: discord.Interaction) -> Actor:
    perms = interaction.permissions
    return Actor(interaction.user.id, bool(perms.manage_channels or perms.administrator))


async def _show(interaction: discord.Interaction, line: str, view: discord.ui.View | None = None) -> None:
    content, embed = embeds.notice(line)
    await interaction.edit_original_response(content=content, embed=embed, view=view,
                                             allowed_mentions=components.NO_MENTIONS)


async def _sit_down_now(interaction: discord.Interaction, session: Session, seat: int) -> None:
    """The person who asked sits down in `seat` at once (their own seat back, or a free computer seat where no
    yes is needed), and hears it privately."""
    await interaction.response.defer(ephemeral=True, thinking=True)
    result = await session.sit_down(seat, interaction.user.id, player_name(interaction.user))
    lang = lang_of(interaction)
    await say(interaction, error_text(lang, *result, session.state) if isinstance(result, tuple)
              else t(lang, "lobby.joined"))


async def join_game(interaction: discord.Interaction, row: GameRow) -> None:
    """`/turista join` while the game is played: back into one's own seat, else into a computer's."""
    bot = bot_of(interaction)
    session = await bot.sessions.for_game(row.id)
    st = session.state if session is not None else None
    if session is None or st is None:
        await refuse(interaction, "no_game")
        return
    user = interaction.user.id
    own = await session.seat_handed_over(user)
    if own is not None:
        # Their own seat, left to a computer (or the host put them out of it): theirs again, no one asked.
        await _sit_down_now(interaction, session, own)
        return
    if session.seat_of(user) is not None:
        await refuse(interaction, "already_seated")
        return
    seat = session.free_computer_seat()
    if seat is None:
        await refuse(interaction, "no_free_seat")
        return
    if session.settings.join_free or may_manage(_actor(interaction), session.row):
        await _sit_down_now(interaction, session, seat)
        return
    # The host says yes or no on the table.
    await interaction.response.defer(thinking=True)
    lang = bot.table_lang(interaction)
    line = t(lang, "table.seat_asked", who=player_name(interaction.user), seat=st.seats[seat].name)
    await _show(interaction, line, seat_view(row.id, st.version, seat, user, lang))


async def confirm_leave(interaction: discord.Interaction, row: GameRow) -> None:
    """`/turista leave` during a game: hand the seat to a computer (the default), or withdraw for good."""
    lang = lang_of(interaction)
    state = row.state
    if row.seat_of(interaction.user.id) is None or state is None:
        await refuse(interaction, "not_a_player")
        return
    await say(interaction, t(lang, "table.confirm_leave"), view=leave_view(row.id, state.version, lang))


def _table(click: Click) -> Session:
    assert click.session is not None  # declared `at_table`: the router found the game
    return click.session


@verb("hand_over")
async def hand_over(click: Click) -> None:
    """The leave question's default: a computer plays the seat from now on."""
    interaction, session = click.interaction, _table(click)
    if session.seat_of(interaction.user.id) is None:
        await refuse(interaction, "not_a_player")
        return
    await interaction.response.defer()
    done = await session.hand_over(interaction.user.id)
    lang = lang_of(interaction)
    await interaction.edit_original_response(content=t(lang, "lobby.handed_over") if done
                                             else error_text(lang, "not_seated"), view=None)


@verb("withdraw")
async def withdraw(click: Click) -> None:
    """The leave question's other answer: out of the game, everything to the bank; a host hands the role on."""
    interaction, session = click.interaction, _table(click)
    seat = session.seat_of(interaction.user.id)
    events = await perform(interaction, session, lambda s: Action(kind="withdraw", seat=s), version=click.version,
                           edit_source=True)
    if events is not None and seat is not None and interaction.user.id == session.row.host_id:
        async with session.lock:
            await session.hand_on_host(seat)


@verb("sit_yes", arg=SEAT_AND_PERSON)
async def sit_yes(click: Click) -> None:
    """The host lets the person who asked take the computer's seat."""
    interaction, session = click.interaction, _table(click)
    seat, user = click.arg
    if not may_manage(_actor(interaction), session.row):
        await refuse(interaction, "not_host")
        return
    await interaction.response.defer()
    lang = bot_of(interaction).table_lang(interaction)
    person = await interaction.client.fetch_user(user)
    result = await session.sit_down(seat, user, player_name(person))
    if isinstance(result, tuple):
        code = "seat_lapsed" if result[0] in ("seat_taken", "seat_not_free", "already_seated") else ""
        await _show(interaction, t(lang, f"table.{code}") if code else error_text(lang, *result, session.state))
        return
    await _show(interaction, t(lang, "table.seat_given", who=session.table().state.seats[seat].name))


@verb("sit_no", arg=SEAT_AND_PERSON)
async def sit_no(click: Click) -> None:
    """The host keeps the computer in its seat; the person who asked may also call the request off."""
    interaction, session = click.interaction, _table(click)
    seat, user = click.arg
    if interaction.user.id != user and not may_manage(_actor(interaction), session.row):
        await refuse(interaction, "not_host")
        return
    st = session.state
    if st is None or not 0 <= seat < len(st.seats):
        await refuse(interaction, "invalid")
        return
    await interaction.response.defer()
    lang = bot_of(interaction).table_lang(interaction)
    await _show(interaction, t(lang, "table.seat_refused", seat=st.seats[seat].name))

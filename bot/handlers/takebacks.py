"""Taking moves back: `/turista undo` asks on the table, and the people asked answer with its Yes and No.

The request is stored when it is asked (`Store.ask_take_back`) and each Yes with it, so a restart between two
answers loses nothing; its buttons carry the game and the version it was asked at, and a move made since
outdates it. The engine decides which moves may go (`engine.take_back`), the session makes the take-back.
"""

from __future__ import annotations

import discord

from bot.client import bot_of
from bot.face import components, embeds
from bot.face.i18n import lang_of, t
from bot.face.replies import error_text, refuse
from bot.face.requests import moves_text, take_back_asked, take_back_view
from bot.handlers.acting import channel_session, seated
from bot.handlers.registry import Click, verb
from bot.store import StoreError, TakeBackRow
from bot.table.session import Session


async def _show(interaction: discord.Interaction, line: str, view: discord.ui.View | None = None) -> None:
    """The request's message (the command's answer, or the message clicked) now says `line`, in an embed as every
    public message of the bot."""
    content, embed = embeds.notice(line)
    await interaction.edit_original_response(content=content, embed=embed, view=view,
                                             allowed_mentions=components.NO_MENTIONS)


def _names(session: Session, users: list[int]) -> list[str]:
    by_user = {s.user_id: s.name for s in session.seats if s.user_id is not None}
    return [by_user.get(user, "?") for user in users]


async def ask(interaction: discord.Interaction, count: int) -> None:
    """`/turista undo`: the person asks to take back their last `count` moves."""
    session = await channel_session(interaction)
    if session is None:
        return
    seat = await seated(interaction, session)
    st = session.state
    if seat is None or st is None:
        return
    why, events = await session.take_back_refusal(interaction.user.id, count)
    if why is not None:
        await refuse(interaction, why[0], why[1], st)
        return
    bot = bot_of(interaction)
    version = st.version
    if await bot.storage.take_back_request(session.gid, version) is not None:
        await refuse(interaction, "take_back_asked")  # asked already at this point (and refused, or still open)
        return
    asked = session.people_asked(seat)
    if not asked:
        # Nobody to ask (the others are computers, or the host decides alone and asks): done at once.
        await interaction.response.defer(ephemeral=True, thinking=True)
        alone = _host_alone(session, seat, asked)
        result = await session.take_back(version, seat, count, interaction.user.id)
        lang = lang_of(interaction)
        answer = error_text(lang, *result, session.state) if isinstance(result, tuple) \
            else t(lang, "takeback.unrated") if alone else t(lang, "done")
        await interaction.edit_original_response(content=answer)
        return
    # The request is the table's: a public message, its buttons for the people asked.
    await interaction.response.defer(thinking=True)
    lang = bot.table_lang(interaction)
    try:
        request = await bot.storage.ask_take_back(session.gid, version, seat, interaction.user.id, count)
    except StoreError as error:
        await _show(interaction, error_text(lang, error.code))
        return
    if request is None:
        await _show(interaction, error_text(lang, "take_back_asked"))
        return
    shown = session.table().state  # the seats under the names the table shows
    text = take_back_asked(shown, seat, count, moves_text(events, shown, lang), _names(session, asked), lang,
                           unrated=_host_alone(session, seat, asked))
    await _show(interaction, text, take_back_view(session.gid, version, lang))


def _host_alone(session: Session, seat: int, asked: list[int]) -> bool:
    """Whether the people asked leave out someone still playing: the host decides alone (a house rule)."""
    return bool(set(session.others_playing(seat)) - set(asked))


async def _open_request(click: Click, session: Session | None) -> TakeBackRow | None:
    """The request the click answers, if its person is seated, the request still open and the game has not moved
    on since (then the message says so and loses its buttons); None, with the refusal said, otherwise."""
    interaction = click.interaction
    assert session is not None
    if await seated(interaction, session) is None:
        return None
    request = await bot_of(interaction).storage.take_back_request(session.gid, click.version)
    if request is None or request.status != "open":
        await refuse(interaction, "take_back_closed")
        return None
    st = session.state
    if st is None or st.version != click.version:
        content, embed = embeds.notice(t(bot_of(interaction).table_lang(interaction), "takeback.lapsed"))
        await interaction.response.edit_message(content=content, embed=embed, view=None)
        return None
    return request


@verb("undo_yes")
async def agree(click: Click) -> None:
    """A Yes to a take-back: the last one needed makes it."""
    interaction, session = click.interaction, click.session
    request = await _open_request(click, session)
    if request is None or session is None:
        return
    user = interaction.user.id
    asked = session.people_asked(request.seat)
    if user == request.user_id:
        await refuse(interaction, "take_back_own")
        return
    if user not in asked:
        await refuse(interaction, "take_back_not_asked")
        return
    if user in request.agreed:
        await refuse(interaction, "take_back_agreed")
        return
    await interaction.response.defer()
    bot = bot_of(interaction)
    lang = bot.table_lang(interaction)
    agreed = await bot.storage.agree_take_back(session.gid, click.version, user)
    st = session.table().state if session.state is not None else None
    if agreed is None or st is None:  # refused or made meanwhile
        await _show(interaction, t(lang, "takeback.lapsed"))
        return
    moves = moves_text(await session.last_events(request.count), st, lang)
    waiting = [u for u in asked if u not in agreed.agreed]
    if waiting:
        text = take_back_asked(st, request.seat, request.count, moves, _names(session, waiting), lang,
                               unrated=_host_alone(session, request.seat, asked))
        await _show(interaction, text, take_back_view(session.gid, click.version, lang))
        return
    name = st.seats[request.seat].name
    result = await session.take_back(click.version, request.seat, request.count, request.user_id, asked=True,
                                     agreed=agreed.agreed)
    if isinstance(result, tuple):
        await _show(interaction, error_text(lang, *result, session.state))
        return
    await _show(interaction, t(lang, "takeback.done", seat=name, moves=moves))


@verb("undo_no")
async def decline(click: Click) -> None:
    """A No to a take-back, from anyone asked (or from whoever asked, who changes their mind): it is off."""
    interaction, session = click.interaction, click.session
    request = await _open_request(click, session)
    if request is None or session is None:
        return
    user = interaction.user.id
    if user != request.user_id and user not in session.people_asked(request.seat):
        await refuse(interaction, "take_back_not_asked")
        return
    await interaction.response.defer()
    lang = bot_of(interaction).table_lang(interaction)
    if not await session.refuse_take_back(click.version):
        await _show(interaction, t(lang, "takeback.lapsed"))
        return
    st = session.table().state
    who = _names(session, [user])[0]
    await _show(interaction, t(lang, "takeback.refused", who=who, seat=st.seats[request.seat].name))

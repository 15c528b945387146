"""The lobby in Discord: `/turista new`, its buttons (Join, Leave, Add computer, Start, house rules) and the end
of a table. The rules live in the lobby's model (`bot.table.lobby`); here a click or a command is checked at
once (a refusal answers immediately), acknowledged, then carried out under the channel's lock, and the lobby
message shows the outcome.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot import pictures
from bot.client import bot_of
from bot.face import components, embeds, layout, league, lobby_message, threads
from bot.face.buttons import confirmation, lobby_view, settings_view
from bot.face.i18n import lang_of, t
from bot.face.replies import error_text, refuse, say
from bot.face.texts import seat_label, settings_summary
from bot.handlers.acting import ended_game, player_name, refused, values
from bot.handlers.registry import Click, one_of, verb
from bot.store import GameRow, StoreError
from bot.table.lobby import Actor, Refusal, check, may_manage
from bot.table.settings import SETTING_KINDS, NotOffered, TableSettings
from engine import DEFAULT_LEVEL, LEVELS, standings

if TYPE_CHECKING:
    from bot.client import TuristaBot as Bot

log = logging.getLogger("turista.lobby")


def actor(interaction: discord.Interaction) -> Actor:
    perms = interaction.permissions
    return Actor(interaction.user.id, bool(perms.manage_channels or perms.administrator))


async def acknowledge(interaction: discord.Interaction) -> None:
    """Answer Discord before waiting for the channel or the database: a click updates its message later,
    a command gets its private answer later (`say` fills in the "thinking…" message). The quick checks
    come before (their refusals are immediate) and again after, under the channel's lock."""
    if interaction.response.is_done():
        return
    if interaction.type == discord.InteractionType.component:
        await interaction.response.defer()
    else:
        await interaction.response.defer(ephemeral=True, thinking=True)


async def _checked(interaction: discord.Interaction, gid: int | None, manager: bool = False) -> GameRow | None:
    """The channel's lobby as `check` sees it before anything waits (None, with the refusal said, if not)."""
    row = await bot_of(interaction).lobby.of_channel(interaction.channel_id or 0)
    try:
        return check(row, gid, actor(interaction) if manager else None)
    except Refusal as refusal:
        await refused(interaction, refusal)
        return None


def _fields(row: GameRow, lang: str, as_layout: bool, view: discord.ui.View | None,
            closed: str = "") -> dict[str, Any]:
    """The lobby message's post or edit, for discord.py's public calls."""
    shown = lobby_message.fields(row.id, row.host_id, row.seats, TableSettings(row.settings), row.edition, lang,
                                 as_layout=as_layout, closed=closed, view=view)
    if isinstance(shown["view"], layout.Layout):
        shown["view"] = layout.sendable(shown["view"])
    return shown


def _is_layout(fields: dict[str, Any]) -> bool:
    return fields.get("embed") is None  # a layout's post or edit clears the embed, the classic one sends it


def _noted(row: GameRow, fields: dict[str, Any]) -> None:
    if row.table_message_id is not None:
        lobby_message.note(row.table_message_id, _is_layout(fields))


async def lobby_fields(interaction: discord.Interaction, row: GameRow, view: discord.ui.View | None,
                       closed: str = "") -> dict[str, Any]:
    """The edit of the table's lobby message: a layout if it is one or the house rules want one
    (`bot.face.lobby_message`), else the classic embed."""
    bot = bot_of(interaction)
    settings = TableSettings(row.settings)
    if row.table_message_id is None:
        as_layout = lobby_message.wanted(settings)
    else:
        as_layout = await lobby_message.is_layout(bot, row.channel_id, row.table_message_id, settings,
                                                  interaction.message)
    return _fields(row, bot.table_lang(interaction), as_layout, view, closed)


async def post_lobby(bot: Bot, row: GameRow, lang: str) -> None:
    """A new lobby message for the table, in its channel (a layout unless its house rules keep the classic
    table), kept as the table's."""
    shown = _fields(row, lang, lobby_message.wanted(TableSettings(row.settings)), lobby_view(row, lang))
    message = await bot.get_partial_messageable(row.channel_id, guild_id=row.guild_id).send(**shown)
    lobby_message.note(message.id, _is_layout(shown))
    await bot.storage.set_table_message(row.id, message.id)


async def show_lobby(interaction: discord.Interaction, row: GameRow, note: str | None = "") -> None:
    """Update the lobby message: in place for its own buttons, through the channel for commands (then
    `note` answers privately; None when the interaction is answered elsewhere)."""
    bot = bot_of(interaction)
    lang = bot.table_lang(interaction)
    source = interaction.message
    on_lobby = source is not None and source.id == row.table_message_id
    shown = await lobby_fields(interaction, row, lobby_view(row, lang))
    if on_lobby and bot.lobby_edits.busy(row.table_message_id or 0):
        # An older edit of the lobby waits for Discord's rate limit: the answer must not overtake it.
        if not interaction.response.is_done():
            await interaction.response.defer()
    elif on_lobby:
        # A click on the lobby itself: the lobby is its answer.
        if not interaction.response.is_done():
            await interaction.response.edit_message(**shown)
            _noted(row, shown)
            return
        if interaction.response.type == discord.InteractionResponseType.deferred_message_update:
            await interaction.edit_original_response(**shown)
            _noted(row, shown)
            return
    if row.table_message_id is not None:
        try:
            # Once: an old lobby Discord will not edit any more (30046) must not keep the channel's lock for the
            # waits discord.py would spend trying again; past the channel's rate limit the edit waits in the
            # background, and a newer state of the lobby replaces it (`bot.face.edits`).
            await bot.lobby_edits.edit(row.channel_id, row.table_message_id, shown, lambda: None)
            _noted(row, shown)
        except discord.HTTPException as error:
            if not isinstance(error, discord.NotFound) and error.code != threads.OLD_MESSAGE_EDITS:
                raise
            log.info("game %d: the lobby message cannot be edited (%s); a new one replaces it", row.id, error)
            row.table_message_id = None
    if row.table_message_id is None:
        await post_lobby(bot, row, lang)
    if note is not None:
        await say(interaction, note or t(lang_of(interaction), "done"))


async def close_lobby(interaction: discord.Interaction, row: GameRow, note: str) -> None:
    bot = bot_of(interaction)
    shown = await lobby_fields(interaction, row, None, closed=note)
    if interaction.message is not None and interaction.message.id == row.table_message_id \
            and not interaction.response.is_done():
        await interaction.response.edit_message(**shown)
        _noted(row, shown)
        return
    if row.table_message_id is not None:
        with contextlib.suppress(discord.NotFound):
            await bot.lobby_edits.edit(row.channel_id, row.table_message_id, shown, lambda: None)
            _noted(row, shown)
    # A click was answered by the lobby's edit; a command says so privately (`say` completes a "thinking…",
    # which would otherwise stay pending for good).
    if interaction.response.type != discord.InteractionResponseType.deferred_message_update:
        await say(interaction, note)


# -- opening -----------------------------------------------------------------------------------------------
async def create(interaction: discord.Interaction, edition: str, time_limit: int, turn_timeout: int,
                 start_cash: int = 0) -> None:
    bot = bot_of(interaction)
    if interaction.guild_id is None or interaction.channel_id is None:
        await refuse(interaction, "guild_only")
        return
    try:
        settings = TableSettings.opened(time_limit, turn_timeout, start_cash)
    except NotOffered:
        await refuse(interaction, "bad_number")
        return
    if await bot.lobby.of_channel(interaction.channel_id) is not None:
        await refuse(interaction, "channel_busy")
        return
    # Answer at once: the lobby message is this answer, filled in once the table is written (a write may
    # wait for another process holding the database).
    await interaction.response.defer(thinking=True)
    async with bot.lobby.lock_for(interaction.channel_id):
        try:
            row = await bot.lobby.open(interaction.guild_id, interaction.channel_id, interaction.user.id,
                                       player_name(interaction.user), edition, settings)
        except Refusal as refusal:
            # The "thinking…" message was public; the refusal is for the person alone.
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
            await interaction.followup.send(error_text(lang_of(interaction), refusal.code), ephemeral=True,
                                            allowed_mentions=components.NO_MENTIONS)
            log.warning("could not open a table in channel %d: %s", interaction.channel_id, refusal.code)
            return
        lang = bot.table_lang(interaction)
        shown = _fields(row, lang, lobby_message.wanted(TableSettings(row.settings)), lobby_view(row, lang))
        message = await interaction.edit_original_response(**shown)
        # "Thinking…" is the lobby now: a later answer (a store error) follows up instead of editing text into it.
        interaction.extras["thinking_done"] = True
        lobby_message.note(message.id, _is_layout(shown))
        await bot.storage.set_table_message(row.id, message.id)
    log.info("game %d: lobby opened in channel %d (%s)", row.id, interaction.channel_id, edition)


# -- seats -----------------------------------------------------------------------------------------------
async def join(interaction: discord.Interaction, gid: int | None = None) -> None:
    row = await _checked(interaction, gid)
    if row is None:
        return
    if row.seat_of(interaction.user.id) is not None:
        await refuse(interaction, "already_seated")
        return
    lobby = bot_of(interaction).lobby
    await acknowledge(interaction)
    try:
        async with lobby.changing(interaction.channel_id or 0, gid) as row:
            row = await lobby.join(row, interaction.user.id, player_name(interaction.user))
            await show_lobby(interaction, row, t(lang_of(interaction), "lobby.joined"))
    except Refusal as refusal:
        await refused(interaction, refusal)


async def leave(interaction: discord.Interaction, gid: int | None = None) -> None:
    """Stand up from the lobby's table (a game in play is left with `bot.handlers.seating.confirm_leave`)."""
    bot = bot_of(interaction)
    if await _checked(interaction, gid) is None:
        return
    await acknowledge(interaction)
    try:
        async with bot.lobby.changing(interaction.channel_id or 0, gid) as row:
            was_host = row.host_id == interaction.user.id
            row, closed = await bot.lobby.leave(row, interaction.user.id)
            if closed:
                await close_lobby(interaction, row, t(bot.table_lang(interaction), "lobby.closed_empty"))
                return
            note = t(lang_of(interaction), "lobby.left")
            heir = next((s.name for s in row.seats if s.user_id == row.host_id), None)
            if was_host and heir is not None:
                note += " " + t(lang_of(interaction), "lobby.new_host", host=heir)
            await show_lobby(interaction, row, note)
    except Refusal as refusal:
        await refused(interaction, refusal)


async def add_computer(interaction: discord.Interaction, level: str, gid: int | None = None) -> None:
    if await _checked(interaction, gid) is None:
        return
    lobby = bot_of(interaction).lobby
    await acknowledge(interaction)
    try:
        async with lobby.changing(interaction.channel_id or 0, gid) as row:
            row, name = await lobby.add_computer(row, level)
            await show_lobby(interaction, row, t(lang_of(interaction), "lobby.computer_added", name=name))
    except Refusal as refusal:
        await refused(interaction, refusal)


async def kick(interaction: discord.Interaction, user: discord.abc.User) -> None:
    bot = bot_of(interaction)
    row = await bot.lobby.of_channel(interaction.channel_id or 0)
    if row is not None and row.status == "active":
        await kick_from_game(interaction, row, user)
        return
    if await _checked(interaction, None, manager=True) is None:
        return
    await acknowledge(interaction)
    try:
        async with bot.lobby.changing(interaction.channel_id or 0, manager=actor(interaction)) as row:
            row = await bot.lobby.kick(row, user.id)
            await show_lobby(interaction, row, t(lang_of(interaction), "lobby.kicked", name=player_name(user)))
    except Refusal as refusal:
        await refused(interaction, refusal)


async def kick_from_game(interaction: discord.Interaction, row: GameRow, user: discord.abc.User) -> None:
    """During a game a kicked person's seat goes on with a computer player, so the game can finish."""
    if not may_manage(actor(interaction), row):
        await refuse(interaction, "not_host")
        return
    session = await bot_of(interaction).sessions.for_game(row.id)
    if session is None:
        await refuse(interaction, "no_game")
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    if not await session.hand_to_computer(user.id):
        await interaction.edit_original_response(content=t(lang_of(interaction), "error.not_seated"))
        return
    await interaction.edit_original_response(content=t(lang_of(interaction), "lobby.kicked", name=player_name(user)))


# -- the lobby's buttons ------------------------------------------------------------------------------------
@verb("join", at_table=False)
async def join_button(click: Click) -> None:
    await join(click.interaction, click.game)


@verb("leave", at_table=False)
async def leave_button(click: Click) -> None:
    await leave(click.interaction, click.game)


@verb("addbot", arg=one_of("level", optional=True), at_table=False)
async def add_computer_button(click: Click) -> None:
    """The button seats a `normal` computer; the level select sends the level it picked."""
    picked = values(click.interaction) if click.arg == "level" else [DEFAULT_LEVEL]
    if len(picked) != 1 or picked[0] not in LEVELS:
        await refuse(click.interaction, "invalid")
        return
    await add_computer(click.interaction, picked[0], click.game)


@verb("dropbot", at_table=False)
async def drop_computer(click: Click) -> None:
    """The lobby's "Remove computer" button: the last computer player seated stands up (host only)."""
    interaction = click.interaction
    if await _checked(interaction, click.game, manager=True) is None:
        return
    lobby = bot_of(interaction).lobby
    await acknowledge(interaction)
    try:
        async with lobby.changing(interaction.channel_id or 0, click.game, actor(interaction)) as row:
            row, name = await lobby.remove_computer(row)
            await show_lobby(interaction, row, t(lang_of(interaction), "lobby.kicked", name=name))
    except Refusal as refusal:
        await refused(interaction, refusal)


@verb("start", at_table=False)
async def start_button(click: Click) -> None:
    await start(click.interaction, click.game)


async def start(interaction: discord.Interaction, gid: int | None = None) -> None:
    bot = bot_of(interaction)
    channel_id = interaction.channel_id or 0
    # Seats are counted under the channel's lock only: a Join clicked just before is written by then.
    if (checked := await _checked(interaction, gid, manager=True)) is None:
        return
    await acknowledge(interaction)
    lang = bot.table_lang(interaction)
    # The table's picture worker gets ready while the game is stored and its thread opened.
    pictures.warm_up(TableSettings(checked.settings).edition(checked.edition), lang, table=checked.id)
    try:
        async with bot.lobby.changing(channel_id, gid, actor(interaction)) as row:
            started = await bot.lobby.start(row)
            row = started.row
            note = t(lang, "lobby.started")
            if (lobby_id := row.table_message_id) is not None:
                await threads.remember_lobby(bot.storage, row, lobby_id)
                if TableSettings(row.settings).thread:
                    thread_id, why_not = await threads.open_thread(bot, bot.storage, row, lobby_id, lang)
                    note = t(lang, "lobby.started_thread", thread=f"<#{thread_id}>") if thread_id \
                        else f"{note}\n{why_not}"
            row = await bot.storage.game(row.id)
            session = await bot.sessions.for_game(row.id)
            assert session is not None
            session.adopt(row)
            # The game is stored: whatever Discord answers now, its computer seats and clocks start below.
            try:
                await close_lobby(interaction, row, note)
            except discord.HTTPException as error:
                log.warning("game %d: started; the lobby message could not be closed: %s", row.id, error)
            await session.opened(started.events)
    except Refusal as refusal:
        await refused(interaction, refusal)
        return
    log.info("game %d: started with %d seats", row.id, len(row.seats))
    session.after_change()


@verb("settings", at_table=False)
async def settings_button(click: Click) -> None:
    await show_settings(click.interaction)


async def show_settings(interaction: discord.Interaction) -> None:
    row = await bot_of(interaction).lobby.of_channel(interaction.channel_id or 0)
    if row is None:
        await refuse(interaction, "no_game")
        return
    lang = lang_of(interaction)
    summary = "\n".join(settings_summary(TableSettings(row.settings), row.edition, lang))
    if row.status != "lobby" or not may_manage(actor(interaction), row):
        await say(interaction, summary)
        return
    await say(interaction, t(lang, "settings.intro") + "\n" + summary, view=settings_view(row, lang))


@verb("set", arg=one_of(*SETTING_KINDS), at_table=False)
async def change_setting(click: Click) -> None:
    interaction, what, chosen = click.interaction, click.arg, values(click.interaction)
    lang = lang_of(interaction)
    row = await _checked(interaction, click.game, manager=True)
    if row is None:
        return
    try:
        TableSettings(row.settings).chosen(what, chosen)
    except NotOffered:  # only a modified client sends what the select did not offer
        await refuse(interaction, "invalid")
        return
    lobby = bot_of(interaction).lobby
    await acknowledge(interaction)
    try:
        async with lobby.changing(interaction.channel_id or 0, click.game, actor(interaction)) as row:
            row = await lobby.choose(row, what, chosen)
            await show_lobby(interaction, row, None)
            summary = "\n".join(settings_summary(TableSettings(row.settings), row.edition, lang))
            await interaction.edit_original_response(content=t(lang, "settings.intro") + "\n" + summary,
                                                     view=settings_view(row, lang))
    except Refusal as refusal:
        await refused(interaction, refusal)


# -- the end -----------------------------------------------------------------------------------------------
async def end(interaction: discord.Interaction) -> None:
    """`/turista end`: the host or a channel manager closes the lobby or stops the game."""
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    row = await bot.lobby.of_channel(interaction.channel_id or 0)
    if row is None:
        await refuse(interaction, "no_game")
        return
    if not may_manage(actor(interaction), row):
        await refuse(interaction, "not_host")
        return
    if row.status == "lobby":
        # Answered before waiting for the channel or the database; `close_lobby` completes the answer.
        await acknowledge(interaction)
        try:
            async with bot.lobby.changing(row.channel_id, row.id, actor(interaction)) as row:
                await bot.lobby.cancel(row)
                await close_lobby(interaction, row, t(bot.table_lang(interaction), "lobby.cancelled"))
        except Refusal as refusal:
            await refused(interaction, refusal)
        return
    # Ending a game in play cannot be undone: ask once more, privately.
    view = confirmation(row.id, 0, "end_game", t(lang, "button.end_game"), "🏁", lang)
    await say(interaction, t(lang, "lobby.confirm_end"), view=view)


@verb("end_game", at_table=False)
async def end_game(click: Click) -> None:
    """The confirmation of `/turista end`: the game stops and its ranking as it stands is posted."""
    interaction, gid = click.interaction, click.game
    bot = bot_of(interaction)
    row = await bot.lobby.of_channel(interaction.channel_id or 0)
    if row is None or row.id != gid or row.status != "active":
        await refuse(interaction, "no_game")
        return
    if not may_manage(actor(interaction), row):
        await refuse(interaction, "not_host")
        return
    session = await bot.sessions.for_game(row.id)
    if session is None:
        await refuse(interaction, "no_game")
        return
    await interaction.response.defer()
    await session.abandon(player_name(interaction.user))
    await interaction.edit_original_response(
        content=t(lang_of(interaction), "table.ended", who=player_name(interaction.user)), view=None,
        allowed_mentions=components.NO_MENTIONS)
    log.info("game %d: ended by %d", row.id, interaction.user.id)


# -- a rematch ---------------------------------------------------------------------------------------------
@verb("rematch", at_table=False)
async def rematch(click: Click) -> None:
    """The end-of-game message's Rematch: a new lobby in the game's channel with the same edition and house
    rules and everyone who played seated, the person who clicked its host. Once the table is open (this click's
    or another), a click says so and changes nothing."""
    interaction, gid = click.interaction, click.game
    bot = bot_of(interaction)
    old = await ended_game(interaction, gid)
    if old is None:
        await refuse(interaction, "invalid")
        return
    if old.seat_of(interaction.user.id) is None:
        await refuse(interaction, "not_in_game")
        return
    if await bot.lobby.of_channel(old.channel_id) is not None:
        await refuse(interaction, "rematch_busy")
        return
    # The end-of-game message is this click's answer: it keeps its Replay once the rematch is open.
    await interaction.response.defer()
    lang = bot.table_lang(interaction)
    try:
        async with bot.lobby.lock_for(old.channel_id):
            row = await bot.lobby.rematch(old, interaction.user.id, player_name(interaction.user))
            await post_lobby(bot, row, lang)
    except Refusal as refusal:
        await refused(interaction, refusal)
        return
    log.info("game %d: lobby opened in channel %d, a rematch of game %d", row.id, row.channel_id, gid)
    with contextlib.suppress(discord.HTTPException):
        if (shown := await _without_rematch(interaction, old, lang)) is not None:
            await interaction.edit_original_response(**shown)
    note = t(lang_of(interaction), "league.rematch_opened")
    if interaction.channel_id != row.channel_id:  # clicked in the game's thread: the lobby is in the channel
        note += "\n" + t(lang_of(interaction), "league.rematch_elsewhere", channel=f"<#{row.channel_id}>")
    await say(interaction, note)


async def _without_rematch(interaction: discord.Interaction, old: GameRow, lang: str) -> dict[str, Any] | None:
    """The end-of-game message once a rematch is open from it: its Replay alone (None: it stays as it is). An
    embed keeps its embed and changes only its buttons. A layout's components are the message, so it is built anew
    whole, from the store and from the message itself, read once (a click brings the message without its
    components and attachments, `bot.face.adapter.lighter_clicks`): its head (who ended a game is not kept) and
    its picture's alt text."""
    view = league.end_view(old.id, lang, rematch=False)
    clicked = interaction.message
    if clicked is None or not clicked.flags.value & layout.IS_COMPONENTS_V2 or old.state is None:
        return {"view": view}
    try:
        message = await clicked.fetch()
    except discord.HTTPException as error:
        log.info("game %d: the end-of-game message could not be read (%s); it keeps its Rematch", old.id, error)
        return None
    st = old.state
    rows = st.standings if old.status == "finished" else standings(st)
    head = layout.heading(message)
    if head is None:
        head = t(lang, "over.title", seat=seat_label(st, st.winner)) if old.status == "finished" \
            and st.winner is not None else t(lang, "over.ended", who="")
    try:
        changes = await bot_of(interaction).storage.game_ratings(old.id)
    except StoreError:
        changes = []
    picture = next((a for a in message.attachments if a.filename == embeds.SUMMARY), None)
    shown = layout.end_of_game(st, head, rows, lang, game=old.id,
                               alt=(picture.description or "") if picture is not None else None,
                               ratings=league.rating_lines(changes, st, lang), view=view)
    return {"view": layout.sendable(shown), "allowed_mentions": components.NO_MENTIONS}

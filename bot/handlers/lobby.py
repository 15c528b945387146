"""The lobby: a new table, who sits at it, the house rules, and the start of the game.

Each step runs under the channel's lock and answers the interaction well inside Discord's 3 s: the
store is called in a worker thread and is fast; the lobby message is edited in place.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from typing import Any

import discord

from bot.client import bot_of
from bot.face import buttons, components, embeds, threads
from bot.face.i18n import lang_of, t
from bot.face.publisher import PUBLISH_ERRORS
from bot.face.replies import error_text, refuse, say
from bot.pictures import pool
from bot.store import GameRow, StoreError, engine_settings
from bot.table import names
from bot.table.reading import read
from engine import IllegalAction, new_game
from engine.rulebook import HOUSE_SWITCHES

log = logging.getLogger("turista.lobby")
COMPUTER_NAMES = ("Lupita", "Don Ramón", "Chabelo", "Doña Florinda", "El Profe", "La Güera")


def player_name(user: discord.abc.User) -> str:
    """The name a person plays under: their server nickname (else global name, else username), visible,
    on one line and inert in Discord text (see `bot.table.names`)."""
    return names.player_name([user.display_name, getattr(user, "global_name", None), user.name], user.id)


def may_manage(interaction: discord.Interaction, row: GameRow) -> bool:
    """The host, or anyone who may manage the channel, runs the table; once the host has left the
    lobby, anyone still seated may."""
    perms = interaction.permissions
    if interaction.user.id == row.host_id or perms.manage_channels or perms.administrator:
        return True
    # A host who leaves hands the role on (see `Store.remove_seat`); a lobby from before that still works.
    return row.status == "lobby" and row.seat_of(row.host_id) is None and row.seat_of(interaction.user.id) is not None


def edition_of_row(row: GameRow) -> str:
    """The edition chosen in the lobby's settings, else the one the table was opened with."""
    return str(row.settings.get("edition") or row.edition)


async def open_row(interaction: discord.Interaction) -> GameRow | None:
    if interaction.channel_id is None:
        return None
    return await read(bot_of(interaction).store.game_by_channel, interaction.channel_id)


async def lobby_row(interaction: discord.Interaction, gid: int | None = None) -> GameRow | None:
    """The channel's game if it is still in the lobby (and is game `gid`, for a button); else say why."""
    row = await open_row(interaction)
    if row is None or (gid is not None and row.id != gid):
        await refuse(interaction, "no_lobby")
        return None
    if row.status != "lobby":
        await refuse(interaction, "game_running")
        return None
    return row


async def managed_lobby_row(interaction: discord.Interaction, gid: int | None = None) -> GameRow | None:
    """`lobby_row`, for what only the host (or a channel manager) may do; else say why."""
    row = await lobby_row(interaction, gid)
    if row is not None and not may_manage(interaction, row):
        await refuse(interaction, "not_host")
        return None
    return row


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


def seat_refusal(error: StoreError) -> str:
    """Why a seat could not be taken, in the player's words: the table is full, they sit there already,
    the game started, the database is busy…, and only otherwise "no open table"."""
    if error.code in ("table_full", "already_seated") or error.code.startswith("db_"):
        return error.code
    return "game_running" if error.code == "game_active" else "no_lobby"


async def show_lobby(interaction: discord.Interaction, row: GameRow, note: str | None = "") -> None:
    """Update the lobby message: in place for its own buttons, through the channel for commands (then
    `note` answers privately; None when the interaction is answered elsewhere)."""
    bot = bot_of(interaction)
    lang = bot.table_lang(interaction)
    embed, view = embeds.lobby(row, lang), buttons.lobby_view(row, lang)
    source = interaction.message
    if source is not None and source.id == row.table_message_id:
        # A click on the lobby itself: the lobby is its answer.
        if not interaction.response.is_done():
            await interaction.response.edit_message(content=None, embed=embed, view=view,
                                                    allowed_mentions=components.NO_MENTIONS)
            return
        if interaction.response.type == discord.InteractionResponseType.deferred_message_update:
            await interaction.edit_original_response(content=None, embed=embed, view=view,
                                                     allowed_mentions=components.NO_MENTIONS)
            return
    if row.table_message_id is not None:
        try:
            await bot.get_partial_messageable(row.channel_id).get_partial_message(row.table_message_id).edit(
                content=None, embed=embed, view=view, allowed_mentions=components.NO_MENTIONS)
        except discord.NotFound:
            row.table_message_id = None
    if row.table_message_id is None:
        message = await bot.get_partial_messageable(row.channel_id).send(
            embed=embed, view=view, allowed_mentions=components.NO_MENTIONS)
        await bot.writes(bot.store.set_table_message, row.id, message.id)
    if note is not None:
        await say(interaction, note or t(lang_of(interaction), "done"))


async def create(interaction: discord.Interaction, edition: str, time_limit: int, turn_timeout: int,
                 start_cash: int = 0) -> None:
    bot = bot_of(interaction)
    if interaction.guild_id is None or interaction.channel_id is None:
        await refuse(interaction, "guild_only")
        return
    if time_limit not in buttons.TIME_LIMITS or turn_timeout not in buttons.TURN_TIMEOUTS:
        await refuse(interaction, "bad_number")
        return
    settings: dict[str, Any] = {"time_limit": time_limit, "turn_timeout": turn_timeout}
    if start_cash:
        settings["start_cash"] = start_cash
    seed = bot.config.seed if bot.config.seed is not None else random.SystemRandom().randrange(1, 2**31)
    if await open_row(interaction) is not None:
        await refuse(interaction, "channel_busy")
        return
    # Answer at once: the lobby message is this answer, filled in once the table is written (a write may
    # wait for another process holding the database).
    await interaction.response.defer(thinking=True)
    async with bot.sessions.lock_for(interaction.channel_id):
        try:
            gid = await bot.writes(bot.store.create_game, interaction.guild_id, interaction.channel_id,
                                   interaction.user.id, edition, settings, seed,
                                   host_name=player_name(interaction.user))
            row = await asyncio.to_thread(bot.store.game, gid)
        except StoreError as error:
            # The "thinking…" message was public; the refusal is for the person alone.
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
            await interaction.followup.send(error_text(lang_of(interaction), error.code), ephemeral=True,
                                            allowed_mentions=components.NO_MENTIONS)
            log.warning("could not open a table in channel %d: %s", interaction.channel_id, error.code)
            return
        lang = bot.table_lang(interaction)
        message = await interaction.edit_original_response(content=None, embed=embeds.lobby(row, lang),
                                                           view=buttons.lobby_view(row, lang),
                                                           allowed_mentions=components.NO_MENTIONS)
        await bot.writes(bot.store.set_table_message, gid, message.id)
    log.info("game %d: lobby opened in channel %d (%s)", gid, interaction.channel_id, edition)


async def join(interaction: discord.Interaction, gid: int | None = None) -> None:
    bot = bot_of(interaction)
    row = await lobby_row(interaction, gid)
    if row is None:
        return
    if row.seat_of(interaction.user.id) is not None:
        await refuse(interaction, "already_seated")
        return
    await acknowledge(interaction)
    async with bot.sessions.lock_for(interaction.channel_id or 0):
        row = await lobby_row(interaction, gid)
        if row is None:
            return
        if row.seat_of(interaction.user.id) is not None:
            await refuse(interaction, "already_seated")
            return
        try:
            name = names.unique(player_name(interaction.user), [s.name for s in row.seats])
            await bot.writes(bot.store.add_seat, row.id, interaction.user.id, name)
        except StoreError as error:
            await refuse(interaction, seat_refusal(error))
            return
        row = await asyncio.to_thread(bot.store.game, row.id)
        await show_lobby(interaction, row, t(lang_of(interaction), "lobby.joined"))


async def leave(interaction: discord.Interaction, gid: int | None = None) -> None:
    bot = bot_of(interaction)
    if gid is None:
        row = await open_row(interaction)
        if row is not None and row.status == "active":
            await confirm_withdraw(interaction, row)
            return
    if await lobby_row(interaction, gid) is None:
        return
    await acknowledge(interaction)
    async with bot.sessions.lock_for(interaction.channel_id or 0):
        row = await lobby_row(interaction, gid)
        if row is None:
            return
        was_host = row.host_id == interaction.user.id
        if not await bot.writes(bot.store.remove_seat, row.id, interaction.user.id):
            await refuse(interaction, "not_seated")
            return
        row = await asyncio.to_thread(bot.store.game, row.id)
        if not any(s.user_id for s in row.seats):
            # The last person left: nobody is left to start it, so the table closes.
            await bot.writes(bot.store.set_status, row.id, "abandoned")
            await close_lobby(interaction, row, t(bot.table_lang(interaction), "lobby.closed_empty"))
            return
        note = t(lang_of(interaction), "lobby.left")
        heir = next((s.name for s in row.seats if s.user_id == row.host_id), None)
        if was_host and heir is not None:
            note += " " + t(lang_of(interaction), "lobby.new_host", host=heir)
        await show_lobby(interaction, row, note)


async def confirm_withdraw(interaction: discord.Interaction, row: GameRow) -> None:
    """Leaving a game in play gives everything to the bank: ask once more, privately."""
    lang = lang_of(interaction)
    state = row.state
    if row.seat_of(interaction.user.id) is None or state is None:
        await refuse(interaction, "not_a_player")
        return
    button = components.button(row.id, state.version, "withdraw", t(lang, "button.withdraw"),
                       style=discord.ButtonStyle.danger, emoji="🏳️")
    await say(interaction, t(lang, "lobby.confirm_withdraw"), view=components.view(button))


async def add_computer(interaction: discord.Interaction, level: str, gid: int | None = None) -> None:
    bot = bot_of(interaction)
    if await lobby_row(interaction, gid) is None:
        return
    await acknowledge(interaction)
    async with bot.sessions.lock_for(interaction.channel_id or 0):
        row = await lobby_row(interaction, gid)
        if row is None:
            return
        taken = [s.name for s in row.seats]
        name = next((n for n in COMPUTER_NAMES if names.unique(n, taken) == n), f"CPU {len(row.seats) + 1}")
        try:
            await bot.writes(bot.store.add_seat, row.id, None, name, level)
        except StoreError as error:
            await refuse(interaction, seat_refusal(error))
            return
        row = await asyncio.to_thread(bot.store.game, row.id)
        await show_lobby(interaction, row, t(lang_of(interaction), "lobby.computer_added", name=name))


async def kick(interaction: discord.Interaction, user: discord.abc.User) -> None:
    bot = bot_of(interaction)
    row = await open_row(interaction)
    if row is not None and row.status == "active":
        await kick_from_game(interaction, row, user)
        return
    if await managed_lobby_row(interaction) is None:
        return
    await acknowledge(interaction)
    async with bot.sessions.lock_for(interaction.channel_id or 0):
        row = await managed_lobby_row(interaction)
        if row is None:
            return
        removed = await bot.writes(bot.store.remove_seat, row.id, user.id)
        if not removed:
            await refuse(interaction, "not_seated")
            return
        row = await asyncio.to_thread(bot.store.game, row.id)
        await show_lobby(interaction, row, t(lang_of(interaction), "lobby.kicked", name=player_name(user)))


async def kick_from_game(interaction: discord.Interaction, row: GameRow, user: discord.abc.User) -> None:
    """During a game a kicked person's seat goes on with a computer player, so the game can finish."""
    if not may_manage(interaction, row):
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


async def drop_computer(interaction: discord.Interaction, gid: int) -> None:
    """The lobby's "Remove computer" button: the last computer player seated stands up (host only)."""
    bot = bot_of(interaction)
    if await managed_lobby_row(interaction, gid) is None:
        return
    await acknowledge(interaction)
    async with bot.sessions.lock_for(interaction.channel_id or 0):
        row = await managed_lobby_row(interaction, gid)
        if row is None:
            return
        seat = next((s for s in reversed(row.seats) if s.computer), None)
        if seat is None:
            await refuse(interaction, "not_seated")
            return
        await bot.writes(bot.store.remove_seat_at, row.id, seat.seat)
        row = await asyncio.to_thread(bot.store.game, row.id)
        await show_lobby(interaction, row, t(lang_of(interaction), "lobby.kicked", name=seat.name))


async def start(interaction: discord.Interaction, gid: int | None = None) -> None:
    bot = bot_of(interaction)
    channel_id = interaction.channel_id or 0
    # Seats are counted under the channel's lock only: a Join clicked just before is written by then.
    if await managed_lobby_row(interaction, gid) is None:
        return
    await acknowledge(interaction)
    async with bot.sessions.lock_for(channel_id):
        row = await managed_lobby_row(interaction, gid)
        if row is None:
            return
        if len(row.seats) < 2:
            await refuse(interaction, "not_enough_players")
            return
        names = [s.name for s in row.seats]
        computers = [s.computer for s in row.seats]
        try:
            state, events = new_game(edition_of_row(row), names, row.seed, settings=engine_settings(row.settings),
                                     computers=computers)
        except IllegalAction as error:
            await refuse(interaction, error.code, dict(error.params))
            return
        minutes = int(row.settings.get("time_limit", 0) or 0)
        if minutes:
            # The game's clock is part of its settings; `deadline` is the clock of each decision.
            ends_at = time.time() + minutes * bot.config.minute
            await bot.writes(bot.store.update_settings, row.id, {**row.settings, "ends_at": ends_at})
        # The first decision's clock is saved with the start, like every later one with its action.
        timeout = float(row.settings.get("turn_timeout", 0) or 0) * bot.config.time_scale
        person_first = any(not row.seats[s].computer for s in state.seat_to_act())
        deadline = time.time() + timeout if timeout and person_first else None
        await bot.writes(bot.store.start_game, row.id, state, events, deadline=deadline)
        lang = bot.table_lang(interaction)
        await pool.warm_up(state.edition, lang, table=row.id)
        started = t(lang, "lobby.started")
        if (lobby_id := row.table_message_id) is not None:
            await threads.remember_lobby(bot, row, lobby_id)
            if threads.wanted(row):
                thread_id, why_not = await threads.open_thread(bot, row, lobby_id, lang)
                started = t(lang, "lobby.started_thread", thread=f"<#{thread_id}>") if thread_id \
                    else f"{started}\n{why_not}"
        row = await asyncio.to_thread(bot.store.game, row.id)
        session = await bot.sessions.for_game(row.id)
        assert session is not None
        # A start-up that raced this start may have loaded the game before its thread was stored.
        session.row, session.state = row, row.state
        session.publisher.turn_events = list(events)
        # The game is stored: whatever Discord answers now, its computer seats and clocks start below.
        try:
            await close_lobby(interaction, row, started)
        except discord.HTTPException as error:
            log.warning("game %d: started; the lobby message could not be closed: %s", row.id, error)
        try:
            await session.publisher.post_table()
        except PUBLISH_ERRORS as error:
            log.warning("game %d: started; Discord refused the first table (%s); the game goes on and the table "
                        "is posted as soon as Discord takes it", row.id, error)
            session.heal_later()
    log.info("game %d: started with %d seats", row.id, len(names))
    session.after_change()


async def close_lobby(interaction: discord.Interaction, row: GameRow, note: str) -> None:
    bot = bot_of(interaction)
    embed = embeds.lobby(row, bot.table_lang(interaction), closed=note)
    if interaction.message is not None and interaction.message.id == row.table_message_id \
            and not interaction.response.is_done():
        await interaction.response.edit_message(content=None, embed=embed, view=None,
                                                allowed_mentions=components.NO_MENTIONS)
        return
    if row.table_message_id is not None:
        with contextlib.suppress(discord.NotFound):
            await bot.get_partial_messageable(row.channel_id).get_partial_message(row.table_message_id).edit(
                content=None, embed=embed, view=None, allowed_mentions=components.NO_MENTIONS)
    # A click was answered by the lobby's edit; a command says so privately (`say` completes a "thinking…",
    # which would otherwise stay pending for good).
    if interaction.response.type != discord.InteractionResponseType.deferred_message_update:
        await say(interaction, note)


async def end(interaction: discord.Interaction) -> None:
    """`/turista end`: the host or a channel manager closes the lobby or stops the game."""
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    row = await open_row(interaction)
    if row is None:
        await refuse(interaction, "no_game")
        return
    if not may_manage(interaction, row):
        await refuse(interaction, "not_host")
        return
    if row.status == "lobby":
        # Answered before waiting for the channel or the database; `close_lobby` completes the answer.
        await acknowledge(interaction)
        async with bot.sessions.lock_for(row.channel_id):
            row = await managed_lobby_row(interaction, row.id)
            if row is None:
                return
            await bot.writes(bot.store.set_status, row.id, "abandoned")
            await close_lobby(interaction, row, t(bot.table_lang(interaction), "lobby.cancelled"))
        return
    # Ending a game in play cannot be undone: ask once more, privately.
    button = components.button(row.id, 0, "end_game", t(lang, "button.end_game"), style=discord.ButtonStyle.danger,
                               emoji="🏁")
    await say(interaction, t(lang, "lobby.confirm_end"), view=components.view(button))


async def end_game(interaction: discord.Interaction, gid: int) -> None:
    """The confirmation of `/turista end`: the game stops and its ranking as it stands is posted."""
    bot = bot_of(interaction)
    row = await open_row(interaction)
    if row is None or row.id != gid or row.status != "active":
        await refuse(interaction, "no_game")
        return
    if not may_manage(interaction, row):
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


# -- house rules -------------------------------------------------------------------------------------
async def show_settings(interaction: discord.Interaction) -> None:
    row = await open_row(interaction)
    if row is None:
        await refuse(interaction, "no_game")
        return
    lang = lang_of(interaction)
    summary = "\n".join(buttons.settings_summary(row.settings, row.edition, lang))
    if row.status != "lobby" or not may_manage(interaction, row):
        await say(interaction, summary)
        return
    await say(interaction, t(lang, "settings.intro") + "\n" + summary, view=buttons.settings_view(row, lang))


async def change_setting(interaction: discord.Interaction, gid: int, what: str, values: list[str]) -> None:
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    row = await managed_lobby_row(interaction, gid)
    if row is None:
        return
    try:
        apply_choice(dict(row.settings), what, values)
    except ValueError:  # only a modified client sends what the select did not offer
        await refuse(interaction, "invalid")
        return
    await acknowledge(interaction)
    async with bot.sessions.lock_for(interaction.channel_id or 0):
        row = await managed_lobby_row(interaction, gid)
        if row is None:
            return
        settings = dict(row.settings)
        try:
            apply_choice(settings, what, values)
        except ValueError:  # only a modified client sends what the select did not offer
            await refuse(interaction, "invalid")
            return
        await bot.writes(bot.store.update_settings, row.id, settings)
        row = await asyncio.to_thread(bot.store.game, row.id)
        await show_lobby(interaction, row, None)
        summary = "\n".join(buttons.settings_summary(row.settings, row.edition, lang))
        await interaction.edit_original_response(content=t(lang, "settings.intro") + "\n" + summary,
                                                 view=buttons.settings_view(row, lang))


def apply_choice(settings: dict[str, Any], what: str, values: list[str]) -> None:
    """Fold one select's choice into the settings dict (ValueError for anything not offered)."""
    from engine import available

    if what == "edition":
        if len(values) != 1 or values[0] not in available():
            raise ValueError(what)
        settings["edition"] = values[0]
        # Switches whose default comes from the edition follow the new edition again.
        for key in HOUSE_SWITCHES:
            settings.pop(key, None)
    elif what == "time_limit":
        settings["time_limit"] = _offered(values, buttons.TIME_LIMITS, what)
    elif what == "turn_timeout":
        settings["turn_timeout"] = _offered(values, buttons.TURN_TIMEOUTS, what)
    elif what == "rules":
        chosen = set(values)
        if not chosen <= set(buttons.TOGGLES):
            raise ValueError(what)
        for name in buttons.TOGGLES:
            settings[name] = (2 if name in chosen else 0) if name == "deal_titles" else name in chosen
    elif what == "ending":
        if len(values) != 1 or values[0] not in buttons.ENDINGS:
            raise ValueError(what)
        ending = values[0]
        settings["end_at_bankruptcy"] = 2 if ending == "bankruptcy2" else 0
        settings["max_turns"] = int(ending[5:]) if ending.startswith("turns") else 0
    else:
        raise ValueError(what)


def _offered(values: list[str], offered: tuple[int, ...], what: str) -> int:
    """The one number a select offered that was chosen (compared as the select wrote it, so "²" or
    "0060" is not 60)."""
    by_text = {str(n): n for n in offered}
    if len(values) != 1 or values[0] not in by_text:
        raise ValueError(what)
    return by_text[values[0]]

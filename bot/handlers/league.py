"""The server's league in Discord: `/turista ranking`, `profile`, `season new`, `replay`, `history`, `privacy` and
`forget-me`, and their buttons (show a profile to the channel, confirm a season or forgetting, a game's Replay).

The league's rules and numbers are the store's (`bot.store`, `bot.league`); its words and buttons are the face's
(`bot.face.league`). What is shared with the channel (the ranking, a replay, a profile shown, a new season) is in
the server's language; what answers one person is private and in theirs.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

import discord

from bot.client import bot_of
from bot.face import attachments, ids, league
from bot.face.i18n import lang_of, t
from bot.face.replies import error_text, refuse, say
from bot.handlers.acting import ended_game, player_name, values
from bot.handlers.registry import Click, number, one_of, verb
from bot.store import StoreError
from engine import available
from words import text

log = logging.getLogger("turista.league")
PROGRESS_EVERY = 3.0  # seconds between two edits of a replay's answer while it is drawn (a timer: tests shrink it)
MAX_ID = 2**63 - 1  # a Discord id, a game id, a season: within SQLite's integers
HISTORY_GAMES = 10


def manages_server(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


# -- the ranking ------------------------------------------------------------------------------------------------
async def ranking(interaction: discord.Interaction, season: int | None, edition: str | None) -> None:
    """The season's table, for the channel to see: the current season unless one is asked for."""
    bot = bot_of(interaction)
    guild = interaction.guild_id or 0
    if edition is not None and edition not in available():
        await refuse(interaction, "unknown_edition", {"edition": edition})
        return
    seasons = await bot.storage.seasons(guild)
    current = seasons[-1].number if seasons else 1
    if season is not None and not 1 <= season <= current:
        await refuse(interaction, "no_season", {"season": current})
        return
    table = await bot.storage.ranking(guild, season=season, edition=edition)
    embed = league.ranking_embed(table, bot.table_lang(interaction))
    await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())


# -- a profile ----------------------------------------------------------------------------------------------------
async def _card(interaction: discord.Interaction, user_id: int, season: int | None,
                lang: str) -> tuple[discord.Embed, discord.File, int] | None:
    """A person's card in `lang` (drawn by a picture worker) with its embed and the season it shows."""
    bot = bot_of(interaction)
    guild = interaction.guild_id or 0
    found = await bot.storage.profile(guild, user_id, season=season)
    if found is None:
        return None
    latest = await bot.storage.last_games(guild, 1, user_id=user_id)
    colour = next((p.seat for p in latest[0].players if p.user_id == user_id), 0) if latest else 0
    file = await attachments.profile_file(league.profile_card(found, colour, lang), lang, user=user_id)
    return league.profile_embed(found, lang), file, found.season


async def profile(interaction: discord.Interaction, user: discord.abc.User | None) -> None:
    """A person's card, privately, with a button to show it to the channel."""
    who = user or interaction.user
    lang = lang_of(interaction)
    await interaction.response.defer(ephemeral=True, thinking=True)
    card = await _card(interaction, who.id, None, lang)
    if card is None:
        await say(interaction, t(lang, "league.profile_none", name=player_name(who)))
        return
    embed, file, season = card
    await interaction.edit_original_response(embed=embed, attachments=[file],
                                             view=league.profile_view(who.id, season, lang),
                                             allowed_mentions=discord.AllowedMentions.none())


@verb("show_profile", arg=number(MAX_ID), at_table=False)
async def show_profile(click: Click) -> None:
    """The private card's button: the card goes to the channel, in the server's language."""
    interaction = click.interaction
    lang = bot_of(interaction).table_lang(interaction)
    # The private message loses its button (shown once), then the card follows for the channel.
    await interaction.response.edit_message(view=None)
    card = await _card(interaction, click.arg, click.version, lang)
    if card is None:
        await refuse(interaction, "invalid")
        return
    embed, file, _ = card
    await interaction.followup.send(embed=embed, file=file, ephemeral=False,
                                    allowed_mentions=discord.AllowedMentions.none())


# -- seasons ------------------------------------------------------------------------------------------------------
async def new_season(interaction: discord.Interaction) -> None:
    """`/turista season new`: someone who manages the server is asked once more, privately."""
    if not manages_server(interaction):
        await refuse(interaction, "not_manager")
        return
    current = await bot_of(interaction).storage.current_season(interaction.guild_id or 0)
    lang = lang_of(interaction)
    await say(interaction, t(lang, "league.season_confirm", season=current + 1, previous=current),
              view=league.season_view(current, lang))


@verb("season_yes", arg=number(MAX_ID), at_table=False)
async def season_yes(click: Click) -> None:
    """The confirmation carries the season it was shown for: a second click, or one after another season began,
    is refused by the store and changes nothing."""
    interaction = click.interaction
    if not manages_server(interaction):
        await refuse(interaction, "not_manager")
        return
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    await interaction.response.defer()
    try:
        started = await bot.storage.new_season(interaction.guild_id or 0, interaction.user.id, after=click.arg)
    except StoreError as error:
        if error.code != "season_changed":
            raise
        await interaction.edit_original_response(content="⚠️ " + text(lang, "error.season_changed", **error.params),
                                                 view=None)
        return
    log.info("guild %d: season %d started by %d", started.guild_id, started.number, interaction.user.id)
    await interaction.edit_original_response(content=t(lang, "league.season_done", season=started.number), view=None)
    await interaction.followup.send(embed=league.season_embed(started.number, player_name(interaction.user),
                                                              bot.table_lang(interaction)),
                                    allowed_mentions=discord.AllowedMentions.none())


@verb("season_no", arg=number(MAX_ID), at_table=False)
async def season_no(click: Click) -> None:
    await click.interaction.response.edit_message(
        content=t(lang_of(click.interaction), "league.season_cancelled", season=click.arg), view=None)


# -- a replay -----------------------------------------------------------------------------------------------------
async def replay(interaction: discord.Interaction, gid: int) -> None:
    """A game of this server that was played, as an animated picture for the channel. The answer says how far
    the drawing got every few seconds; the picture is drawn by the replays' own worker, never here."""
    bot = bot_of(interaction)
    row = await ended_game(interaction, gid)
    if row is None:
        await refuse(interaction, "no_replay", {"id": gid})
        return
    await interaction.response.defer(thinking=True)
    lang = bot.table_lang(interaction)
    started = time.monotonic()
    progress: list[tuple[int, int]] = []
    every = PROGRESS_EVERY * bot.config.time_scale
    drawn = asyncio.Event()
    showing = asyncio.create_task(_show_progress(interaction, gid, progress, lang, every, drawn),
                                  name=f"turista-replay-{gid}")
    try:
        file = await attachments.replay_file(bot.storage, gid, lang, progress=lambda *p: progress.append(p))
    except attachments.TooBig as error:
        log.warning("game %d: its replay weighs %d bytes", gid, error.args[0])
        file, why = None, "replay_too_big"
    except Exception:
        log.exception("game %d: its replay failed", gid)
        file, why = None, "replay_failed"
    else:
        why = "no_replay"
    finally:
        # An edit of the progress under way ends before the picture's own edit, which must come last. It is not
        # cancelled: discord.py keeps the response's rate-limit lock for good if cancelled while it waits for
        # Discord's bucket (`AsyncDeferredLock.__aexit__`), and the picture's edit would wait behind it forever.
        drawn.set()
        await showing
    if file is None:
        # The "thinking…" message was public: the refusal is for the person alone.
        with contextlib.suppress(discord.HTTPException):
            await interaction.delete_original_response()
        await interaction.followup.send(error_text(lang_of(interaction), why, {"id": gid}), ephemeral=True)
        return
    log.info("game %d: replay drawn in %.1f s", gid, time.monotonic() - started)
    await interaction.edit_original_response(embed=league.replay_embed(row, lang), attachments=[file],
                                             allowed_mentions=discord.AllowedMentions.none())


async def _show_progress(interaction: discord.Interaction, gid: int, progress: list[tuple[int, int]],
                         lang: str, every: float, drawn: asyncio.Event) -> None:
    """Every few seconds until `drawn`, the answer shows how many frames are drawn (a replay asked while another
    is drawn waits its turn, and says so)."""
    shown: tuple[int, int] | None = None
    while True:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(drawn.wait(), every)
        if drawn.is_set():
            return
        now = progress[-1] if progress else (0, 0)
        if now == shown:
            continue
        shown = now
        try:
            await interaction.edit_original_response(embed=league.replay_progress(gid, *now, lang))
        except discord.HTTPException as error:
            log.warning("game %d: the replay's progress could not be shown: %s", gid, error)


@verb("replay", arg=one_of("pick", optional=True), at_table=False)
async def replay_button(click: Click) -> None:
    """The end-of-game message's Replay (the game is the component's), or the history's select (the game is
    the one picked)."""
    if click.arg != "pick":
        await replay(click.interaction, click.game)
        return
    picked = values(click.interaction)
    gid = ids.number(picked[0], MAX_ID) if len(picked) == 1 else None
    if gid is None:
        await refuse(click.interaction, "invalid")
        return
    await replay(click.interaction, gid)


# -- the last games -----------------------------------------------------------------------------------------------
async def history(interaction: discord.Interaction) -> None:
    """The server's last games, privately, each with its replay a pick away."""
    lang = lang_of(interaction)
    games = await bot_of(interaction).storage.last_games(interaction.guild_id or 0, HISTORY_GAMES)
    if not games:
        await say(interaction, t(lang, "history.empty"))
        return
    await say(interaction, league.history_text(games, lang), view=league.history_view(games, lang))


# -- a person's data ----------------------------------------------------------------------------------------------
async def privacy(interaction: discord.Interaction) -> None:
    bot = bot_of(interaction)
    data = await bot.storage.personal_data(interaction.user.id)
    guilds = {g.id: g.name for g in bot.guilds}
    await say(interaction, league.privacy_text(data, guilds, lang_of(interaction)))


async def forget_me(interaction: discord.Interaction) -> None:
    """Refused at once while the person sits at or hosts an open table (asking to confirm something that would
    then be refused misleads); the store checks again when they confirm, since they may sit down meanwhile."""
    if await bot_of(interaction).storage.open_tables(interaction.user.id):
        await refuse(interaction, "forget_open_game")
        return
    lang = lang_of(interaction)
    await say(interaction, t(lang, "league.forget_confirm"), view=league.forget_view(lang))


@verb("forget_yes", at_table=False)
async def forget_yes(click: Click) -> None:
    interaction = click.interaction
    lang = lang_of(interaction)
    await interaction.response.defer()
    try:
        done = await bot_of(interaction).storage.forget(interaction.user.id)
    except StoreError as error:
        if error.code != "forget_open_game":
            raise
        await interaction.edit_original_response(content="⚠️ " + text(lang, "error.forget_open_game"), view=None)
        return
    log.info("a person was forgotten: %d games, %d ratings, %d log rows", done.games, done.ratings, done.actions)
    await interaction.edit_original_response(content=t(lang, "league.forget_done", games=done.games,
                                                       count=done.ratings), view=None)


@verb("forget_no", at_table=False)
async def forget_no(click: Click) -> None:
    await click.interaction.response.edit_message(content=t(lang_of(click.interaction), "league.forget_cancelled"),
                                                  view=None)

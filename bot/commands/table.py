"""`/turista …`: open a table, sit down, start, and look at the game."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.client import bot_of
from bot.commands.options import within
from bot.face import answers, attachments
from bot.face.i18n import lang_of, ls, t
from bot.face.replies import refuse, say
from bot.face.texts import cash
from bot.handlers import lobby, my_games, pausing, seating, takebacks
from bot.handlers.acting import channel_session
from bot.table.settings import DEFAULT_TURN_TIMEOUT, HOUR, TIME_LIMITS, TURN_TIMEOUTS, TableSettings
from engine import DEFAULT_LEVEL, available
from engine import LEVELS as COMPUTER_LEVELS

turista = app_commands.Group(name=ls("turista", "turista.name"),
                             description=ls("Play Turista Mundial in this channel", "turista.desc"), guild_only=True)

MAX_TAKE_BACK = 10  # moves one take-back may ask for: the engine allows only the asker's own in a row anyway
MAX_START_CASH = 100_000_000  # far beyond any edition's bank, still exact in Discord's integer options
EDITIONS = [app_commands.Choice(name=ls(e, f"choice.edition.{e}"), value=e) for e in available()]
LEVELS = [app_commands.Choice(name=ls(level, f"choice.level.{level}"), value=level) for level in COMPUTER_LEVELS]
LIMITS = [app_commands.Choice(name=ls(f"{m} min" if m else "no limit", f"choice.minutes.{m}"), value=m)
          for m in TIME_LIMITS]
TIMEOUTS = [app_commands.Choice(name=ls(f"{s // HOUR} h" if s >= HOUR else f"{s} s" if s else "no timeout",
                                         f"choice.seconds.{s}"), value=s) for s in TURN_TIMEOUTS]


@turista.command(name=ls("new", "new.name"), description=ls("Open a new table in this channel", "new.desc"))
@app_commands.rename(edition=ls("edition", "opt.edition.name"), time_limit=ls("time_limit", "opt.time_limit.name"),
                     turn_timeout=ls("turn_timeout", "opt.turn_timeout.name"),
                     start_cash=ls("start_cash", "opt.start_cash.name"))
@app_commands.describe(edition=ls("Which board to play", "opt.edition.desc"),
                       time_limit=ls("End the game after this many minutes", "opt.time_limit.desc"),
                       turn_timeout=ls("Time per decision: minutes live, hours by correspondence (default: 2 minutes)",
                                       "opt.turn_timeout.desc"),
                       start_cash=ls("Cash each player starts with (house rule; default: the edition's)",
                                     "opt.start_cash.desc"))
@app_commands.choices(edition=EDITIONS, time_limit=LIMITS, turn_timeout=TIMEOUTS)
async def new(interaction: discord.Interaction, edition: str = "turismundo", time_limit: int = 0,
              turn_timeout: int = DEFAULT_TURN_TIMEOUT,
              start_cash: app_commands.Range[int, 1, MAX_START_CASH] | None = None) -> None:
    if edition not in available():
        await refuse(interaction, "unknown_edition", {"edition": edition})
        return
    if start_cash is not None and not await within(interaction, "start_cash", start_cash, 1, MAX_START_CASH,
                                                   lambda amount: cash(edition, amount)):
        return
    await lobby.create(interaction, edition, time_limit, turn_timeout, start_cash or 0)


@turista.command(name=ls("join", "join.name"),
                 description=ls("Sit at the table; in a game, take a computer's seat", "join.desc"))
async def join(interaction: discord.Interaction) -> None:
    row = await bot_of(interaction).lobby.of_channel(interaction.channel_id or 0)
    if row is not None and row.status == "active":
        await seating.join_game(interaction, row)
        return
    await lobby.join(interaction)


@turista.command(name=ls("leave", "leave.name"),
                 description=ls("Leave the table; in a game, hand your seat to a computer", "leave.desc"))
async def leave(interaction: discord.Interaction) -> None:
    row = await bot_of(interaction).lobby.of_channel(interaction.channel_id or 0)
    if row is not None and row.status == "active":
        await seating.confirm_leave(interaction, row)
        return
    await lobby.leave(interaction)


@turista.command(name=ls("undo", "undo.name"),
                 description=ls("Ask to take back your last moves (the others agree)", "undo.desc"))
@app_commands.rename(moves=ls("moves", "opt.moves.name"))
@app_commands.describe(moves=ls("How many of your last moves (1 if empty)", "opt.moves.desc"))
async def undo(interaction: discord.Interaction, moves: app_commands.Range[int, 1, MAX_TAKE_BACK] = 1) -> None:
    if not await within(interaction, "moves", moves, 1, MAX_TAKE_BACK, str):
        return
    await takebacks.ask(interaction, moves)


@turista.command(name=ls("pause", "pause.name"),
                 description=ls("Pause the game: the clocks wait (the host, or a majority of the players)",
                                "pause.desc"))
async def pause(interaction: discord.Interaction) -> None:
    await pausing.pause_or_resume(interaction, pause=True)


@turista.command(name=ls("resume", "resume.name"),
                 description=ls("Resume a paused game with the time the clocks had (the host, or a majority)",
                                "resume.desc"))
async def resume(interaction: discord.Interaction) -> None:
    await pausing.pause_or_resume(interaction, pause=False)


@turista.command(name=ls("my-games", "my-games.name"),
                 description=ls("Your games in play on this server: what each waits for, its clock, a link (private)",
                                "my-games.desc"))
async def my_games_command(interaction: discord.Interaction) -> None:
    await my_games.list_games(interaction)


@turista.command(name=ls("start", "start.name"), description=ls("Start the game (host)", "start.desc"))
async def start(interaction: discord.Interaction) -> None:
    await lobby.start(interaction)


@turista.command(name=ls("addbot", "addbot.name"), description=ls("Seat a computer player", "addbot.desc"))
@app_commands.rename(level=ls("level", "opt.level.name"))
@app_commands.describe(level=ls("How well it plays", "opt.level.desc"))
@app_commands.choices(level=LEVELS)
async def addbot(interaction: discord.Interaction, level: str = "normal") -> None:
    if level not in COMPUTER_LEVELS:
        level = DEFAULT_LEVEL
    await lobby.add_computer(interaction, level)


@turista.command(name=ls("kick", "kick.name"), description=ls("Take someone off the table (host)", "kick.desc"))
@app_commands.rename(user=ls("user", "opt.user.name"))
@app_commands.describe(user=ls("Who leaves the table", "opt.user.desc"))
async def kick(interaction: discord.Interaction, user: discord.User) -> None:
    await lobby.kick(interaction, user)


@turista.command(name=ls("end", "end.name"), description=ls("End the game or close the table (host)", "end.desc"))
async def end(interaction: discord.Interaction) -> None:
    await lobby.end(interaction)


@turista.command(name=ls("board", "board.name"), description=ls("Show the board now", "board.desc"))
async def board(interaction: discord.Interaction) -> None:
    session = await channel_session(interaction)
    if session is None or session.state is None:
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    lang = lang_of(interaction)
    shown = session.table().state  # under the names the table shows
    file = await attachments.board_file(shown, lang)
    await interaction.edit_original_response(content=answers.seat_status(shown, shown.current, lang),
                                             attachments=[file], allowed_mentions=discord.AllowedMentions.none())


@turista.command(name=ls("status", "status.name"), description=ls("Cash, titles and buildings of a player",
                                                                  "status.desc"))
@app_commands.rename(user=ls("user", "opt.user.name"))
@app_commands.describe(user=ls("Whose status (yours if empty)", "opt.status_user.desc"))
async def status(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    session = await channel_session(interaction)
    if session is None or session.state is None:
        return
    seat = session.seat_of((user or interaction.user).id)
    if seat is None and user is None:
        # Someone watching: every seat at a glance.
        await say(interaction, answers.overview(session.table().state, lang_of(interaction)))
        return
    if seat is None:
        await refuse(interaction, "not_a_player")
        return
    await say(interaction, answers.seat_status(session.table().state, seat, lang_of(interaction)))


async def any_title(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    session = await bot_of(interaction).sessions.for_channel(interaction.channel_id or 0)
    edition = session.state.edition if session and session.state else "turismundo"
    from bot.commands.game import title_choices

    return title_choices(edition, answers.title_squares(edition), current, lang_of(interaction))


@turista.command(name=ls("property", "property.name"), description=ls("A title deed: prices, rents, owner",
                                                                      "property.desc"))
@app_commands.rename(name=ls("name", "opt.property.name"))
@app_commands.describe(name=ls("The title", "opt.property.desc"))
@app_commands.autocomplete(name=any_title)
async def property_(interaction: discord.Interaction, name: str) -> None:
    session = await bot_of(interaction).sessions.for_channel(interaction.channel_id or 0)
    state = session.state if session else None
    edition = state.edition if state else "turismundo"
    square = answers.find_square(edition, name)
    if square is None:
        await refuse(interaction, "unknown_property")
        return
    await interaction.response.defer(ephemeral=True, thinking=True)
    lang = lang_of(interaction)
    file = await attachments.deed_file(edition, square, state, lang)
    await interaction.edit_original_response(content=answers.deed_text(edition, square, state, lang),
                                             attachments=[file],
                                             allowed_mentions=discord.AllowedMentions.none())


@turista.command(name=ls("rules", "rules.name"), description=ls("The rules of the edition in play", "rules.desc"))
async def rules(interaction: discord.Interaction) -> None:
    row = await bot_of(interaction).lobby.of_channel(interaction.channel_id or 0)
    edition = TableSettings(row.settings).edition(row.edition) if row else "turismundo"
    await say(interaction, answers.rules_text(edition, lang_of(interaction)))


@turista.command(name=ls("settings", "settings.name"), description=ls("House rules of this table", "settings.desc"))
async def settings(interaction: discord.Interaction) -> None:
    await lobby.show_settings(interaction)


@turista.command(name=ls("help", "help.name"), description=ls("How to play with the bot", "help.desc"))
async def help_(interaction: discord.Interaction) -> None:
    await say(interaction, answers.help_text(lang_of(interaction)))


@turista.command(name=ls("stats", "stats.name"), description=ls("Who wins most on this server", "stats.desc"))
async def stats(interaction: discord.Interaction) -> None:
    bot = bot_of(interaction)
    lang = lang_of(interaction)
    rows = await bot.storage.leaderboard(interaction.guild_id or 0)
    if not rows:
        await say(interaction, t(lang, "stats.empty"))
        return
    lines = [t(lang, "stats.title")]
    for i, row in enumerate(rows, 1):
        lines.append(t(lang, "stats.row", rank=i, name=row.name, wins=row.wins, games=row.games))
    await say(interaction, "\n".join(lines))

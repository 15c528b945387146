"""`/turista …` of the server's league: the ranking, a profile, seasons, a game's replay, the last games, and what
the bot keeps about a person. They join the `/turista` group of `bot.commands.table`."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.commands.options import within
from bot.commands.table import EDITIONS, turista
from bot.face.i18n import ls
from bot.handlers import league

MAX_NUMBER = 2**53 - 1  # a season or a game's number: far beyond any; the largest integer Discord takes (Int53Type)

season = app_commands.Group(name=ls("season", "season.name"), description=ls("The seasons of the ranking",
                                                                             "season.desc"), parent=turista)


@turista.command(name=ls("ranking", "ranking.name"), description=ls("The season's ranking on this server",
                                                                    "ranking.desc"))
@app_commands.rename(season_=ls("season", "opt.season.name"), edition=ls("edition", "opt.edition.name"))
@app_commands.describe(season_=ls("The season's number (the current one if empty)", "opt.season.desc"),
                       edition=ls("Only the games of this edition", "opt.ranking_edition.desc"))
@app_commands.choices(edition=EDITIONS)
async def ranking(interaction: discord.Interaction, season_: app_commands.Range[int, 1, MAX_NUMBER] | None = None,
                  edition: str | None = None) -> None:
    if season_ is not None and not await within(interaction, "season", season_, 1, MAX_NUMBER):
        return
    await league.ranking(interaction, season_, edition)


@turista.command(name=ls("profile", "profile.name"), description=ls("A player's card: rating, games, what they "
                                                                    "buy most", "profile.desc"))
@app_commands.rename(user=ls("user", "opt.user.name"))
@app_commands.describe(user=ls("Whose (yours if empty)", "opt.profile_user.desc"))
async def profile(interaction: discord.Interaction, user: discord.User | None = None) -> None:
    await league.profile(interaction, user)


@season.command(name=ls("new", "season.new.name"), description=ls("Start a new season (someone who manages the "
                                                                  "server)", "season.new.desc"))
async def season_new(interaction: discord.Interaction) -> None:
    await league.new_season(interaction)


@turista.command(name=ls("replay", "replay.name"), description=ls("A game's animated replay", "replay.desc"))
@app_commands.rename(game=ls("game", "opt.game.name"))
@app_commands.describe(game=ls("The game's number (/turista history shows it)", "opt.game.desc"))
async def replay(interaction: discord.Interaction, game: app_commands.Range[int, 1, MAX_NUMBER]) -> None:
    if not await within(interaction, "game", game, 1, MAX_NUMBER):
        return
    await league.replay(interaction, game)


@turista.command(name=ls("history", "history.name"), description=ls("The last games of this server",
                                                                    "history.desc"))
async def history(interaction: discord.Interaction) -> None:
    await league.history(interaction)


@turista.command(name=ls("privacy", "privacy.name"), description=ls("What the bot keeps about you", "privacy.desc"))
async def privacy(interaction: discord.Interaction) -> None:
    await league.privacy(interaction)


@turista.command(name=ls("forget-me", "forget-me.name"), description=ls("Have the bot forget you in every game",
                                                                        "forget-me.desc"))
async def forget_me(interaction: discord.Interaction) -> None:
    await league.forget_me(interaction)

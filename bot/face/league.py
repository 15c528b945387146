"""The league in Discord's words: the season's ranking, a person's profile, the last games, what a game did to
its people's ratings, a replay's message, what the bot keeps about a person, and the buttons of these messages.
Pure functions of what the store read (no Discord calls); the handlers send them.

Every name comes from the store, where it was made safe as it was stored (`bot.table.names`); a forgotten person's
fixed name is shown in the reader's language (`bot.league.shown_name`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime

import discord

from bot.face import components, embeds
from bot.face.i18n import t
from bot.league import PROVISIONAL_GAMES, shown_name
from bot.store import GameRow, GameSummary, PersonalData, PlacedPlayer, Profile, Ranking, RatingChange
from engine import State
from render import BestGame, ProfileCard, RankingRow, ranking_lines
from render.ranking import trend_text
from render.texts import rating_text, short_edition
from words import text

PROFILE = "profile.png"
REPLAY = "replay.gif"
GOLD = discord.Colour(0xF1C40F)
Style = discord.ButtonStyle

# The league's components: a custom_id carries the game it is about, or 0 when it is about none.
NO_GAME = 0


def _name(name: str, lang: str) -> str:
    return shown_name(name, lang)


def _label(name: str, computer: str, lang: str) -> str:
    shown = _name(name, lang)
    return f"🤖 {shown}" if computer else shown


def edition_name(edition: str, lang: str) -> str:
    return text(lang, f"edition.{edition}.name")


def change_text(before: int | None, after: int | None) -> str:
    """"1,000 → 1,084 (▲84)": a rating before and after a game."""
    if before is None or after is None:
        return ""
    return f"{rating_text(before)} → {rating_text(after)} ({trend_text(after - before)})"


# -- the ranking ------------------------------------------------------------------------------------------------
def ranking_embed(ranking: Ranking, lang: str) -> discord.Embed:
    """The season's table as a compact embed (`render.ranking_lines`): the ranked people by rating, then apart
    those with fewer than PROVISIONAL_GAMES games; the footer counts the games the table is made of (an
    edition's table, that edition's)."""
    people = [*ranking.ranked, *ranking.provisional]
    rows = [RankingRow(_name(r.name, lang), r.rating, r.games, r.wins, r.trend if r.games > 1 else None,
                       r.place is None) for r in people]
    lines = ranking_lines(rows, lang, place_after=PROVISIONAL_GAMES)
    title = (t(lang, "league.ranking_edition", edition=edition_name(ranking.edition, lang), season=ranking.season)
             if ranking.edition else t(lang, "league.ranking_title", season=ranking.season))
    embed = discord.Embed(title=embeds.cut(title, embeds.TITLE_MAX), colour=GOLD,
                          description="\n".join(lines.ranked))
    if lines.provisional:
        embed.add_field(name=t(lang, "league.provisional", count=PROVISIONAL_GAMES),
                        value="\n".join(lines.provisional), inline=False)
    footer = (t(lang, "league.ranking_footer_edition", games=ranking.games,
                edition=short_edition(ranking.edition, lang)) if ranking.edition
              else t(lang, "league.ranking_footer", games=ranking.games))
    embed.set_footer(text=footer)
    return embed


# -- a profile ----------------------------------------------------------------------------------------------------
def profile_card(profile: Profile, colour: int, lang: str) -> ProfileCard:
    """What `render.profile_card` draws of a person's profile; `colour`: their seat's in their latest game."""
    days = [datetime.fromtimestamp(p.rated_at, UTC).date() for p in profile.history]
    # The chart's ends are labelled by day; a history of a single day by its games' numbers instead.
    whens: list[date | int] = list(days) if len(set(days)) > 1 else [p.game_id for p in profile.history]
    history = tuple((when, float(p.after)) for when, p in zip(whens, profile.history, strict=True))
    best = profile.best_game
    return ProfileCard(
        name=_name(profile.name, lang), colour=colour,
        rating=float(profile.rating) if profile.rating is not None else None, provisional=profile.provisional,
        history=history, games=profile.games, wins=profile.wins, favourite_edition=profile.favourite_edition,
        best_game=BestGame(best.game_id, best.net_worth, best.edition) if best is not None else None,
        top_titles=tuple((title.edition, title.square) for title in profile.titles),
        opponents=tuple((_name(o.name, lang), o.games) for o in profile.opponents),
    )


def profile_embed(profile: Profile, lang: str) -> discord.Embed:
    """The card as the embed's picture, with the rating and the place in words above it (read aloud, searched)."""
    if profile.rating is None:
        line = t(lang, "league.profile_unrated", season=profile.season)
    elif profile.place is None:
        line = t(lang, "league.profile_provisional", rating=rating_text(profile.rating), season=profile.season,
                 count=PROVISIONAL_GAMES)
    else:
        line = t(lang, "league.profile_rated", rating=rating_text(profile.rating), rank=profile.place,
                 season=profile.season)
    embed = discord.Embed(title=embeds.cut(t(lang, "league.profile_title", name=_name(profile.name, lang)),
                                           embeds.TITLE_MAX), colour=GOLD, description=line)
    embed.set_image(url=f"attachment://{PROFILE}")
    return embed


def profile_view(user_id: int, season: int, lang: str) -> discord.ui.View:
    """The private card's button that shows it to the channel."""
    return components.view(components.button(NO_GAME, season, "show_profile", t(lang, "button.show_profile"),
                                             arg=user_id, emoji="📣"))


# -- the end of a game --------------------------------------------------------------------------------------------
def rating_lines(changes: Iterable[RatingChange], state: State, lang: str) -> list[str]:
    """What a game did to each person's rating, in the order of their placing."""
    lines = []
    for change in sorted(changes, key=lambda c: (c.placing, c.seat)):
        seat = state.seats[change.seat].name if change.seat < len(state.seats) else ""
        lines.append(t(lang, "league.rating_row", seat=_name(seat, lang),
                       change=change_text(change.before, change.after)))
    return lines


def end_view(game: int, lang: str, *, rematch: bool = True) -> discord.ui.View:
    """The end-of-game message's buttons: a rematch (until one is opened from it) and the replay."""
    items = []
    if rematch:
        items.append(components.button(game, 0, "rematch", t(lang, "button.rematch"), style=Style.primary,
                                       emoji="🔁"))
    items.append(components.button(game, 0, "replay", t(lang, "button.replay"), emoji="🎬"))
    return components.view(*items)


# -- a replay -----------------------------------------------------------------------------------------------------
def replay_about(row: GameRow, lang: str) -> str:
    """The replay's line: the edition, the length and how the game ended."""
    st = row.state
    edition = edition_name(row.edition, lang)
    if st is None:
        return edition
    if row.status == "finished" and st.winner is not None and st.winner >= 0:
        return t(lang, "league.replay_won", edition=edition, turns=st.turn, winner=_name(st.seats[st.winner].name,
                                                                                          lang))
    return t(lang, "league.replay_ended", edition=edition, turns=st.turn)


def replay_progress(game: int, done: int, total: int, lang: str) -> discord.Embed:
    """The deferred answer while a replay is drawn, edited every few seconds."""
    line = t(lang, "league.replay_progress", id=game, done=done, total=total) if total \
        else t(lang, "league.replay_waiting", id=game)
    return discord.Embed(title=t(lang, "league.replay_title", id=game), colour=embeds.GREY, description=line)


def replay_embed(row: GameRow, lang: str) -> discord.Embed:
    embed = discord.Embed(title=t(lang, "league.replay_title", id=row.id), colour=embeds.NEUTRAL,
                          description=replay_about(row, lang))
    embed.set_image(url=f"attachment://{REPLAY}")
    return embed


# -- the last games -----------------------------------------------------------------------------------------------
def _seat(player: PlacedPlayer, lang: str) -> str:
    """A player of a past game as the table showed them: a computer seat with its mark (a person a computer
    stood in for is still the person)."""
    return _label(player.name, player.computer if player.user_id is None else "", lang)


def _player(player: PlacedPlayer, lang: str) -> str:
    """"2. Beto 1,322 ▲13": the placing, the name, and for a rated person the rating after the game and its move."""
    line = t(lang, "league.history_player", rank=player.placing, name=_seat(player, lang))
    if player.rating_before is None or player.rating_after is None:
        return line
    return f"{line} {rating_text(player.rating_after)} {trend_text(player.rating_after - player.rating_before)}"


def _ended(game: GameSummary, lang: str) -> str:
    """A game its host ended, and whether its house rule rated it (docs/league.md): said wherever it is listed,
    since the profile and `/turista stats` count only the games played to their end."""
    return t(lang, "league.history_ended_rated" if game.season is not None else "league.history_ended")


def history_text(games: Sequence[GameSummary], lang: str) -> str:
    """The last games: when (a date each reader's Discord writes in their own way), the edition, the length, and
    the players by placing with their ratings after the game and how they moved."""
    lines = [t(lang, "history.title")]
    for game in games:
        when = int(game.finished_at or game.started_at)
        head = t(lang, "league.history_game", id=game.id, date=f"<t:{when}:d>",
                 edition=short_edition(game.edition, lang), turns=game.turns, minutes=max(1, round(game.minutes)))
        if game.status != "finished":
            head += " · " + _ended(game, lang)
        lines.append(head)
        lines.append(" · ".join(_player(p, lang) for p in game.players))
    return components.fit(lines[1:], head=lines[0], limit=components.MAX_CONTENT)


def history_view(games: Sequence[GameSummary], lang: str) -> discord.ui.View:
    """A select of the games listed: the one picked is replayed in the channel."""
    options = []
    for game in games:
        first = next((p for p in game.players if p.placing == 1), None)
        about = t(lang, "league.history_winner", name=_seat(first, lang)) \
            if first is not None and game.status == "finished" else _ended(game, lang)
        options.append(components.option(t(lang, "league.history_option", id=game.id,
                                           edition=short_edition(game.edition, lang)), game.id,
                                         description=about, emoji="🎬"))
    return components.view(components.select(NO_GAME, 0, "replay", t(lang, "league.history_pick"), options,
                                             arg="pick"))


# -- a season --------------------------------------------------------------------------------------------------------
def season_view(season: int, lang: str) -> discord.ui.View:
    """The confirmation of a new season: it carries the season it was shown for (a second click is refused)."""
    return components.view(
        components.button(NO_GAME, 0, "season_yes", t(lang, "button.season_yes", season=season + 1),
                          arg=season, style=Style.danger, emoji="🏁"),
        components.button(NO_GAME, 0, "season_no", t(lang, "button.cancel"), arg=season),
    )


def season_embed(season: int, by: str, lang: str) -> discord.Embed:
    return discord.Embed(title=t(lang, "league.season_title", season=season), colour=GOLD,
                         description=t(lang, "league.season_started", who=by, season=season, previous=season - 1))


# -- a person's data ------------------------------------------------------------------------------------------------
def privacy_text(data: PersonalData, guild_names: dict[int, str], lang: str) -> str:
    """Everything the bot keeps about the person who asks, in a few lines, and how to have it forgotten."""
    lines = [t(lang, "league.privacy_title")]
    if data.seats:
        guilds = sorted({s.guild_id for s in data.seats})
        names = sorted({s.name for s in data.seats})
        shown = ", ".join(guild_names.get(g, str(g)) for g in guilds[:5]) + (" …" if len(guilds) > 5 else "")
        lines.append(t(lang, "league.privacy_games", games=len(data.seats), count=len(guilds), names=", ".join(
            names[:5]) + (" …" if len(names) > 5 else ""), servers=shown))
    else:
        lines.append(t(lang, "league.privacy_no_games"))
    lines.append(t(lang, "league.privacy_actions", count=data.actions))
    seasons = len({(r.guild_id, r.season) for r in data.ratings})
    lines.append(t(lang, "league.privacy_ratings", count=len(data.ratings), seasons=seasons,
                   games=data.rating_changes))
    lines.append(t(lang, "league.privacy_hosted", count=len(data.hosted), seasons=len(data.seasons_started)))
    lines.append(t(lang, "league.privacy_forget"))
    return "\n".join(lines)[: components.MAX_CONTENT]


def forget_view(lang: str) -> discord.ui.View:
    return components.view(
        components.button(NO_GAME, 0, "forget_yes", t(lang, "button.forget_yes"), style=Style.danger, emoji="🗑️"),
        components.button(NO_GAME, 0, "forget_no", t(lang, "button.cancel")),
    )

"""The league's messages (`bot.face.league`): the ranking embed, a game's rating changes, the last games and their
select, a profile's card and words, what the bot keeps about a person; within Discord's limits, in both languages."""

from __future__ import annotations

import re
from dataclasses import replace

import discord
import pytest

from bot.face import league
from bot.store import (
    BestGame,
    GameSummary,
    Opponent,
    PersonalData,
    PersonalRating,
    PersonalSeat,
    PlacedPlayer,
    Profile,
    Ranking,
    RankingRow,
    RatingChange,
    RatingPoint,
    TitleCount,
)
from engine import new_game
from fakediscord.limits import check_message


def accepted(embed: discord.Embed) -> None:
    assert check_message({"embeds": [embed.to_dict()]}) == []


def row(place: int | None, user: int, name: str, rating: int, games: int, trend: int) -> RankingRow:
    return RankingRow(place, user, name, rating, 25.0, 5.0, games, games // 3, trend, 1, 0.0)


@pytest.mark.parametrize("lang", ["es", "en"])
def test_the_ranking_lists_the_ranked_by_rating_and_the_provisional_apart(lang: str) -> None:
    ranked = [row(1, 1, "Ana", 1184, 12, 21), row(2, 2, "Exjugador", 1040, 5, -8)]
    waiting = [row(None, 3, "Carl", 1068, 1, 68), row(None, 4, "Dora", 990, 2, -3)]
    embed = league.ranking_embed(Ranking(7, 2, None, 0.0, ranked, waiting, 14), lang)
    accepted(embed)
    assert "2" in (embed.title or "") and "14" in (embed.footer.text or "")
    lines = (embed.description or "").splitlines()
    assert lines[0].startswith("**1.** Ana · **1,184** ▲21") and lines[1].startswith("**2.** ")
    assert ("Former player" if lang == "en" else "Exjugador") in lines[1]
    assert embed.fields[0].name.startswith("Con menos de 3" if lang == "es" else "Fewer than 3")
    provisional = embed.fields[0].value.splitlines()
    # Listed by games played; a first game shows no change yet (there was nothing before it).
    assert provisional[0].startswith("Dora") and provisional[1].startswith("Carl") and "▲" not in provisional[1]


def test_an_editions_ranking_and_an_empty_season_say_so() -> None:
    embed = league.ranking_embed(Ranking(7, 1, "mundial", None, [], []), "es")
    assert "moderna" in (embed.title or "") and "Aún nadie" in (embed.description or "") and not embed.fields


def test_a_ranking_of_provisional_people_only_does_not_say_nobody_has_a_game() -> None:
    waiting = [row(None, 3, "Carl", 1068, 1, 68)]
    embed = league.ranking_embed(Ranking(7, 1, "mundial", 0.0, [], waiting, 1), "en")
    assert embed.description == "Nobody has a place yet: a place comes with 3 rated games in the season."
    assert embed.fields[0].value.startswith("Carl")
    # An edition's table counts that edition's games, and says so.
    assert (embed.footer.text or "").startswith("1 rated game of modern Turista this season")


def test_a_games_rating_changes_are_listed_by_placing() -> None:
    st, _ = new_game("turismundo", ["Ana", "Beto", "Lupita", "Exjugador"], 1, computers=["", "", "normal", ""])
    changes = [RatingChange(1, 2, 1, 1, 1, 1000, 1084, 28.0, 7.0), RatingChange(1, 1, 0, 3, 1, 1020, 1003, 24.0, 7.0),
               RatingChange(1, 9, 3, 4, 1, 1000, 1000, 25.0, 8.0)]
    assert league.rating_lines(changes, st, "en") == [
        "Beto: 1,000 → 1,084 (▲84)", "Ana: 1,020 → 1,003 (▼17)", "Former player: 1,000 → 1,000 (±0)"]


def summary(gid: int, status: str = "finished", long_names: bool = False) -> GameSummary:
    name = "Ñandú Ángel Pérez-Gómez 🎲 Ýñigo"[:32] if long_names else "Ana"
    players = [PlacedPlayer(1, 0, 1, name, "", 150_000, False, 1000, 1084),
               PlacedPlayer(2, 2, None, "Lupita", "normal", 90_000, False),
               PlacedPlayer(3, 1, 2, "Beto", "normal", 0, True, 1020, 1003)]  # a computer stood in for Beto
    return GameSummary(gid, 5, "turismundo", status, 1_700_000_000.0, 1_700_003_000.0, 64, 50.0,
                       1 if status == "finished" else None, players)


def test_the_last_games_tell_when_what_who_and_how_ratings_moved_within_a_message() -> None:
    games = [summary(12), summary(11, "abandoned")]
    text = league.history_text(games, "es")
    lines = text.splitlines()
    assert lines[1] == "**#12** · <t:1700003000:d> · Turismundo · 64 turnos · 50 min"
    assert lines[2] == "1. Ana 1,084 ▲84 · 2. 🤖 Lupita · 3. Beto 1,003 ▼17"
    assert lines[3].endswith("· Terminada por quien la organizaba · sin puntuar")
    # A game its host ended under the house rule that rates it says so.
    rated = replace(summary(11, "abandoned"), season=1)
    assert league.history_text([rated], "en").splitlines()[1].endswith("· Ended by its host · rated by its house rule")
    crowded = league.history_text([summary(k, long_names=True) for k in range(40)], "en")
    assert len(crowded) <= 2000 and "**#39**" in crowded
    view = league.history_view(games, "es")
    select = view.children[0]
    assert isinstance(select, discord.ui.Select)
    assert [o.value for o in select.options] == ["12", "11"] and select.options[0].description == "Ganó Ana"
    assert re.fullmatch(r"turista:0:0:replay:pick", select.custom_id or "")


def test_a_profile_becomes_the_card_render_draws_and_a_line_of_words() -> None:
    profile = Profile(7, 1, "Exjugador", 2, 1084, 28.0, 7.0, 3, False, 4, 2, 9, 3,
                      [RatingPoint(10, 2, 1, 1_700_000_000.0, "mundial", 1, 1000, 1050, 27.0, 7.5),
                       RatingPoint(11, 2, 2, 1_700_090_000.0, "turismundo", 2, 1050, 1084, 28.0, 7.0)],
                      "turismundo", BestGame(11, "turismundo", 180_000, 1, 1_700_090_000.0),
                      [TitleCount("turismundo", 39, 4)], [Opponent(2, "Beto", 6, 4)])
    card = league.profile_card(profile, 3, "en")
    assert card.name == "Former player" and card.colour == 3 and card.rating == 1084.0 and not card.provisional
    assert [v for _, v in card.history] == [1050.0, 1084.0] and card.history[0][0].year == 2023
    assert card.best_game is not None and card.best_game.game == 11 and card.best_game.worth == 180_000
    assert card.top_titles == (("turismundo", 39),) and card.opponents == (("Beto", 6),)
    embed = league.profile_embed(profile, "es")
    assert embed.description == "Puntuación **1,084** · 3.º lugar de la temporada 2"
    assert embed.image.url == "attachment://profile.png"


def test_what_the_bot_keeps_about_a_person_in_a_few_lines() -> None:
    seats = [PersonalSeat(k, 7 + k % 2, 5, "turismundo", "finished", 0, "Ana" if k else "Anita", "", 0.0, 1.0, 1,
                          100) for k in range(3)]
    data = PersonalData(1, seats, [PersonalRating(7, 1, "", "Ana", 25.0, 8.0, 3, 1)], 6, 140, [1], [])
    text = league.privacy_text(data, {7: "Mesa de pruebas"}, "es")
    assert "(Ana, Anita) en 3 partidas de 2 servidores: Mesa de pruebas, 8." in text
    assert "140 jugadas" in text and "1 en 1 temporada" in text and "/turista olvidarme" in text
    nothing = league.privacy_text(PersonalData(1, [], [], 0, 0, [], []), {}, "en")
    assert "You have not sat at any game." in nothing


def test_the_end_of_a_game_offers_a_rematch_until_one_is_opened_and_its_replay() -> None:
    def verbs(view: discord.ui.View) -> list[str]:
        return [str(getattr(item, "custom_id", "")) for item in view.children]

    assert verbs(league.end_view(42, "es")) == ["turista:42:0:rematch", "turista:42:0:replay"]
    assert verbs(league.end_view(42, "es", rematch=False)) == ["turista:42:0:replay"]

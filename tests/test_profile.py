"""The profile card: it draws for every kind of person, in both languages, and shows what it is given."""

from __future__ import annotations

import io
from dataclasses import replace
from datetime import date

import pytest
from PIL import Image

from engine import available, load
from render import BestGame, ProfileCard, profile_card
from render.profile import HEIGHT, PAD, WIDTH, _line_colour, name_lines, profile_image, when_text
from render.sample import sample_profile
from render.style import SEAT_COLOURS, TURISTA, contrast, seat_colour

LONG_NAMES = (
    "Ñandú Ángel Pérez-Gómez 🎲 Ýñigo",  # 32 characters, accents and an emoji
    "Maximiliano Hernández-Villalobos",
    "WWWWWWWWWWWWWWWWWWWWWWWWWWWWWWWW",  # one word, as wide as 32 letters get
    "🎲🎲🎲",  # nothing the fonts can draw
)


def drawn(card: ProfileCard, lang: str = "es") -> Image.Image:
    png = profile_card(card, lang)
    img = Image.open(io.BytesIO(png))
    assert img.format == "PNG" and img.size == (WIDTH, HEIGHT)
    assert WIDTH / HEIGHT >= 550 / 350  # the full width of Discord's preview box
    assert len(png) < 250_000
    return img.convert("RGB")


@pytest.mark.parametrize("lang", ["es", "en"])
@pytest.mark.parametrize("kind", ["full", "new", "long"])
def test_the_sample_cards_draw(kind: str, lang: str) -> None:
    drawn(sample_profile(kind), lang)


@pytest.mark.parametrize("name", LONG_NAMES)
def test_long_and_strange_names_draw(name: str) -> None:
    drawn(replace(sample_profile("full"), name=name, opponents=((name, 3), ("Ana", 1))))


def test_a_long_name_with_spaces_takes_two_lines_uncut() -> None:
    for name in LONG_NAMES[:2]:
        _, lines = name_lines(name)
        assert len(lines) == 2 and not any(line.endswith("…") for line in lines)
        assert " ".join(lines) == name.replace(" 🎲", "")
    assert name_lines("Ana") == (60, ["Ana"])
    size, lines = name_lines(LONG_NAMES[2])
    assert lines[-1].endswith("…")


def test_nothing_played_yet() -> None:
    card = ProfileCard(name="Beto", colour=1, rating=None)
    drawn(card, "en")
    drawn(replace(card, games=3, wins=0, history=((date(2025, 5, 1), 3.0),)), "es")


@pytest.mark.parametrize("history", [
    ((1, 5.0), (2, 5.0), (3, 5.0)),  # flat
    ((7, 12.5),),  # one game
    tuple((k, 1000.0 + k * 3) for k in range(300)),  # many games on another scale
    ((date(2024, 12, 30), 4.0), (date(2025, 1, 2), 6.5)),  # across a new year
])
def test_histories_draw(history: tuple) -> None:
    drawn(replace(sample_profile("full"), history=history, rating=history[-1][1]))


def test_points_of_the_history_read_as_days_or_game_numbers() -> None:
    assert when_text(date(2025, 3, 12), "es") == "12 mar"
    assert when_text(date(2025, 3, 12), "en", with_year=True) == "12 Mar 2025"
    assert when_text(42, "en") == "#42"


@pytest.mark.parametrize("edition", available())
def test_titles_and_best_game_of_every_edition(edition: str) -> None:
    squares = [sq.index for sq in load(edition).squares if sq.kind in ("country", "airline", "utility")]
    card = replace(sample_profile("full"), favourite_edition=edition, best_game=BestGame(3, 987_654, edition),
                   top_titles=tuple((edition, s) for s in squares[:2] + squares[-3:]))
    drawn(card, "en")


def test_the_token_is_in_the_persons_colour() -> None:
    for colour in range(len(SEAT_COLOURS)):
        img = profile_image(replace(sample_profile("full"), colour=colour))
        # Below the letter, inside the white rim of the token.
        assert img.getpixel((PAD + 56, 80 + 38)) == seat_colour(colour)


def test_the_rating_line_stands_out_in_every_colour() -> None:
    for colour in range(len(SEAT_COLOURS)):
        assert contrast(_line_colour(colour), TURISTA.panel_row) >= 3


def test_the_card_is_pure() -> None:
    card = sample_profile("full")
    assert profile_card(card, "en") == profile_card(card, "en")
    assert profile_card(card, "es") != profile_card(card, "en")

"""The league's rules without a database: who is rated and how (openskill's Plackett-Luce), the placings of a
game, the house rule, the shown rating and the name of a forgotten person."""

from __future__ import annotations

import random
import subprocess
import sys
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

import engine
import words
from bot import league
from bot.league import COMPUTER_SKILLS, NEWCOMER, Placed, Skill
from bot.league.rating import MODEL
from bot.table.names import safe
from devkit.synthetic import choose
from engine.ai.levels import LEVELS
from engine.simulate import play
from render.panel import RowView
from render.replay import Moment, replay_picture
from render.texts import seat_letters

ROOT = Path(__file__).resolve().parents[1]


def test_the_league_imports_neither_discord_nor_the_rest_of_the_bot() -> None:
    code = (
        "import sys, bot.league; "
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'discord' or"
        " (m.startswith('bot.') and not m.startswith('bot.league'))))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


def test_a_game_is_rated_as_openskill_rates_it_with_computers_at_their_fixed_skill() -> None:
    seats = [Placed(0, 3, 11), Placed(1, 1, 12), Placed(2, 2, None, "dificil"), Placed(3, 4, 13)]
    before = {11: Skill(27.0, 5.0), 12: Skill(22.5, 6.1)}  # 13 plays their first game
    changes = league.rate(seats, before)

    model = PlackettLuce()
    dificil = COMPUTER_SKILLS["dificil"]
    teams = [[model.rating(mu=27.0, sigma=5.0)], [model.rating(mu=22.5, sigma=6.1)],
             [model.rating(mu=dificil.mu, sigma=dificil.sigma)], [model.rating()]]  # fmt: skip
    expected = model.rate(teams, ranks=[3.0, 1.0, 2.0, 4.0])
    assert [(c.user_id, c.seat, c.placing) for c in changes] == [(11, 0, 3), (12, 1, 1), (13, 3, 4)]
    assert [c.after for c in changes] == [Skill(expected[i][0].mu, expected[i][0].sigma) for i in (0, 1, 3)]
    assert [c.before for c in changes] == [before[11], before[12], NEWCOMER]
    assert [c.won for c in changes] == [False, True, False]
    assert changes[1].after.mu > changes[1].before.mu and changes[2].after.mu < changes[2].before.mu


def test_the_order_seats_are_given_in_changes_nothing() -> None:
    seats = [Placed(s, r, 20 + s) for s, r in enumerate([2, 4, 1, 3])] + [Placed(4, 5, None, "facil")]
    shuffled = seats[:]
    random.Random(1).shuffle(shuffled)
    assert league.rate(seats, {}) == league.rate(shuffled, {})


def test_fewer_than_two_people_rate_nobody() -> None:
    assert league.rate([Placed(0, 1, 7), Placed(1, 2, None, "normal"), Placed(2, 3, None, "dificil")], {}) == []
    assert not league.rated([Placed(0, 2, 7), Placed(1, 1, None, "facil")])
    assert league.rated([Placed(0, 2, 7), Placed(1, 1, 8)])


def test_a_seat_a_computer_stood_in_for_still_rates_its_person() -> None:
    stood_in = [Placed(0, 1, 7, "normal"), Placed(1, 2, 8)]
    plain = [Placed(0, 1, 7), Placed(1, 2, 8)]
    assert [c.user_id for c in league.rate(stood_in, {})] == [7, 8]
    assert league.rate(stood_in, {}) == league.rate(plain, {})


def test_a_forgotten_person_counts_as_a_newcomer_opponent() -> None:
    forgotten = [Placed(0, 1, None, ""), Placed(1, 2, 8)]
    assert league.rated(forgotten)
    assert league.rate(forgotten, {}) == [
        c for c in league.rate([Placed(0, 1, 99), Placed(1, 2, 8)], {}) if c.user_id == 8
    ]


def test_every_computer_level_has_a_fixed_skill_in_its_order_of_strength() -> None:
    assert set(COMPUTER_SKILLS) == set(LEVELS)
    assert COMPUTER_SKILLS["facil"].mu < COMPUTER_SKILLS["normal"].mu < COMPUTER_SKILLS["dificil"].mu
    # An unknown level plays as the default one (engine.ai.levels.style_of), and counts as it.
    unknown = league.rate([Placed(0, 1, 7), Placed(1, 2, 8), Placed(2, 3, None, "tramposo")], {})
    normal = league.rate([Placed(0, 1, 7), Placed(1, 2, 8), Placed(2, 3, None, "normal")], {})
    assert unknown == normal


def test_a_person_in_two_seats_or_a_placing_of_zero_is_refused() -> None:
    with pytest.raises(ValueError):
        league.rate([Placed(0, 1, 7), Placed(1, 2, 7)], {})
    with pytest.raises(ValueError):
        league.rate([Placed(0, 0, 7), Placed(1, 1, 8)], {})


def test_the_shown_rating_is_the_conservative_estimate() -> None:
    assert league.shown(NEWCOMER) == 1000
    assert league.shown(Skill(30.0, 2.0)) == round(1000 + 20 * (30.0 - 6.0))
    rng = random.Random(4)
    for skill in [Skill(rng.uniform(-20, 60), rng.uniform(0.5, 9)) for _ in range(2000)]:
        ordinal = MODEL.rating(mu=skill.mu, sigma=skill.sigma).ordinal(z=3, alpha=20, target=1000)
        assert league.shown(skill) == round(ordinal)
    # One lucky win against a newcomer shows less than a long record of middling games.
    lucky = league.rate([Placed(0, 1, 1), Placed(1, 2, 2)], {})[0].after
    steady = Skill(27.0, 3.0)
    assert lucky.mu > steady.mu and league.shown(lucky) < league.shown(steady)
    assert league.provisional(league.PROVISIONAL_GAMES - 1) and not league.provisional(league.PROVISIONAL_GAMES)


def test_placings_follow_the_end_of_game_standings() -> None:
    state, _ = engine.new_game("turismundo", ["A", "B", "C", "D"], 5, computers=["normal"] * 4)
    play(state)
    assert state.phase == "over"
    assert league.placings(state) == {s.seat: s.rank for s in state.standings}


def test_a_game_ended_by_its_host_is_placed_as_things_stood() -> None:
    state, _ = engine.new_game("mundial", ["A", "B", "C"], 9)
    rng = random.Random(3)
    while state.turn < 12 and (action := choose(state, rng)) is not None:
        state, _ = engine.apply(state, action)
    state.seats[1].out = True  # out of the game: ranked after everyone still in
    state.eliminated.append(1)
    assert not state.standings
    placing = league.placings(state)
    assert placing == {s.seat: s.rank for s in engine.standings(state)}
    assert placing[1] == 3


def test_the_house_rule_is_off_unless_set() -> None:
    assert league.RATED_WHEN_ENDED == "rated_when_ended"
    assert league.HOUSE_RULES == {"rated_when_ended": False}
    assert not league.rated_when_ended({})
    assert league.rated_when_ended({"rated_when_ended": True, "thread": False})


def test_a_forgotten_person_s_name_is_stored_in_no_language_and_shown_in_the_reader_s() -> None:
    stored = league.former_name("C")
    assert league.is_former(stored) and league.former_letter(stored) == "C" and "Exjugador" not in stored
    assert league.shown_name(stored, "en") == "Former player" and league.shown_name(stored, "es") == "Exjugador"
    # No name a person chooses can be taken for it: the mark is one of the invisible characters a name loses.
    assert safe(stored) == "C" and not league.is_former(safe(stored))
    with pytest.raises(ValueError):
        league.former_name("Ca")
    # The form stored before, in Spanish whatever the server's language, is shown in the reader's too.
    assert league.is_former("Exjugador (2)") and not league.is_former("Ana")
    assert league.former_letter("Exjugador") is None
    assert league.shown_name("Exjugador", "en") == "Former player"
    assert league.shown_name("Exjugador (2)", "en") == "Former player (2)"
    assert league.shown_name("Exjugador", "es") == "Exjugador"
    assert league.shown_name("Ana", "en") == "Ana"


def test_a_forgotten_seat_keeps_its_token_s_letter_and_so_do_the_others() -> None:
    state, _ = engine.new_game("turismundo", ["Carla", "Carlos", "Ana"], 1)
    before = seat_letters(state)
    assert before == ["C", "A", "N"]
    state.seats[0].name = league.former_name(before[0])
    assert seat_letters(state) == before
    assert words.describe({"code": "game_over", "winner": 0}, state, "en") == "Game over! Former player wins."


def test_a_replay_draws_a_forgotten_seat_in_the_reader_s_language_with_its_letter() -> None:
    state, _ = engine.new_game("turismundo", ["Carla", "Carlos", "Ana"], 1)
    state.seats[0].name = league.former_name("C")
    for lang, shown in (("en", "Former player"), ("es", "Exjugador")):
        picture = replay_picture(Moment(state, 3, (), False), 40, lang)
        rows = {p.seat: (p.letter, p.name) for p in picture.panel if isinstance(p, RowView)}
        assert rows == {0: ("C", shown), 1: ("A", "Carlos"), 2: ("N", "Ana")}

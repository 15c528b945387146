"""Alt text (`words.alt`): every picture's words over sample games of every edition, in both languages, within
Discord's 1,024 characters and saying what the picture shows."""

from __future__ import annotations

import pytest

import engine
from engine import available, load, standings
from render.sample import busy_state, play, sample_profile, simple_choice
from words import LANGUAGES, account, alt, money, square_name

EDITIONS = available()


def _positions(edition: str) -> list[tuple[engine.State, list[dict]]]:
    """A few positions of a cautious six-seat game, each with the events of its turn so far."""
    first, steps = play(edition, seed=11, turns=80, seats=6, choose=simple_choice)
    st = engine.clone(first)
    turn: list[dict] = []
    found = []
    for k, (action, events) in enumerate(steps):
        engine.apply_inplace(st, action)
        if any(e["code"] == "turn_started" for e in events):
            turn = []
        turn.extend(events)
        if k % max(1, len(steps) // 6) == 0 or k == len(steps) - 1:
            found.append((engine.clone(st), list(turn)))
    return [*found, (busy_state(edition), [])]


@pytest.fixture(scope="module", params=EDITIONS)
def positions(request: pytest.FixtureRequest) -> list[tuple[engine.State, list[dict]]]:
    return _positions(request.param)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_board_alt_says_the_turn_the_players_and_the_news(positions, lang: str) -> None:
    for st, events in positions:
        words = alt.board(st, lang, events)
        assert 0 < len(words) <= alt.MAX
        assert f" {st.turn}" in words
        assert alt.decision(st, lang) in words
        currency = load(st.edition).currency
        for seat in st.seats:
            assert seat.name in words
            if not seat.out:
                assert money(seat.cash, currency) in words
                assert square_name(st.edition, seat.pos, lang) in words
        told = account([e for e in events if e["code"] != "turn_started"], st, lang)
        if told and len(words) < alt.MAX - 200:
            # What the turn changed, its newest sentence at least, when there was room for it.
            assert told[-1][1:] in words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_board_alt_names_the_titles_while_they_fit(lang: str) -> None:
    st = busy_state("turismundo")
    words = alt.board(st, lang)
    for square, owner in enumerate(st.owner):
        if owner >= 0:
            assert square_name(st.edition, square, lang) in words
    # The same board after a long turn keeps within Discord's limit, the decision and every player.
    long_turn = [{"code": "rolled", "seat": 0, "dice": [3, 4]}] * 200
    crowded = alt.board(st, lang, long_turn)
    assert len(crowded) <= alt.MAX
    assert alt.decision(st, lang) in crowded
    assert all(seat.name in crowded for seat in st.seats)


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("edition", EDITIONS)
def test_deed_summary_and_replay_alt(edition: str, lang: str) -> None:
    st = busy_state(edition)
    ed = load(edition)
    for sq in ed.squares:
        if sq.kind not in alt.TITLE_KINDS:
            continue
        words = alt.deed(edition, sq.index, st, lang)
        assert len(words) <= alt.MAX
        assert square_name(edition, sq.index, lang) in words
        assert money(sq.price, ed.currency) in words
        assert st.seats[st.owner[sq.index]].name in words
        assert square_name(edition, sq.index, lang) in alt.deed(edition, sq.index, None, lang)
    for words in (alt.summary(st, lang), alt.replay(st, lang, 42)):
        assert len(words) <= alt.MAX
        ranking = [row.seat for row in standings(st)]
        places = [words.index(st.seats[seat].name, words.index(alt.decision(st, lang)) + 1) for seat in ranking]
        assert places == sorted(places), "the ranking in its order"
    assert "42" in alt.replay(st, lang, 42)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_profile_alt(lang: str) -> None:
    for kind in ("full", "new"):
        card = sample_profile(kind)
        words = alt.profile(card, lang)
        assert card.name in words and len(words) <= alt.MAX
        for name, _ in card.opponents[:3]:
            assert name in words

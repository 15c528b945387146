"""The replay: an animated picture of a whole game, a frame per turn or per round, ending on the standings."""

from __future__ import annotations

import io
import time

import pytest
from PIL import Image, ImageChops

from engine import to_json
from render import replay
from render.panel import BannerView, HeaderView, RowView
from render.png import palette
from render.replay import (
    FORMATS,
    REPLAY_WIDTH,
    ROUND_FRAMES,
    SUMMARY_MS,
    TURN_FRAMES,
    _scaled,
    _summary_frame,
    moments,
    pick,
    placings,
    plan,
    replay_picture,
)
from render.sample import final_state, play, simple_choice

LIMIT_BYTES = 8_000_000


def frames_of(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert getattr(img, "is_animated", False)
    return img


@pytest.fixture(scope="module")
def short_game() -> tuple:
    first, steps = play("turismundo", seed=5, turns=12, choose=simple_choice)
    return first, steps


@pytest.fixture(scope="module")
def short_gif(short_game: tuple) -> bytes:
    return replay(*short_game, "en")


def test_a_short_game_has_a_frame_per_turn_then_the_standings(short_game: tuple, short_gif: bytes) -> None:
    first, steps = short_game
    assert final_state(first, steps).turn == 13  # twelve turns played
    img = frames_of(short_gif)
    assert img.format == "GIF"
    # The start, each of the 12 turns, the end-of-game picture.
    assert img.n_frames == 1 + 12 + 1
    assert img.size == (REPLAY_WIDTH, 344)
    assert len(short_gif) < LIMIT_BYTES
    img.seek(0)
    assert img.convert("RGB").getbbox() is not None


def test_the_last_frame_is_the_end_of_game_picture_held_longest(short_game: tuple, short_gif: bytes) -> None:
    first, steps = short_game
    img = frames_of(short_gif)
    durations = []
    for k in range(img.n_frames):
        img.seek(k)
        durations.append(img.info["duration"])
    last = img.convert("RGB")
    expected = _scaled(_summary_frame(first, steps, "en"), REPLAY_WIDTH, palette("board", "turismundo", "en"))
    assert ImageChops.difference(last, expected.convert("RGB")).getbbox() is None
    assert durations[-1] == SUMMARY_MS == max(durations)


def test_replay_is_pure_and_takes_actions_or_logged_pairs(short_game: tuple, short_gif: bytes) -> None:
    first, steps = short_game
    before = to_json(first)
    assert replay(first, [action for action, _ in steps], "en") == short_gif
    assert to_json(first) == before


def test_progress_is_told_after_every_frame(short_game: tuple) -> None:
    seen: list[tuple[int, int]] = []
    replay(*short_game, "es", progress=lambda done, total: seen.append((done, total)))
    total = seen[-1][1]
    assert [done for done, _ in seen] == list(range(1, total + 1))
    assert {t for _, t in seen} == {total} and total == 14


def test_a_long_game_has_a_frame_per_round() -> None:
    first, steps = play("mundial", seed=5, turns=100, choose=simple_choice)
    st = final_state(first, steps)
    assert not any(s.out for s in st.seats) and len(st.seats) == 4
    assert TURN_FRAMES < 100
    img = frames_of(replay(first, steps, "es"))
    assert img.n_frames == 1 + 100 // 4 + 1


def test_a_very_long_game_keeps_the_frame_budget() -> None:
    first, steps = play("turismundo", seed=5, turns=300)
    assert final_state(first, steps).phase != "over"
    drawn = pick(moments(first, steps))
    assert len(drawn) <= ROUND_FRAMES + 2
    assert drawn[-1].turn == 300


def test_a_150_turn_game_is_quick_and_small() -> None:
    first, steps = play("monopolio", seed=5, turns=150)
    start = time.process_time()
    data = replay(first, steps, "es")
    assert time.process_time() - start < 30
    assert len(data) < LIMIT_BYTES


def test_the_banner_names_the_leader_and_the_rows_their_placing(short_game: tuple) -> None:
    first, steps = short_game
    moment = moments(first, steps)[-1]
    places = placings(moment.state)
    pic = replay_picture(moment, 12, "en")
    banner = next(p for p in pic.panel if isinstance(p, BannerView))
    header = next(p for p in pic.panel if isinstance(p, HeaderView))
    leaders = [s for s, place in places.items() if place == 1]
    assert banner.who == ", ".join(moment.state.seats[s].name for s in moment.state.order if s in leaders)
    assert header.turn == "Turn 12 of 12"
    rows = [p for p in pic.panel if isinstance(p, RowView)]
    assert {r.seat: r.rank for r in rows} == places
    assert not any(r.glowing for r in rows) and not any(t.glowing for t in pic.tokens)


def test_a_finished_game_ends_on_the_engine_standings() -> None:
    first, steps = play("turismundo", seed=3, turns=300)
    st = final_state(first, steps)
    assert st.phase == "over"
    last = moments(first, steps)[-1]
    assert last.state.phase == "over" and last.turn == st.turn
    pic = replay_picture(last, last.turn, "es")
    rows = [p for p in pic.panel if isinstance(p, RowView)]
    assert [r.seat for r in rows] == [s.seat for s in sorted(st.standings, key=lambda s: s.rank)]
    durations = plan(first, steps).durations
    assert len(durations) == len(pick(moments(first, steps))) + 1


def test_a_game_with_no_moves_still_makes_a_picture() -> None:
    first, _ = play("turismundo", seed=5, turns=0, choose=simple_choice)
    img = Image.open(io.BytesIO(replay(first, [], "en")))
    assert img.n_frames == 2  # the board at the start and the (empty) summary


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_has_the_same_frames(short_game: tuple, fmt: str) -> None:
    data = replay(*short_game, "en", fmt=fmt)
    img = frames_of(data)
    assert img.format == {"gif": "GIF", "webp": "WEBP", "apng": "PNG"}[fmt]
    assert img.n_frames == 14


def test_an_unknown_format_is_refused(short_game: tuple) -> None:
    with pytest.raises(ValueError, match="unknown replay format"):
        replay(*short_game, fmt="mp4")

"""What the picture workers run: pictures drawn from a state's JSON. It imports only `render` and `engine`,
so a worker process carries neither discord.py nor the store (about 30 MB and half a second less each)."""

from __future__ import annotations

from collections.abc import Callable

import render
from engine import from_json


def worker_start(warm: bool) -> None:
    """A new worker: every edition and language drawn once."""
    if warm:
        render.warm_up()


def board(state_json: bytes, lang: str, events: tuple[dict, ...], absent: tuple[int, ...],
          minutes_left: int | None) -> bytes:
    return render.board(from_json(state_json), lang, events=events, absent=absent, minutes_left=minutes_left)


def deed(edition: str, square: int, state_json: bytes | None, lang: str) -> bytes:
    return render.deed(edition, square, from_json(state_json) if state_json else None, lang)


def summary(first_json: bytes, actions: list, lang: str) -> bytes:
    return render.summary(render.history_from_log(from_json(first_json), actions), lang)


def replay(first_json: bytes, actions: list, lang: str, progress: Callable[[int, int], None] | None = None) -> bytes:
    """The game's animated replay, rebuilt from its first state and its actions; `progress(done, total)` after
    each frame."""
    return render.replay(from_json(first_json), actions, lang, progress=progress)


def profile(card: render.ProfileCard, lang: str) -> bytes:
    return render.profile_card(card, lang)


def prepare(edition: str, lang: str) -> None:
    render.prepare(edition, lang)

"""What the picture workers run: pictures drawn from a state's JSON. It imports only `render` and `engine`,
so a worker process carries neither discord.py nor the store (about 30 MB and half a second less each)."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import render
from bot.pictures.kept import PaletteFolder
from engine import available, from_json
from render.png import keep_palettes
from words import LANGUAGES


def worker_start(palettes: str | None) -> None:
    """A new worker: the palettes it learns are kept in the folder `palettes` (None: in memory only)."""
    keep_palettes(PaletteFolder(palettes) if palettes else None)


# The edition `/turista new` opens by default, and the language a server gets unless it prefers English: the
# first table after a start is most likely theirs, so the warm-up begins with them.
LIKELIEST = ("turismundo", "es")


def warming(warm: bool) -> Iterator[None]:
    """A worker's warm-up, a step at a time: every edition in every language drawn once (each step about 0.1 s
    with its palette kept on disk, 0.5 s without), so that no table's first picture pays for it."""
    if warm:
        steps = [(edition, lang) for edition in available() for lang in LANGUAGES]
        steps.sort(key=lambda step: step != LIKELIEST)
        for edition, lang in steps:
            render.prepare(edition, lang)
            yield


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

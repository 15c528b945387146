"""What the picture workers run: pictures drawn from a state's JSON. It imports only `render` and `engine`,
so a worker process carries neither discord.py nor the store (about 30 MB and half a second less each)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import render
from bot.pictures.kept import PaletteFolder
from engine import available, from_json
from render.png import keep_palettes
from words import LANGUAGES

# A worker process's own: the folder its palettes are kept in, and the editions and languages it has drawn once.
_kept: PaletteFolder | None = None
_prepared: set[tuple[str, str]] = set()


def worker_start(palettes: str | None) -> None:
    """A new worker: the palettes it learns are kept in the folder `palettes` (None: in memory only)."""
    global _kept
    _kept = PaletteFolder(palettes) if palettes else None
    keep_palettes(_kept)


# The edition `/turista new` opens by default, and the language a server gets unless it prefers English: the
# first table after a start is most likely theirs, so the warm-up begins with them.
LIKELIEST = ("turismundo", "es")


def _steps(share: int, workers: int) -> tuple[list[tuple[str, str]], int]:
    """Every edition in every language, in the order worker `share` of `workers` draws them: the likeliest first,
    then its share of the others, then the rest (which the other workers learn meanwhile and keep on disk); with
    how many of them are the worker's own."""
    others = [(edition, lang) for edition in available() for lang in LANGUAGES if (edition, lang) != LIKELIEST]
    own = others[share::workers]
    return [LIKELIEST, *own, *(step for step in others if step not in own)], 1 + len(own)


def warming(warm: bool, share: int = 0, workers: int = 1) -> Iterator[None]:
    """A worker's warm-up, a step at a time: every edition in every language drawn once (each step about 0.1 s
    with its palette kept on disk, 0.5 s without), so that no table's first picture pays for it."""
    if warm:
        for edition, lang in _steps(share, workers)[0]:
            if (edition, lang) not in _prepared:
                prepare(edition, lang)
            yield


def settle(warm: bool, seconds: float, share: int = 0, workers: int = 1) -> bool:
    """Before the bot connects: the likeliest step of the warm-up and, if this worker found a palette missing from
    its folder (the first start after an install, or after a release that draws otherwise), the rest of its own
    share at once, for at most `seconds`; whether it got that far. A step whose palette must be learnt takes half
    a second, and a table's first picture would wait for the one under way; the workers learn a share each, side
    by side, and find the others' on disk. With every palette kept, a step is short and the rest is left to the
    worker's quiet moments."""
    if not warm:
        return True
    end = time.monotonic() + seconds
    steps, own = _steps(share, workers)
    for k, (edition, lang) in enumerate(steps[:own]):
        if (edition, lang) in _prepared:
            continue
        if k > 0 and _kept is not None and not _kept.missed:
            return True
        if k > 0 and time.monotonic() >= end:
            return False
        prepare(edition, lang)
    return True


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
    _prepared.add((edition, lang))

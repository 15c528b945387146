"""The pictures of the tables as the files Discord's messages carry (drawn by `bot.pictures`)."""

from __future__ import annotations

import io
from collections.abc import Iterable

import discord

import engine
from bot import pictures
from bot.face.embeds import BOARD, DEED, SUMMARY
from bot.face.league import PROFILE, REPLAY
from bot.pictures.pool import Progress
from bot.table.storage import Storage
from engine import State, standing
from render import ProfileCard
from words import alt

# The most a replay may weigh: Discord takes 10 MB from a bot in any server (8 MB until 2024), and a replay of
# the longest game stays far below (at most about 90 frames whatever its length: bench/replay.py).
MAX_REPLAY_BYTES = 8 * 1024 * 1024


class TooBig(Exception):
    """A picture heavier than Discord takes."""


def _file(data: bytes, name: str, description: str) -> discord.File:
    """A picture as an attachment, with its alt text (`words.alt`): what a screen reader says in its place."""
    return discord.File(io.BytesIO(data), filename=name, description=alt.cut(description))


async def board_file(state: State, lang: str, *, table: int = 0, events: Iterable[dict] = (),
                     absent: Iterable[int] = (), minutes_left: int | None = None) -> discord.File:
    events = list(events)
    return _file(await pictures.board(state, lang, table=table, events=events, absent=absent,
                                      minutes_left=minutes_left), BOARD, alt.board(state, lang, events))


async def board_if_changed(state: State, lang: str, *, table: int, events: Iterable[dict] = (),
                           absent: Iterable[int] = (), minutes_left: int | None = None) -> discord.File | None:
    """The board of `table` as a file, or None when the table already shows this very picture."""
    events = list(events)
    data = await pictures.board_if_changed(state, lang, table=table, events=events, absent=absent,
                                           minutes_left=minutes_left)
    return None if data is None else _file(data, BOARD, alt.board(state, lang, events))


async def deed_file(edition: str, square: int, state: State | None, lang: str, *, table: int = 0) -> discord.File:
    return _file(await pictures.deed(edition, square, state, lang, table=table), DEED,
                 alt.deed(edition, square, state, lang))


async def logged_game(storage: Storage, game: int) -> tuple[State, list] | None:
    """The game's first state and the actions that stand in its log, the moves taken back left out (None for a
    game never started)."""
    first = await storage.initial_state(game)
    if first is None:
        return None
    rows = await storage.log(game)
    return first, standing(action for row in rows if (action := row.decoded_action()) is not None)


async def summary_file(storage: Storage, game: int, lang: str, final: State) -> discord.File | None:
    """The end-of-game picture, replayed from the game's action log (`final`: the game's last state, which its
    alt text tells)."""
    logged = await logged_game(storage, game)
    if logged is None:
        return None
    return _file(await pictures.summary(*logged, lang, table=game), SUMMARY, alt.summary(final, lang))


async def replay_file(storage: Storage, game: int, lang: str, *,
                      progress: Progress | None = None) -> discord.File | None:
    """The game's animated replay, rebuilt from its log by the replays' worker (None for a game never started);
    TooBig if it weighs more than Discord takes."""
    logged = await logged_game(storage, game)
    if logged is None:
        return None
    data = await pictures.replay(*logged, lang, progress=progress)
    if len(data) > MAX_REPLAY_BYTES:
        raise TooBig(len(data))
    return _file(data, REPLAY, alt.replay(last_state(*logged), lang, game))


async def profile_file(card: ProfileCard, lang: str, *, user: int) -> discord.File:
    return _file(await pictures.profile(card, lang, user=user), PROFILE, alt.profile(card, lang))


def last_state(first: State, actions: list) -> State:
    """The state a game's log ends in (its replay's alt text tells how the game ended): a few milliseconds for
    the longest game, on a replay that takes its worker a second or two."""
    state = engine.clone(first)
    for action in actions:
        engine.apply_inplace(state, action)
    return state

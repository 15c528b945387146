"""A seat changing hands during a game: a person leaves their seat to a computer, or sits down in a computer's
seat (their own again, or one played by a computer from the start), with its cash, titles and turn.

Like a take-back (`engine.takeback`), each is an entry of the game's log that is not a move of the rules:
`HAND_OVER` and `SIT`, with the seat. The seat keeps everything but who plays it, so the game goes on as it
was, and a replay of the log gives the same states. Not even its name changes: who sits there is the bot's to
know and to say (a name in the log could not be forgotten, the log being append-only).
"""

from __future__ import annotations

from typing import Final

from engine.actions import Action, IllegalAction
from engine.ai.levels import DEFAULT_LEVEL
from engine.edition import load
from engine.rules import Event, Game, apply_inplace
from engine.state import State, clone

SIT: Final = "sit"  # the log's kind of a person sitting down in a computer's seat
HAND_OVER: Final = "hand_over"  # the log's kind of a person leaving their seat to a computer


def sit_refusal(state: State, seat: int) -> tuple[str, dict[str, object]] | None:
    """Why nobody may sit down in `seat` now (a code and its parameters), or None: it must be a computer's,
    still in a game still in play."""
    if state.phase == "over":
        return "game_over", {}
    if not 0 <= seat < len(state.seats) or state.seats[seat].out or not state.seats[seat].computer:
        return "seat_not_free", {}
    return None


def sit_inplace(state: State, seat: int) -> list[Event]:
    """A person takes the computer's seat `seat` of `state` itself, as the next version."""
    why = sit_refusal(state, seat)
    if why is not None:
        raise IllegalAction(why[0], **why[1])
    was = state.seats[seat].name
    state.seats[seat].computer = ""
    state.version = state.version + 1
    told = Game(state, load(state.edition))
    told.emit("seat_taken", seat=seat, was=was)
    return told.ev


def sit(state: State, seat: int) -> tuple[State, list[Event]]:
    """`sit_inplace` on a copy: the new state and its events (`state` is not changed)."""
    new = clone(state)
    return new, sit_inplace(new, seat)


def hand_over_refusal(state: State, seat: int) -> tuple[str, dict[str, object]] | None:
    """Why `seat` may not be left to a computer now, or None: a person's seat still in a game still in play."""
    if state.phase == "over":
        return "game_over", {}
    if not 0 <= seat < len(state.seats) or state.seats[seat].out or state.seats[seat].computer:
        return "seat_not_held", {}
    return None


def hand_over_inplace(state: State, seat: int) -> list[Event]:
    """The person playing `seat` of `state` itself leaves it to a computer (of the default level), as the next
    version."""
    why = hand_over_refusal(state, seat)
    if why is not None:
        raise IllegalAction(why[0], **why[1])
    state.seats[seat].computer = DEFAULT_LEVEL
    state.version = state.version + 1
    told = Game(state, load(state.edition))
    told.emit("seat_left", seat=seat)
    return told.ev


def hand_over(state: State, seat: int) -> tuple[State, list[Event]]:
    """`hand_over_inplace` on a copy: the new state and its events (`state` is not changed)."""
    new = clone(state)
    return new, hand_over_inplace(new, seat)


def replay_inplace(state: State, action: Action) -> list[Event]:
    """Apply one entry of a game's log to `state` itself: a move of the rules, or a seat changing hands. A log
    with take-backs goes through `engine.takeback.standing` first, which leaves none."""
    if action.kind == SIT:
        return sit_inplace(state, action.seat)
    if action.kind == HAND_OVER:
        return hand_over_inplace(state, action.seat)
    return apply_inplace(state, action)

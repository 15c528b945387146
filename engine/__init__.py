"""The rules of Turista Mundial as a pure, deterministic engine.

    state, events = new_game("turismundo", ["Ana", "Beto"], seed=7)
    for action in legal_actions(state, state.current): ...
    state, events = apply(state, action)

No I/O but reading `data/`; no clock, no global random: the same seed and actions replay the same game.

The modules are the reference in Python. An install that compiles them (see setup.py) adds them as C
extensions, which Python then prefers; `COMPILED` tells which ones run (`engine.compiled`).
"""

from engine.actions import SYSTEM, Action, IllegalAction, Offer, Trade
from engine.compiled import runs_compiled
from engine.edition import DATA_DIR, Edition, available, load
from engine.legal import legal_actions as _legal_actions
from engine.legal import legal_kinds as _legal_kinds
from engine.legal import refusal
from engine.rules import Event, apply, apply_inplace, new_game
from engine.state import BANK, HOTEL, POT, Settings, State, clone, from_json, to_json

# Whether the rules run compiled (see the top of this file).
COMPILED = runs_compiled()


def legal_actions(state: State, seat: int) -> list[Action]:
    """What `seat` may do now (see `engine.legal.legal_actions`)."""
    return _legal_actions(state, load(state.edition), seat)


def legal_kinds(state: State, seat: int, skip: frozenset[str] = frozenset()) -> set[str]:
    """The kinds of action `seat` may send now, but those in `skip` (see `engine.legal.legal_kinds`)."""
    return _legal_kinds(state, load(state.edition), seat, skip)


def edition_of(state: State) -> Edition:
    return load(state.edition)


__all__ = [
    "BANK",
    "COMPILED",
    "DATA_DIR",
    "HOTEL",
    "POT",
    "SYSTEM",
    "Action",
    "Edition",
    "Event",
    "IllegalAction",
    "Offer",
    "Settings",
    "State",
    "Trade",
    "apply",
    "apply_inplace",
    "available",
    "clone",
    "edition_of",
    "from_json",
    "legal_actions",
    "legal_kinds",
    "load",
    "new_game",
    "refusal",
    "to_json",
]

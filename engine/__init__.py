"""The rules of Turista Mundial as a pure, deterministic engine. This module is its front door: the bot, the
pictures and the sandbox use what it exports, and nothing further in.

    state, events = new_game("turismundo", ["Ana", "Beto"], seed=7)
    for action in legal_actions(state, state.current): ...
    state, events = apply(state, action)

Every question on a game takes the state first (its edition and settings are in it): `apply(state, action)`,
`refusal(state, action)`, `legal_actions(state, seat)`, `rent(state, square, dice_total)`... The engine
answers in codes and numbers (refusals are `error.<code>` ids, events are declared in `engine.events`); the
words are the `words` package's.

No I/O but reading `data/`; no clock, no global random: the same seed and actions replay the same game.

The modules are the reference in Python. An install that compiles them (see setup.py) adds them as C
extensions, which Python then prefers; `COMPILED` tells which ones run (`engine.compiled`).
"""

from engine import legal
from engine.actions import KINDS, SYSTEM, Action, IllegalAction, Offer, Trade
from engine.ai import choose
from engine.ai.levels import DEFAULT_LEVEL, LEVELS
from engine.board import (
    building_cost,
    interest,
    net_worth,
    raisable,
    rent,
    title_to_bank_value,
    title_value,
    titles_of,
)
from engine.compiled import describe as which_build
from engine.compiled import runs_compiled
from engine.edition import DATA_DIR, TITLE_KINDS, Edition, Rules, Square, available, load
from engine.events import CODES, typed
from engine.legal import unmortgage_cost
from engine.rulebook import HOUSE_SWITCHES, in_force, settle
from engine.rules import Event, apply, apply_inplace, new_game, standings
from engine.seating import HAND_OVER, SIT, hand_over, hand_over_refusal, replay_inplace, sit, sit_refusal
from engine.state import BANK, HOTEL, POT, Auction, Debt, Settings, Standing, State, clone, from_json, to_json
from engine.takeback import TAKE_BACK, TAKEABLE_KINDS, standing, take_back, undoable
from engine.takeback import Entry as LogEntry
from engine.takeback import refusal as take_back_refusal

# Whether the rules run compiled (see the top of this file).
COMPILED = runs_compiled()

Refusal = legal.Refusal


def edition_of(state: State) -> Edition:
    """The edition `state` is played on."""
    return load(state.edition)


def rules_in_force(state: State) -> Rules:
    """The rules `state`'s game plays by: its edition's, its house rules, and the rulebook it began under."""
    return in_force(state.edition, state.settings)


def refusal(state: State, action: Action) -> Refusal:
    """Why `action` would be refused now, as (error code, its parameters), or None if `apply` accepts it."""
    return legal.refused(state, load(state.edition), action)


def legal_actions(state: State, seat: int) -> list[Action]:
    """What `seat` may do now: every concrete action, and a template of the open-ended ones (a trade proposal)."""
    return legal.open_actions(state, load(state.edition), seat)


def legal_kinds(state: State, seat: int, skip: frozenset[str] = frozenset()) -> set[str]:
    """The kinds of action `seat` may send now, but those in `skip`: what a table's buttons need, found at a
    fraction of the cost of `legal_actions`."""
    return legal.open_kinds(state, load(state.edition), seat, skip)


def trade_refusal(state: State, trade: Trade) -> Refusal:
    """Why `trade` could not be carried out now, or None."""
    return legal.trade_refused(state, load(state.edition), trade)


def window_refusal(state: State, seat: int) -> Refusal:
    """Why `seat` may propose no trade at all now, whatever it would hold, or None."""
    return legal.window_refused(state, load(state.edition), seat)


__all__ = [
    "BANK",
    "CODES",
    "COMPILED",
    "DATA_DIR",
    "DEFAULT_LEVEL",
    "HAND_OVER",
    "HOTEL",
    "HOUSE_SWITCHES",
    "KINDS",
    "LEVELS",
    "LogEntry",
    "POT",
    "SIT",
    "SYSTEM",
    "TAKEABLE_KINDS",
    "TAKE_BACK",
    "TITLE_KINDS",
    "Action",
    "Auction",
    "Debt",
    "Edition",
    "Event",
    "IllegalAction",
    "Offer",
    "Refusal",
    "Rules",
    "Settings",
    "Square",
    "Standing",
    "State",
    "Trade",
    "apply",
    "apply_inplace",
    "available",
    "building_cost",
    "choose",
    "clone",
    "edition_of",
    "from_json",
    "hand_over",
    "hand_over_refusal",
    "interest",
    "legal_actions",
    "legal_kinds",
    "load",
    "net_worth",
    "new_game",
    "raisable",
    "refusal",
    "rent",
    "replay_inplace",
    "rules_in_force",
    "settle",
    "sit",
    "sit_refusal",
    "standing",
    "standings",
    "take_back",
    "take_back_refusal",
    "title_to_bank_value",
    "title_value",
    "titles_of",
    "to_json",
    "trade_refusal",
    "typed",
    "undoable",
    "unmortgage_cost",
    "which_build",
    "window_refusal",
]

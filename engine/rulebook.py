"""Which rules a game plays by: its edition's switches, the lobby's house rules and the rulebook it began under.

A game keeps the rules it started with. `new_game` stamps the settings with `RULEBOOK` and writes every house
rule switch out in full, so the stored settings of a game say what it plays by, whatever the edition files
say later. Games stored before rulebook 1 carry no such record (`Settings.rulebook` reads 0): they replay
with the readings of that time, `EARLIER`, and log the events they logged then (`engine.rules.Game`).

A change to what an action does, or to the events it logs, for a game already stored needs a new
`RULEBOOK` and keeps the earlier behaviour for games of the earlier ones: `tests/test_old_games.py` replays
games recorded by earlier engines and compares every event.
"""

from __future__ import annotations

from typing import Final

import msgspec

from engine.edition import Edition, Rules, load
from engine.state import Settings

RULEBOOK: Final = 2

# Rulebook 0, before the texts were followed to the letter: every edition rolled again on doubles, auctioned
# a declined title, charged the 10 % to lift a mortgage and again on every transfer of a mortgaged title, built
# evenly and mortgaged only bare blocks; any debtor could declare bankruptcy, a trade could be a gift or a
# loan, and a creditor's right to lift inherited mortgages for the mortgage alone lasted to the end of the turn.
EARLIER: dict[str, bool] = {
    "doubles_roll_again": True,
    "three_doubles_jail": True,
    "auction_on_decline": True,
    "mortgage_interest": True,
    "even_building": True,
    "interest_on_transfer": True,
    "mortgage_bare_block": True,
    "no_lending": False,
    "mortgaged_title_to_bank": False,
    "bankruptcy_last_resort": False,
    "creditor_lifts": False,
}

# Rulebook 1: a title traded or sold while its owner was deciding on inherited mortgages stayed on that decision.
BEFORE_2: dict[str, bool] = {
    "lift_follows_titles": False,
}

# The edition rules a lobby may switch: `Settings` fields of the same name, None keeping the edition's.
HOUSE_SWITCHES = (
    "auction_on_decline",
    "double_rent_with_mortgaged",
    "trading_window",
    "club_loans",
    "doubles_roll_again",
    "three_doubles_jail",
    "mortgage_interest",
    "even_building",
)


def in_force(edition_id: str, settings: Settings) -> Rules:
    """The rules of a game of the edition `edition_id` with these settings."""
    # Asked on most actions, so worked out once per edition and settings. A game keeps its settings object: it is
    # found by that object first, which spares comparing its twenty fields with those of an equal one.
    entry = _BY_OBJECT.get(id(settings))
    if entry is not None and entry[0] is settings and entry[1] == edition_id:
        return entry[2]
    key = (edition_id, settings)
    rules = _BY_VALUE.get(key)
    if rules is None:
        rules = _work_out(edition_id, settings)
        _keep(_BY_VALUE, key, rules)
    # The entry holds the settings object, so its id cannot be another's while it is there.
    _keep(_BY_OBJECT, id(settings), (settings, edition_id, rules))
    return rules


_BY_VALUE: Final[dict[tuple[str, Settings], Rules]] = {}
_BY_OBJECT: Final[dict[int, tuple[Settings, str, Rules]]] = {}


def _keep(table: dict, key: object, value: object) -> None:
    if len(table) >= 512:
        table.clear()  # a bound: a long-running bot sees many games' settings (and a copy of them per action)
    table[key] = value


def _work_out(edition_id: str, settings: Settings) -> Rules:
    changes = dict(BEFORE_2) if settings.rulebook < 2 else {}
    if settings.rulebook == 0:
        changes.update(EARLIER)
    for name in HOUSE_SWITCHES:
        value = getattr(settings, name)
        if value is not None:
            changes[name] = value
    return msgspec.structs.replace(load(edition_id).rules, **changes)


def settle(ed: Edition, settings: Settings) -> Settings:
    """The settings a new game stores: the current rulebook, and every house rule switch written out."""
    current = msgspec.structs.replace(settings, rulebook=RULEBOOK)
    rules = in_force(ed.id, current)
    return msgspec.structs.replace(current, **{name: getattr(rules, name) for name in HOUSE_SWITCHES})

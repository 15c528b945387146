"""A table's house rules, typed: what the lobby offers, what each choice changes, and what the game reads.

The store keeps a table's settings as one free dict (the engine's `Settings` fields plus the bot's own keys, so
that old rows read the same); `TableSettings` reads that dict once and says what it means.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import engine
from bot.league import HOUSE_RULES
from bot.store import engine_settings
from engine import HOUSE_SWITCHES, settle

MAX_SEATS = 6
TIME_LIMITS = (0, 30, 45, 60, 90, 120, 180)  # minutes
LIVE_TIMEOUTS = (0, 60, 120, 300, 600)  # seconds: an evening's table
CORRESPONDENCE_HOURS = (4, 12, 24, 48)  # a game that lasts a week: hours per decision
HOUR = 3600
# One choice of time per decision holds the table's pace: up to minutes is live, hours are correspondence.
TURN_TIMEOUTS = (*LIVE_TIMEOUTS, *(h * HOUR for h in CORRESPONDENCE_HOURS))
DEFAULT_TURN_TIMEOUT = 120  # one absent friend never stalls a table; 0 (none) is a house rule
TOGGLES = (
    "auction_on_decline", "free_parking_pot", "double_rent_with_mortgaged", "trading_window", "club_loans",
    "staggered_start", "auction_only", "no_rent_in_jail", "random_order", "deal_titles",
    "doubles_roll_again", "three_doubles_jail", "mortgage_interest", "even_building", "thread", "rated_when_ended",
    "take_backs", "take_back_host", "join_free", "classic_table", "clock_passes",
)
# The bot's own switches (not engine rules) and their defaults: a thread per game; take-backs with everyone's
# consent (a few a game), or the host's alone in a game that is not rated; whether anyone may sit down in a
# computer's seat during the game without the host's yes; the table message as Discord's new layout (the
# classic embed table for those who prefer it); what the end of a decision's clock does: a computer plays that
# decision, or (`clock_passes`) the person passes where the rules allow; and the league's house rules
# (`bot.league.HOUSE_RULES`: a game its host ends is rated only if the table says so).
BOT_SWITCHES = {"thread": True, "take_backs": True, "take_back_host": False, "join_free": False,
                "classic_table": False, "clock_passes": False, **HOUSE_RULES}
NO_THREAD = ("no_thread_permission", "no_thread_error")  # why a game that was to have a thread has none
ENDINGS = ("last", "bankruptcy2", "turns30", "turns60", "turns100")
SETTING_KINDS = ("edition", "time_limit", "turn_timeout", "rules", "ending")  # what the lobby's selects change


class NotOffered(ValueError):
    """A choice no select of the lobby offered (only a modified client sends one)."""


@dataclass(frozen=True)
class TableSettings:
    """The settings of one table, as stored (`values`), read as what they mean."""

    values: Mapping[str, Any]

    @classmethod
    def opened(cls, time_limit: int, turn_timeout: int, start_cash: int = 0) -> TableSettings:
        """The settings `/turista new` opens a table with; NotOffered for numbers its choices do not offer."""
        if time_limit not in TIME_LIMITS or turn_timeout not in TURN_TIMEOUTS or start_cash < 0:
            raise NotOffered("new")
        values: dict[str, Any] = {"time_limit": time_limit, "turn_timeout": turn_timeout}
        if start_cash:
            values["start_cash"] = start_cash
        return cls(values)

    @cached_property
    def rules(self) -> engine.Settings:
        return engine_settings(dict(self.values))

    @property
    def time_limit(self) -> int:
        """Minutes the whole game may last; 0: no limit."""
        return self.rules.time_limit

    @property
    def turn_timeout(self) -> int:
        """Seconds a person has for each decision; 0: no clock."""
        return int(self.values.get("turn_timeout", 0) or 0)

    @property
    def correspondence(self) -> bool:
        """Whether the table plays by correspondence (hours per decision, reminders, auctions on the clock) rather
        than live (minutes per decision, auctions closed by a quiet period)."""
        return self.turn_timeout >= HOUR

    @property
    def clock_passes(self) -> bool:
        """Whether the end of a decision's clock passes for the person where the rules allow (declines a title,
        leaves an auction, turns down an offer) rather than having a computer play that decision."""
        return self._bot_switch("clock_passes")

    @property
    def ends_at(self) -> float | None:
        """When the game's time limit runs out (unix time), set at the start; None without a limit."""
        ends_at = self.values.get("ends_at")
        return float(ends_at) if ends_at else None

    @property
    def thread(self) -> bool:
        """Whether the game is played in a thread of its own."""
        return bool(self.values.get("thread", BOT_SWITCHES["thread"]))

    def _bot_switch(self, name: str) -> bool:
        return bool(self.values.get(name, BOT_SWITCHES[name]))

    @property
    def take_backs(self) -> bool:
        """Whether a player may ask to take back their last moves (with the others' consent)."""
        return self._bot_switch("take_backs")

    @property
    def take_back_host(self) -> bool:
        """Whether the host's yes alone lets a take-back through, in a game that is not rated."""
        return self._bot_switch("take_back_host")

    @property
    def join_free(self) -> bool:
        """Whether anyone may take a computer's seat during the game without the host's yes."""
        return self._bot_switch("join_free")

    @property
    def classic_table(self) -> bool:
        """Whether the table message is the classic embed table rather than the layout (`bot.face.layout`)."""
        return bool(self.values.get("classic_table", BOT_SWITCHES["classic_table"]))

    @property
    def no_thread(self) -> str:
        """Why a game that was to have a thread of its own is played in its channel: the lobby's word for it
        (`no_thread_permission`, `no_thread_error`), or "" when it has its thread or never asked for one."""
        why = str(self.values.get("no_thread") or "")
        return why if why in NO_THREAD else ""

    def without_thread(self, why: str) -> TableSettings:
        """These settings for a game that is played in its channel for the reason `why` (see `no_thread`)."""
        return TableSettings({**self.values, "no_thread": why})

    def edition(self, opened_with: str) -> str:
        """The edition chosen in the lobby, else the one the table was opened with."""
        return str(self.values.get("edition") or opened_with)

    def switch(self, ed: engine.Edition | None, name: str) -> bool:
        """Whether the switch `name` is on for a game about to start with these settings."""
        if name == "deal_titles":
            return bool(self.values.get("deal_titles", 0))
        if name in BOT_SWITCHES:
            return bool(self.values.get(name, BOT_SWITCHES[name]))
        # What a new game of `ed` would store: the edition's rules under the house rules chosen so far.
        return bool(getattr(settle(ed, self.rules), name))

    @property
    def ending(self) -> str:
        """How the game ends, as the lobby's ending select names it."""
        if self.values.get("end_at_bankruptcy"):
            return "bankruptcy2"
        turns = int(self.values.get("max_turns", 0))
        return f"turns{turns}" if f"turns{turns}" in ENDINGS else "last"

    def again(self) -> TableSettings:
        """The same house rules for a new table (a rematch): without the end of the last game's time limit."""
        return TableSettings({k: v for k, v in self.values.items() if k != "ends_at"})

    def started(self, ends_at: float | None) -> TableSettings:
        """The settings a game starts with: its time limit's end, if it has one."""
        return self if ends_at is None else TableSettings({**self.values, "ends_at": ends_at})

    def chosen(self, what: str, values: list[str]) -> TableSettings:
        """These settings with one select's choice folded in; NotOffered for anything the select did not offer."""
        settings = dict(self.values)
        if what == "edition":
            if len(values) != 1 or values[0] not in engine.available():
                raise NotOffered(what)
            settings["edition"] = values[0]
            # Switches whose default comes from the edition follow the new edition again.
            for key in HOUSE_SWITCHES:
                settings.pop(key, None)
        elif what == "time_limit":
            settings["time_limit"] = _offered(values, TIME_LIMITS, what)
        elif what == "turn_timeout":
            settings["turn_timeout"] = _offered(values, TURN_TIMEOUTS, what)
        elif what == "rules":
            chosen = set(values)
            if not chosen <= set(TOGGLES):
                raise NotOffered(what)
            for name in TOGGLES:
                settings[name] = (2 if name in chosen else 0) if name == "deal_titles" else name in chosen
        elif what == "ending":
            if len(values) != 1 or values[0] not in ENDINGS:
                raise NotOffered(what)
            ending = values[0]
            settings["end_at_bankruptcy"] = 2 if ending == "bankruptcy2" else 0
            settings["max_turns"] = int(ending[5:]) if ending.startswith("turns") else 0
        else:
            raise NotOffered(what)
        return TableSettings(settings)


def _offered(values: list[str], offered: tuple[int, ...], what: str) -> int:
    """The one number a select offered that was chosen (compared as the select wrote it, so "²" or
    "0060" is not 60)."""
    by_text = {str(n): n for n in offered}
    if len(values) != 1 or values[0] not in by_text:
        raise NotOffered(what)
    return by_text[values[0]]

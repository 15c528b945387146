"""The arithmetic of a correspondence game's clock: when its reminders fall due, which one is owed, its pace."""

from __future__ import annotations

import pytest

from bot.table import reminders
from bot.table.settings import NotOffered, TableSettings

DAY = 86400.0


def test_reminders_fall_due_at_half_and_three_quarters_of_the_clock() -> None:
    # A 24 h clock started at 1000 runs out at 1000 + DAY.
    assert reminders.due_times(1000 + DAY, DAY) == [1000 + DAY / 2, 1000 + DAY * 3 / 4]


def test_a_reminder_sent_is_not_owed_again() -> None:
    deadline = 1000 + DAY
    half, three_quarters = reminders.due_times(deadline, DAY)
    assert reminders.owed(deadline, DAY, None, half - 1) is None  # too early
    assert reminders.owed(deadline, DAY, None, half + 1) == half
    assert reminders.owed(deadline, DAY, half, half + 1) is None  # sent, stored: a restart sends it no more
    assert reminders.pending(deadline, DAY, half) == [three_quarters]
    assert reminders.owed(deadline, DAY, half, three_quarters) == three_quarters
    assert reminders.pending(deadline, DAY, three_quarters) == []


def test_a_process_down_through_both_reminders_sends_one() -> None:
    deadline = 1000 + DAY
    three_quarters = reminders.due_times(deadline, DAY)[1]
    assert reminders.owed(deadline, DAY, None, deadline - 1) == three_quarters
    assert reminders.owed(deadline, DAY, None, deadline) is None  # the clock ran out: its end plays instead


def test_the_next_decisions_reminders_are_not_taken_for_sent() -> None:
    # The moment stored for the last decision is before any reminder of a later one.
    first = 1000 + DAY
    sent = reminders.due_times(first, DAY)[1]
    later = first + 10  # the next decision's clock started 10 s after the first ran out
    assert reminders.pending(later + DAY, DAY, sent) == reminders.due_times(later + DAY, DAY)


@pytest.mark.parametrize(("seconds", "correspondence"), [(0, False), (600, False), (4 * 3600, True),
                                                          (48 * 3600, True)])
def test_the_time_per_decision_says_the_pace(seconds: int, correspondence: bool) -> None:
    assert TableSettings.opened(0, seconds).correspondence is correspondence


def test_only_the_hours_offered_open_a_correspondence_table() -> None:
    with pytest.raises(NotOffered):
        TableSettings.opened(0, 5 * 3600)
    assert TableSettings({"turn_timeout": 86400}).chosen("turn_timeout", ["43200"]).turn_timeout == 43200


def test_the_end_of_a_clock_plays_unless_the_table_passes() -> None:
    assert not TableSettings({}).clock_passes
    assert TableSettings({}).chosen("rules", ["clock_passes"]).clock_passes

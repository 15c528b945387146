"""The arithmetic of a correspondence game's clock: when its reminders fall due, which one is owed, its pace."""

from __future__ import annotations

from pathlib import Path

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


def test_quiet_hours_in_the_persons_time_zone_and_across_midnight() -> None:
    from datetime import datetime
    from zoneinfo import ZoneInfo

    from bot.store import NotifyRow
    from bot.table.notify import day_of, quiet_until

    mexico = ZoneInfo("America/Mexico_City")
    night = NotifyRow(1, "dm", quiet_from=22, quiet_to=7, time_zone="America/Mexico_City")
    at = datetime(2026, 12, 4, 23, 30, tzinfo=mexico).timestamp()
    assert quiet_until(night, at) == datetime(2026, 12, 5, 7, tzinfo=mexico).timestamp()
    assert quiet_until(night, datetime(2026, 12, 5, 6, 59, tzinfo=mexico).timestamp()) == \
        datetime(2026, 12, 5, 7, tzinfo=mexico).timestamp()
    assert quiet_until(night, datetime(2026, 12, 5, 7, tzinfo=mexico).timestamp()) is None
    assert quiet_until(NotifyRow(1), at) is None  # no quiet hours
    assert day_of(night, at) == "2026-12-04"  # already the 5th in UTC, still the 4th in Mexico


def test_the_direct_messages_of_a_day_stay_within_the_budget(tmp_path: Path) -> None:
    from bot.store import NotifyRow, Store

    with Store(tmp_path / "t.db") as store:
        store.set_notify(NotifyRow(7, "dm", 22, 7, "America/Mexico_City"))
        assert [store.count_dm(7, "2026-12-04", 2) for _ in range(3)] == [True, True, False]
        assert store.count_dm(7, "2026-12-05", 2)  # a new day, a new budget
        assert store.notify_of([7, 8]) == {7: NotifyRow(7, "dm", 22, 7, "America/Mexico_City"), 8: NotifyRow(8)}

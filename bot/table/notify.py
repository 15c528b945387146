"""Each person's reminders (`/turista notify`): whether `now` falls in their quiet hours, in their own time zone,
and their own date, on which their budget of direct messages is counted."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from bot.store import NotifyRow

DM_BUDGET = 12  # direct messages a person gets a day; past it, their reminders go to the game's channel


def zone(name: str) -> ZoneInfo:
    """The time zone `name`; UTC for a name this machine does not know (a choice stored by an older tzdata)."""
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def known_zone(name: str) -> bool:
    """Whether `name` is a time zone this machine knows (an IANA name such as America/Mexico_City)."""
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return False
    return True


def quiet_until(row: NotifyRow, now: float) -> float | None:
    """When the person's quiet hours end (unix time), if `now` falls within them; None if it does not. Quiet hours
    run from the hour `quiet_from` to the hour `quiet_to` of their day, across midnight when `quiet_to` is the
    smaller."""
    start, end = row.quiet_from, row.quiet_to
    if start is None or end is None or start == end:
        return None
    local = datetime.fromtimestamp(now, zone(row.time_zone))
    within = start <= local.hour < end if start < end else (local.hour >= start or local.hour < end)
    if not within:
        return None
    ends = local.replace(hour=end, minute=0, second=0, microsecond=0)
    if ends <= local:
        ends += timedelta(days=1)
    return ends.timestamp()


def day_of(row: NotifyRow, now: float) -> str:
    """The person's date at `now`, in their time zone (their budget of direct messages is a day's)."""
    return datetime.fromtimestamp(now, zone(row.time_zone)).date().isoformat()

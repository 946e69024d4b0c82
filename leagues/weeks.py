"""League week arithmetic: pure functions of an aware datetime, no database.

A week runs from Monday 00:00 to the next Monday 00:00 in LEAGUE_TIME_ZONE
(Europe/Madrid). The weeks that contain a clock change last 167 or 169 hours;
midnight is never skipped nor repeated in Madrid (the changes happen at 02:00
and 03:00), so both bounds are always well defined.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from django.conf import settings


def league_time_zone() -> ZoneInfo:
    return ZoneInfo(settings.LEAGUE_TIME_ZONE)


def week_monday(moment: datetime) -> date:
    """The local Monday of the week `moment` falls in."""
    if moment.tzinfo is None or moment.utcoffset() is None:
        raise ValueError(f"league times must be timezone-aware, not {moment!r}")
    local = moment.astimezone(league_time_zone())
    return local.date() - timedelta(days=local.weekday())


def week_bounds_for_monday(monday: date) -> tuple[datetime, datetime]:
    """[start, end) of the week beginning on local `monday`, in UTC.

    UTC, because Python subtracts and compares two datetimes sharing one tzinfo
    by wall clock, which would make the clock-change weeks 168 hours long.
    """
    zone = league_time_zone()
    start = datetime.combine(monday, time.min, tzinfo=zone)
    end = datetime.combine(monday + timedelta(days=7), time.min, tzinfo=zone)
    return start.astimezone(UTC), end.astimezone(UTC)


def week_bounds(moment: datetime) -> tuple[datetime, datetime]:
    """[start, end) of the week `moment` falls in: a moment equal to `end` is next week's."""
    return week_bounds_for_monday(week_monday(moment))


def week_label(monday: date) -> str:
    """ISO week name, e.g. "2026-W48"."""
    year, week, _ = monday.isocalendar()
    return f"{year}-W{week:02d}"

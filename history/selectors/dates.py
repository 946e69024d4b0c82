"""Days and months as the history pages count them (the site's local time)."""

from __future__ import annotations

from datetime import date, datetime

from django.utils import timezone


def day_start(day: date) -> datetime:
    """The first instant of `day`, local time."""
    return timezone.make_aware(datetime.combine(day, datetime.min.time()))


def month_starts(months: int, *, now: datetime | None = None) -> list[date]:
    """The first day of each of the last `months` months, oldest first (local time)."""
    today = timezone.localtime(now or timezone.now()).date()
    year, month = today.year, today.month
    starts = []
    for _ in range(months):
        starts.append(date(year, month, 1))
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return starts[::-1]

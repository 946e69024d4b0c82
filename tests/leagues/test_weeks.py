from datetime import UTC, datetime, timedelta

import pytest

from leagues.weeks import week_bounds, week_label, week_monday
from tests.leagues.conftest import MADRID, madrid


def test_a_week_runs_from_monday_midnight_to_the_next_monday_midnight_in_madrid():
    start, end = week_bounds(madrid(2026, 11, 18, 12))
    assert start == madrid(2026, 11, 16)
    assert end == madrid(2026, 11, 23)
    assert start.astimezone(UTC) == datetime(2026, 11, 15, 23, 0, tzinfo=UTC)


def test_sunday_at_23_59_59_belongs_to_the_week_and_monday_midnight_to_the_next():
    _, end = week_bounds(madrid(2026, 11, 22, 23, 59, 59))
    assert end == madrid(2026, 11, 23)
    start, _ = week_bounds(madrid(2026, 11, 23, 0, 0, 0))
    assert start == madrid(2026, 11, 23)


def test_the_week_of_the_march_clock_change_lasts_167_hours():
    # Clocks go forward on Sunday 2027-03-28 (the last Sunday of March).
    start, end = week_bounds(madrid(2027, 3, 24))
    assert end - start == timedelta(hours=167)
    assert end.astimezone(UTC) == datetime(2027, 3, 28, 22, 0, tzinfo=UTC)


def test_the_week_of_the_october_clock_change_lasts_169_hours():
    # Clocks go back on Sunday 2026-10-25 (the last Sunday of October).
    start, end = week_bounds(madrid(2026, 10, 21))
    assert end - start == timedelta(hours=169)
    assert end.astimezone(UTC) == datetime(2026, 10, 25, 23, 0, tzinfo=UTC)


def test_a_utc_moment_is_placed_by_its_madrid_date():
    # Sunday 23:30 UTC in winter is already Monday 00:30 in Madrid.
    start, _ = week_bounds(datetime(2026, 11, 22, 23, 30, tzinfo=UTC))
    assert start == madrid(2026, 11, 23)


def test_a_naive_time_is_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        week_monday(datetime(2026, 11, 18, 12))


def test_weeks_are_named_by_iso_week():
    assert week_label(madrid(2026, 11, 16).date()) == "2026-W47"
    assert week_bounds(madrid(2026, 11, 16))[0].astimezone(MADRID).hour == 0

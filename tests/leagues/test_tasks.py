from datetime import UTC, datetime, timedelta

import pytest
from celery.schedules import crontab

from cuatrola_site.celery import app
from cuatrola_site.ticker import EmbeddedBeat
from leagues.models import LeagueWeek, WeekStatus
from leagues.tasks import close_due_weeks
from tests.leagues.conftest import madrid

pytestmark = pytest.mark.django_db


def test_the_beat_closes_weeks_on_monday_at_midnight_and_catches_up():
    entry = app.conf.beat_schedule["leagues-close-week"]
    assert entry["task"] == "leagues.close_due_weeks"
    assert entry["schedule"] == crontab(minute=0, hour=0, day_of_week="monday")
    catch_up = app.conf.beat_schedule["leagues-close-week-catch-up"]
    assert catch_up["task"] == "leagues.close_due_weeks"
    assert catch_up["schedule"] <= timedelta(hours=1)


def test_the_task_closes_every_finished_week(players, record, monkeypatch):
    (ana,) = players(1)
    record(ana, 20, when=madrid(2026, 11, 18, 12))
    record(ana, 20, when=madrid(2026, 11, 25, 12))
    monkeypatch.setattr(
        "django.utils.timezone.now", lambda: datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
    )
    assert close_due_weeks.apply().get() == 2
    assert close_due_weeks.apply().get() == 0
    assert LeagueWeek.objects.filter(status=WeekStatus.CLOSED).count() == 2


def test_the_embedded_beat_runs_the_close_at_monday_midnight_madrid(players, record, monkeypatch):
    (ana,) = players(1)
    record(ana, 20, when=madrid(2026, 11, 18, 12))
    monday = madrid(2026, 11, 23)
    monkeypatch.setattr("django.utils.timezone.now", lambda: monday)
    # The ticker drops stale connections after each run; the test's transaction must stay.
    monkeypatch.setattr("cuatrola_site.ticker.close_old_connections", lambda: None)
    beat = EmbeddedBeat(app, started_at=monday - timedelta(minutes=5))
    for name in app.conf.beat_schedule:  # only the Monday entry is due
        if name != "leagues-close-week":
            beat.last_run[name] = monday
    assert beat.tick(monday - timedelta(seconds=1)) == []
    assert "leagues-close-week" in beat.tick(monday)
    assert LeagueWeek.objects.get(starts_at=madrid(2026, 11, 16)).status == WeekStatus.CLOSED

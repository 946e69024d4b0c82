"""The nightly task: in beat's schedule, on the bots queue, calling the service."""

import pytest
from celery.schedules import crontab
from django.conf import settings

from cuatrola_site.celery import app
from fairplay import tasks

pytestmark = pytest.mark.django_db


def test_beat_runs_the_screen_each_night_on_the_bots_queue():
    entry = settings.CELERY_BEAT_SCHEDULE["fairplay-screen"]
    assert entry["task"] == "fairplay.screen" == tasks.screen.name
    assert entry["schedule"] == crontab(minute=40, hour=settings.FAIRPLAY_SCREEN_HOUR)
    assert app.conf.task_routes["fairplay.screen"] == {"queue": "bots"}


def test_the_task_runs_the_screen(monkeypatch):
    ran = []
    monkeypatch.setattr(tasks.services, "screen_run", lambda **kwargs: ran.append(kwargs))
    tasks.screen()
    assert ran == [{}]

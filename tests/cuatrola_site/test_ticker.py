import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest
from celery import Celery

from cuatrola_site.ticker import EmbeddedBeat

# The ticker tidies database connections after each task, as the real thread must.
pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 30, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def celery_test_app():
    app = Celery("ticker-test", set_as_current=False)
    app.conf.task_always_eager = True
    app.calls = []

    @app.task(name="tests.record")
    def record(label):
        app.calls.append(label)

    @app.task(name="tests.explode")
    def explode():
        raise RuntimeError("boom")

    return app


@pytest.fixture
def app(celery_test_app):
    celery_test_app.calls.clear()
    return celery_test_app


def test_an_entry_runs_once_its_interval_has_passed(app):
    app.conf.beat_schedule = {"every-10s": {"task": "tests.record", "schedule": 10, "args": ("x",)}}
    beat = EmbeddedBeat(app, started_at=START)
    assert beat.tick(START + timedelta(seconds=5)) == []
    assert beat.tick(START + timedelta(seconds=10)) == ["every-10s"]
    assert beat.tick(START + timedelta(seconds=15)) == []
    assert beat.tick(START + timedelta(seconds=21)) == ["every-10s"]
    assert app.calls == ["x", "x"]


def test_a_failing_entry_does_not_stop_the_others(app):
    app.conf.beat_schedule = {
        "bad": {"task": "tests.explode", "schedule": timedelta(seconds=1)},
        "good": {"task": "tests.record", "schedule": timedelta(seconds=1), "args": ("ok",)},
    }
    beat = EmbeddedBeat(app, started_at=START)
    assert beat.tick(START + timedelta(seconds=2)) == ["good"]
    assert app.calls == ["ok"]


def test_starting_the_embedded_beat_registers_every_scheduled_task():
    """In a fresh process nothing has imported the apps' tasks modules yet."""
    script = (
        "import django; django.setup()\n"
        "from cuatrola_site.celery import app\n"
        "from cuatrola_site.ticker import EmbeddedBeat\n"
        "beat = EmbeddedBeat(app); beat.start(interval=3600)\n"
        "names = [e['task'] for e in app.conf.beat_schedule.values()]\n"
        "print(len(names), [n for n in names if n not in app.tasks]); beat.stop()\n"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "cuatrola_site.settings", "DEBUG": "1"}
    env.pop("REDIS_URL", None)
    result = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120
    )
    count, missing = result.stdout.split(" ", 1)
    assert int(count) > 0, result.stderr
    assert missing.strip() == "[]"

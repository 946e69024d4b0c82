import time

import pytest
from django.conf import settings

from cuatrola_site.celery import app, close_old_database_connections


def test_the_celery_app_reads_django_settings_and_runs_in_madrid_time():
    assert app.main == "cuatrola"
    assert app.conf.timezone == "Europe/Madrid"


def test_the_beat_schedule_is_defined_in_code_and_names_registered_tasks():
    app.loader.import_default_modules()
    for name, entry in app.conf.beat_schedule.items():
        assert entry["task"] in app.tasks, name


def test_without_redis_tasks_run_in_process():
    if settings.REDIS_URL:
        assert app.conf.broker_url.startswith("redis")
        assert not app.conf.task_always_eager
    else:
        assert app.conf.task_always_eager


def test_tasks_are_acknowledged_late_and_redelivered_when_their_worker_dies():
    assert app.conf.task_acks_late is True
    assert app.conf.task_reject_on_worker_lost is True
    assert app.conf.worker_prefetch_multiplier == 1


def test_the_broker_is_reconnected_to_for_ever():
    assert app.conf.broker_connection_retry is True
    assert app.conf.broker_connection_retry_on_startup is True
    assert app.conf.broker_connection_max_retries is None


class _Task:
    """A task as the prerun/postrun signals hand it (a worker's: not eager)."""

    def __init__(self, eager: bool = False) -> None:
        self.request = type("Request", (), {"is_eager": eager})()


def _opened():
    from django.db import connections

    connection = connections["default"]  # the wrapper itself, not the proxy
    connection.ensure_connection()
    return connection, connection.connection


@pytest.mark.django_db(transaction=True)
def test_a_worker_keeps_a_healthy_database_connection_from_task_to_task(monkeypatch):
    from celery.fixups.django import DjangoWorkerFixup

    connection, opened = _opened()
    monkeypatch.setattr(connection, "close_at", time.monotonic() + 600)  # CONN_MAX_AGE 600
    fixup = DjangoWorkerFixup(app)
    for _ in range(3):  # before and after each of three tasks
        fixup.on_task_prerun(sender=_Task())
        close_old_database_connections(task=_Task())
        connection.cursor().execute("SELECT 1")
        fixup.on_task_postrun(sender=_Task())
        close_old_database_connections(task=_Task())
    assert connection.connection is opened


@pytest.mark.django_db(transaction=True)
def test_a_worker_closes_a_connection_past_its_age_or_broken_before_the_next_task(
    monkeypatch,
):
    connection, _ = _opened()
    monkeypatch.setattr(connection, "close_at", time.monotonic() - 1)
    close_old_database_connections(task=_Task())
    assert connection.connection is None
    connection, _ = _opened()
    monkeypatch.setattr(connection, "close_at", time.monotonic() + 600)
    monkeypatch.setattr(connection, "errors_occurred", True)
    monkeypatch.setattr(connection, "is_usable", lambda: False)
    close_old_database_connections(task=_Task())
    assert connection.connection is None
    connection.cursor().execute("SELECT 1")  # the next query opens a new one


@pytest.mark.django_db(transaction=True)
def test_an_eager_task_leaves_its_callers_connection_alone(monkeypatch):
    connection, opened = _opened()
    monkeypatch.setattr(connection, "close_at", time.monotonic() - 1)
    close_old_database_connections(task=_Task(eager=True))
    assert connection.connection is opened

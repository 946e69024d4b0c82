from django.conf import settings

from cuatrola_site.celery import app


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

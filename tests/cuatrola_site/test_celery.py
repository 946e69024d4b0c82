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

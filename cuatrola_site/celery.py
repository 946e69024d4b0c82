"""The Celery app. Tasks are discovered per Django app; the beat schedule is here.

Embedded default (no REDIS_URL): CELERY_TASK_ALWAYS_EAGER runs tasks in the
calling process, and the periodic entries are run by the in-process ticker
(cuatrola_site.ticker). Scaled mode: workers and exactly one beat.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")

app = Celery("cuatrola")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Periodic work, by name. Each app adds its entries here when it arrives.
app.conf.beat_schedule = {
    # Turn time limits and absences live in the database; this sweep enforces them.
    "games-sweep-tables": {
        "task": "games.sweep_tables",
        "schedule": float(os.environ.get("TABLE_SWEEP_SECONDS", "2")),
    },
}
app.conf.task_routes = {"games.bot_move": {"queue": "bots"}}

"""The Celery app. Tasks are discovered per Django app; the beat schedule is here.

Embedded default (no REDIS_URL): CELERY_TASK_ALWAYS_EAGER runs tasks in the
calling process, and the periodic entries are run by the in-process ticker
(cuatrola_site.ticker). Scaled mode: workers and exactly one beat.
"""

import os
from datetime import timedelta

from celery import Celery
from celery.schedules import crontab

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")

app = Celery("cuatrola")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()

# Periodic work, by name. Each app adds its entries here when it arrives.
# Crontab times are in CELERY_TIMEZONE (Europe/Madrid).
app.conf.beat_schedule = {
    # Turn time limits and absences live in the database; this sweep enforces them.
    "games-sweep-tables": {
        "task": "games.sweep_tables",
        "schedule": float(os.environ.get("TABLE_SWEEP_SECONDS", "2")),
    },
    # A league week ends at Monday 00:00 Madrid; closing is idempotent, so the
    # catch-up entry is harmless and closes weeks missed while beat was down.
    "leagues-close-week": {
        "task": "leagues.close_due_weeks",
        "schedule": crontab(minute=0, hour=0, day_of_week="monday"),
    },
    "leagues-close-week-catch-up": {
        "task": "leagues.close_due_weeks",
        "schedule": timedelta(seconds=int(os.environ.get("LEAGUE_CLOSE_CATCH_UP_SECONDS", 600))),
    },
    # Bot fill after ONLINE_BOT_FILL_SECONDS and stake tables past their fill time.
    "online-sweep": {
        "task": "online.sweep",
        "schedule": float(os.environ.get("ONLINE_SWEEP_SECONDS", "1")),
    },
}
app.conf.task_routes = {"games.bot_move": {"queue": "bots"}}

"""The Celery app. Tasks are discovered per Django app; the beat schedule is the
`CELERY_BEAT_SCHEDULE` setting (cuatrola_site/settings.py), whose periods are settings.

Embedded default (no REDIS_URL): CELERY_TASK_ALWAYS_EAGER runs tasks in the
calling process, and the periodic entries are run by the in-process ticker
(cuatrola_site.ticker). Scaled mode: workers and exactly one beat.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cuatrola_site.settings")

app = Celery("cuatrola")
# Every CELERY_* setting, the beat schedule included, is read from Django's settings.
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
# The bots' moves, the coach's analyses and the nightly fair-play screen (the same
# search, CPU-bound): the bots queue.
app.conf.task_routes = {
    "games.bot_move": {"queue": "bots"},
    "coach.analyse": {"queue": "bots"},
    "fairplay.screen": {"queue": "bots"},
}

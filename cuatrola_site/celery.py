"""The Celery app. Tasks are discovered per Django app; the beat schedule is the
`CELERY_BEAT_SCHEDULE` setting (cuatrola_site/settings.py), whose periods are settings.

Embedded default (no REDIS_URL): CELERY_TASK_ALWAYS_EAGER runs tasks in the
calling process, and the periodic entries are run by the in-process ticker
(cuatrola_site.ticker). Scaled mode: workers and exactly one beat.
"""

import os
from typing import Any

from celery import Celery, signals

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


@signals.task_prerun.connect(dispatch_uid="cuatrola.database_connections_before")
@signals.task_postrun.connect(dispatch_uid="cuatrola.database_connections_after")
def close_old_database_connections(task: Any = None, **kwargs: Any) -> None:
    """Around each task run by a worker, as Django does around each request: a
    connection past DATABASE_CONN_MAX_AGE, or broken (a PostgreSQL restart), is
    closed and the next query opens a new one; a healthy one is kept (the fixup's own
    closing is off: CELERY_DB_REUSE_MAX). An eager task runs inside its caller's
    request, whose connection is the request's to manage."""
    if task is not None and getattr(task.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()

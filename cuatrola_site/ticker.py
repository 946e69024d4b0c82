"""The embedded default's stand-in for Celery beat.

With no REDIS_URL there is no broker, no worker and no beat process: tasks
run eagerly in the caller. Periodic entries of `celery_app.conf.beat_schedule`
still have to run, so `make run` starts this ticker thread in its web process
(cuatrola_site/asgi.py, as uvicorn imports the application). In
the scaled mode it never starts: exactly one `celery beat` does the job.
"""

from __future__ import annotations

import logging
import threading
from datetime import datetime, timedelta

from celery import Celery
from celery.schedules import BaseSchedule
from celery.schedules import schedule as celery_schedule
from django.conf import settings
from django.db import close_old_connections
from django.utils import timezone

logger = logging.getLogger(__name__)


def _as_schedule(value: object) -> BaseSchedule:
    if isinstance(value, BaseSchedule):  # schedule, crontab, solar
        return value
    if isinstance(value, (int, float)):
        value = timedelta(seconds=value)
    if isinstance(value, timedelta):
        return celery_schedule(run_every=value)
    raise TypeError(f"unsupported beat schedule {value!r}")


class EmbeddedBeat:
    """Runs the due beat entries; `tick(now)` is the whole logic, the thread only repeats it."""

    def __init__(self, app: Celery, started_at: datetime | None = None) -> None:
        self.app = app
        self.started_at = started_at or timezone.now()
        self.last_run: dict[str, datetime] = {}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def tick(self, now: datetime | None = None) -> list[str]:
        now = now or timezone.now()
        ran = []
        for name, entry in self.app.conf.beat_schedule.items():
            schedule = _as_schedule(entry["schedule"])
            last = self.last_run.get(name, self.started_at)
            schedule.nowfun = lambda now=now: now
            due, _next = schedule.is_due(last)
            if not due:
                continue
            self.last_run[name] = now
            signature = self.app.signature(
                entry["task"], args=entry.get("args", ()), kwargs=entry.get("kwargs", {})
            )
            try:
                result = signature.apply()
            finally:
                close_old_connections()
            # apply() keeps a task's exception in its result, so one failing entry
            # never stops the others; it is logged with its traceback.
            if result.failed():
                logger.error("periodic task %s failed:\n%s", name, result.traceback)
            else:
                ran.append(name)
        return ran

    def start(self, interval: float | None = None) -> None:
        """Ticks every `interval` seconds (default: the EMBEDDED_BEAT_TICK_SECONDS setting)."""
        if interval is None:
            interval = float(settings.EMBEDDED_BEAT_TICK_SECONDS)
        # A worker imports every app's tasks module when it boots; nothing else
        # does in the embedded default, so the schedule's task names need this.
        self.app.loader.import_default_modules()

        def loop() -> None:
            while not self._stop.wait(interval):
                self.tick()

        self._thread = threading.Thread(target=loop, name="embedded-beat", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(5)

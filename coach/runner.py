"""Where an analysis runs, never in the request that asked for it.

Scaled mode (Celery workers): the `coach.analyse` task on the `bots` queue.
Embedded default (tasks run eagerly, in-process): one background thread, so the
page answers at once and polls for progress as it would with a worker. Either way
the work is `services.analysis_run`, idempotent, so a duplicate start is harmless.
`COACH_RUNNER = "off"` queues nothing (tests run the service themselves).
"""

from __future__ import annotations

import logging
from concurrent.futures import ThreadPoolExecutor

from django.conf import settings
from django.db import close_old_connections

from coach import services
from coach.tasks import analyse

logger = logging.getLogger(__name__)

_executor: ThreadPoolExecutor | None = None


def _use_celery() -> bool:
    runner = settings.COACH_RUNNER
    if runner == "auto":
        return not settings.CELERY_TASK_ALWAYS_EAGER
    return runner == "celery"


def analysis_schedule(analysis_id: int) -> None:
    """Called after the commit that stored (or re-queued) the analysis."""
    if settings.COACH_RUNNER == "off":
        return
    if _use_celery():
        analyse.apply_async((analysis_id,), queue="bots")
        return
    global _executor
    if _executor is None:
        # One thread: analyses queue up behind each other, as on one worker.
        _executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="coach")
    _executor.submit(_run, analysis_id)


def drain() -> None:
    """Waits for the analysis under way in this process (if any) and drops the queued
    ones (asking again resumes them, docs/coach.md). Called by the embedded server's
    tests before their database is emptied."""
    global _executor
    executor, _executor = _executor, None
    if executor is not None:
        executor.shutdown(wait=True, cancel_futures=True)


def _run(analysis_id: int) -> None:
    try:
        services.analysis_run(analysis_id=analysis_id)
    except Exception:
        # The row stays "running" and shows as stopped once stale; asking again
        # resumes it (docs/coach.md). Logged, not swallowed silently.
        logger.exception("analysis %s failed", analysis_id)
    finally:
        close_old_connections()

"""What ops connects at start-up: the database query metrics on every connection,
and, in Celery, the request id carried into tasks and task failures counted."""

from __future__ import annotations

import os
import time
from typing import Any

from celery import signals as celery_signals
from django.db.backends.signals import connection_created

from ops import context, metrics

REQUEST_ID_HEADER = "cuatrola_request_id"


def _time_query(execute: Any, sql: str, params: Any, many: bool, ctx: dict[str, Any]) -> Any:
    alias = ctx["connection"].alias
    started = time.perf_counter()
    try:
        return execute(sql, params, many, ctx)
    except Exception:
        metrics.DB_QUERY_ERRORS.labels(alias).inc()
        raise
    finally:
        metrics.DB_QUERIES.labels(alias).inc()
        metrics.DB_SECONDS.labels(alias).observe(time.perf_counter() - started)


def _on_connection(sender: Any, connection: Any, **kwargs: Any) -> None:
    # Fired again on a reconnect of the same wrapper: add the timer once.
    if _time_query not in connection.execute_wrappers:
        connection.execute_wrappers.append(_time_query)


def _before_publish(headers: dict[str, Any] | None = None, **kwargs: Any) -> None:
    request_id = context.request_id.get()
    if headers is not None and request_id:
        headers[REQUEST_ID_HEADER] = request_id


def _task_prerun(task: Any = None, **kwargs: Any) -> None:
    # A worker runs task after task in one thread: no table or match of the last one.
    context.table_id.set(None)
    context.match_id.set(None)
    given = getattr(task.request, REQUEST_ID_HEADER, None) if task is not None else None
    # A task published outside a request (beat) gets an id of its own; an eager task
    # runs in its caller's context and keeps the caller's.
    if given or context.request_id.get() is None:
        context.request_id.set(context.new_request_id(given))


def _worker_init(**kwargs: Any) -> None:
    """A Celery worker serves its own /metrics on WORKER_METRICS_PORT (0: none): with
    PROMETHEUS_MULTIPROC_DIR, the sum over its pool's processes."""
    from django.conf import settings
    from prometheus_client import REGISTRY, CollectorRegistry, start_http_server
    from prometheus_client.multiprocess import MultiProcessCollector

    port = settings.WORKER_METRICS_PORT
    if not port:
        return
    registry: Any = REGISTRY
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        registry = CollectorRegistry()
        MultiProcessCollector(registry)
    start_http_server(port, registry=registry)


def _worker_process_shutdown(pid: int | None = None, **kwargs: Any) -> None:
    # A pool process that exits stops counting in the live gauges.
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid or os.getpid())


def _task_failure(sender: Any = None, **kwargs: Any) -> None:
    metrics.TASK_FAILURES.labels(getattr(sender, "name", "unknown")).inc()


def connect(*, metrics: bool) -> None:
    if metrics:
        connection_created.connect(_on_connection, dispatch_uid="ops.query_metrics")
    celery_signals.before_task_publish.connect(_before_publish, dispatch_uid="ops.request_id")
    celery_signals.task_prerun.connect(_task_prerun, dispatch_uid="ops.request_id_in")
    celery_signals.task_failure.connect(_task_failure, dispatch_uid="ops.task_failures")
    celery_signals.worker_init.connect(_worker_init, dispatch_uid="ops.worker_metrics")
    celery_signals.worker_process_shutdown.connect(
        _worker_process_shutdown, dispatch_uid="ops.worker_process_dead"
    )

"""Real threads against the real database, released at the same instant."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connection


def run_together(count: int, work: Callable[[int], Any], *, timeout: float = 120) -> list[Any]:
    """Run work(0..count-1) in `count` threads released at the same instant.

    `timeout` is how long each thread may take before it counts as hung: a long
    workload on a loaded machine passes its own, larger figure.

    Each result is the return value or the exception raised; every thread closes
    its own database connection.
    """
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def body(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work(index)
        except Exception as error:  # the test inspects what each thread got
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=body, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=timeout)
    assert not any(thread.is_alive() for thread in threads), "a thread hung"
    return results


def someone_waits_on_a_lock() -> bool:
    """True when a session of this database waits on a lock right now."""
    with connection.cursor() as cursor:
        # The statistics views are one snapshot a transaction: drop it for a fresh look.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        )
        return cursor.fetchone()[0] > 0

"""Celery tasks of online play (thin: they call services)."""

from __future__ import annotations

from celery import shared_task


@shared_task(name="online.sweep", ignore_result=True)
def sweep() -> dict[str, int]:
    """Bot fill for players who waited too long; stake tables not full in time."""
    from online.services import online_sweep

    return online_sweep()


@shared_task(name="online.prune_queue_seatings", ignore_result=True)
def prune_queue_seatings() -> int:
    """The queue's seating records past QUEUE_SEATING_KEEP_DAYS deleted (daily)."""
    from online.services import queue_seatings_prune

    return queue_seatings_prune()

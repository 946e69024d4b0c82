"""Celery tasks of the games app (thin: they call services)."""

from __future__ import annotations

from celery import shared_task

from games import services


@shared_task(name="games.bot_move", ignore_result=True)
def bot_move(table_id: int, version: int | None = None) -> None:
    """One bot move at the match's `version` (None: whatever the match's version;
    tasks queued before versions were carried). Acknowledged late (the settings'
    CELERY_TASK_ACKS_LATE): a worker killed while playing it leaves it to be
    delivered again, and a delivery after the move was played does nothing."""
    services.match_bot_move(table_id=table_id, version=version)


@shared_task(name="games.sweep_tables", ignore_result=True)
def sweep_tables() -> dict[str, int]:
    """Expired turns and long absences: the timers that survive any process."""
    return services.tables_sweep()

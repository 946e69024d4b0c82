"""Celery tasks of the games app (thin: they call services)."""

from __future__ import annotations

from celery import shared_task

from games import services


@shared_task(name="games.bot_move", ignore_result=True)
def bot_move(table_id: int) -> None:
    services.match_bot_move(table_id=table_id)


@shared_task(name="games.sweep_tables", ignore_result=True)
def sweep_tables() -> dict[str, int]:
    """Expired turns and long absences: the timers that survive any process."""
    return services.tables_sweep()

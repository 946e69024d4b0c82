from celery import shared_task

from leagues import services


@shared_task(name="leagues.close_due_weeks")
def close_due_weeks() -> int:
    """Close every finished league week (beat: Monday 00:00 Madrid, plus a catch-up)."""
    return sum(1 for closing in services.league_weeks_close_due() if not closing.replayed)

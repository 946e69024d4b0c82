from celery import shared_task

from achievements.services import (
    achievements_for_match,
    achievements_read_events,
    achievements_read_pending,
)


@shared_task(name="achievements.match_achievements", acks_late=True)
def match_achievements(match_id: int) -> int:
    """The achievements of a settled match's players (a redelivery grants nothing)."""
    return len(achievements_for_match(match_id=match_id))


@shared_task(name="achievements.read_pending")
def read_pending() -> int:
    """Reads the settled matches waiting, then the results of days, league weeks and
    tournaments waiting (beat, every ACHIEVEMENTS_READ_SECONDS)."""
    return achievements_read_pending() + len(achievements_read_events())

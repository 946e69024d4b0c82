from celery import shared_task

from achievements.services import achievements_for_match


@shared_task(name="achievements.match_achievements", acks_late=True)
def match_achievements(match_id: int) -> int:
    """The achievements of a settled match's players (a redelivery grants nothing)."""
    return len(achievements_for_match(match_id=match_id))

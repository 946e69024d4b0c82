from celery import shared_task

from tournaments import services


@shared_task(name="tournaments.tick")
def tick() -> int:
    """Everything due in every tournament (beat: every TOURNAMENT_TICK_SECONDS): the
    next recurring instances, registration opened and closed, rounds started and
    finished, no-shows, the finish. Idempotent; returns how many tournaments moved."""
    return len(services.tournaments_tick())


@shared_task(name="tournaments.advance")
def advance(tournament_id: int) -> list[str]:
    """One tournament advanced now (a round's last game was recorded): the round
    finished and the next paired at once. Idempotent, as the tick."""
    return services.tournament_advance(tournament_id=tournament_id).steps

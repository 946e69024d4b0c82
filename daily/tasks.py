from celery import shared_task

from daily import services


@shared_task(name="daily.close_due_days")
def close_due_days() -> int:
    """Close every day of the daily deal that is over (beat: 00:00 Madrid, plus a
    catch-up for days missed while nothing ran): final standings, rewards paid once."""
    return sum(1 for closing in services.days_close_due() if not closing.replayed)


@shared_task(name="daily.refresh_standings")
def refresh_standings() -> int:
    """The provisional standings of the day being played (beat: every
    DAILY_STANDINGS_SECONDS)."""
    day = services.today_day()
    if day is None:
        return 0
    services.standings_refresh(day_id=day.pk)
    return day.players

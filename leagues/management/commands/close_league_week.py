"""Close finished league weeks by hand: all due ones, or up to the week of a given date."""

from __future__ import annotations

from datetime import date, datetime, time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from leagues import services
from leagues.errors import LeagueError
from leagues.models import LeagueWeek
from leagues.weeks import league_time_zone, week_bounds


def _date(value: str) -> date:
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--week needs a date as YYYY-MM-DD, not {value!r}") from None


class Command(BaseCommand):
    help = (
        "Close every finished league week, oldest first (idempotent). With --week, close "
        "up to and including the week containing that date (Europe/Madrid)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--week", metavar="YYYY-MM-DD", help="a date inside the week")

    def handle(self, *args: Any, week: str | None = None, **options: Any) -> None:
        now = timezone.now()
        up_to = None
        if week is not None:
            day = _date(week)
            starts_at, ends_at = week_bounds(datetime.combine(day, time(12), league_time_zone()))
            if ends_at > now:
                raise CommandError(f"the week of {day} has not ended yet (it ends {ends_at})")
            up_to = LeagueWeek.objects.filter(starts_at=starts_at).first()
            if up_to is None:
                raise CommandError(f"no league week was recorded for {day}: nothing to close")
        try:
            closings = services.league_weeks_close_due(now=now, up_to=up_to)
        except LeagueError as error:
            raise CommandError(error.message) from error
        done = [c for c in closings if not c.replayed]
        if not done:
            self.stdout.write("Nothing to close.")
        for closing in done:
            self.stdout.write(
                f"Closed {closing.week.label}: {closing.players} players, "
                f"{closing.promoted} up, {closing.relegated} down, "
                f"{closing.week.prizes_paid} coins in prizes."
            )

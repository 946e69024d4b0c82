"""What operators watch (cuatrola_site/monitoring.py): tables in play, moves and
finished matches by the minute."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import Count, Q
from django.db.models.functions import TruncMinute

from games.models import Match, MatchAction, MatchSeat, MatchStatus, Mode, Table, TableStatus


def tables_playing_by_mode() -> dict[str, int]:
    """Tables with a match in play, by mode (every mode present, 0 when none)."""
    counts = dict.fromkeys(Mode.values, 0)
    rows = (
        Table.objects.filter(status=TableStatus.PLAYING)
        .values_list("mode")
        .annotate(n=Count("pk"))
        .order_by()
    )
    counts.update(dict(rows))
    return counts


def moves_by_minute(since: datetime) -> dict[datetime, int]:
    """Moves applied since `since`, counted by the minute they were made in."""
    rows = (
        MatchAction.objects.filter(created_at__gte=since)
        .annotate(minute=TruncMinute("created_at"))
        .values_list("minute")
        .annotate(n=Count("pk"))
        .order_by()
    )
    return dict(rows)


@dataclass(frozen=True)
class FinishedSince:
    matches: dict[str, int]  # by mode
    seats: int  # human seats of those matches
    abandoned: int  # of which abandoned


def finished_since(since: datetime) -> FinishedSince:
    """Matches finished since `since`, by mode, and how many of their players'
    seats were abandoned."""
    matches = dict.fromkeys(Mode.values, 0)
    rows = (
        Match.objects.filter(finished_at__gte=since, status=MatchStatus.FINISHED)
        .values_list("table__mode")
        .annotate(n=Count("pk"))
        .order_by()
    )
    matches.update(dict(rows))
    seats = MatchSeat.objects.filter(
        match__finished_at__gte=since, match__status=MatchStatus.FINISHED, is_bot=False
    ).aggregate(n=Count("pk"), abandoned=Count("pk", filter=Q(abandoned=True)))
    return FinishedSince(matches=matches, seats=seats["n"], abandoned=seats["abandoned"])

"""The periodic safety net (Celery beat or the embedded ticker): the timers that
matter live in the database, so any process's pass handles them."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from games.models import Match, MatchStatus, Seat, SeatKind, TableStatus
from games.modes import modes_with_stand_in
from games.services.play import match_timeout
from games.services.presence import seat_abandon_absent, seat_mark_no_show, seat_presence_lost


def tables_sweep() -> dict[str, int]:
    """Expired turns, sockets of dead processes, seats nobody opened, and long
    absences (each its own transaction)."""
    now = timezone.now()
    done = {"timeouts": 0, "presence_lost": 0, "no_shows": 0, "abandoned": 0}
    due = Match.objects.filter(status=MatchStatus.PLAYING, turn_deadline__lte=now).values_list(
        "pk", "version"
    )
    for match_id, version in list(due[:500]):
        if match_timeout(match_id=match_id, version=version):
            done["timeouts"] += 1
    stale = Seat.objects.filter(
        live=True,
        connections__gt=0,
        seen_at__lte=now - timedelta(seconds=settings.PRESENCE_STALE_SECONDS),
    ).values_list("table_id", "position")
    for table_id, position in list(stale[:500]):
        if seat_presence_lost(table_id=table_id, position=position):
            done["presence_lost"] += 1
    no_shows = Seat.objects.filter(
        table__status=TableStatus.PLAYING,
        table__mode__in=modes_with_stand_in(),
        table__matches__status=MatchStatus.PLAYING,
        table__matches__started_at__lte=now
        - timedelta(seconds=settings.ABSENCE_CONNECT_GRACE_SECONDS),
        kind=SeatKind.HUMAN,
        live=True,
        connections=0,
        absent_since__isnull=True,
    ).values_list("table_id", "position")
    for table_id, position in list(no_shows[:500]):
        if seat_mark_no_show(table_id=table_id, position=position):
            done["no_shows"] += 1
    limit = now - timedelta(seconds=settings.ABANDON_AFTER_SECONDS)
    absent = Seat.objects.filter(
        table__status=TableStatus.PLAYING, abandoned=False, absent_since__lte=limit
    ).values_list("table_id", "position")
    for table_id, position in list(absent[:500]):
        if seat_abandon_absent(table_id=table_id, position=position):
            done["abandoned"] += 1
    return done

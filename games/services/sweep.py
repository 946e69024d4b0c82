"""The periodic safety net (Celery beat or the embedded ticker): the timers that
matter live in the database, so any process's pass handles them.

Outages: the sweep keeps when it last ran (`SweepClock`). When it has not run for
longer than SWEEP_OUTAGE_SECONDS (beat, every worker or the database was down), the
players' clocks were not watched and their moves may not have reached the server, so
the time lost is given back before anyone is judged: the turn deadlines of players
(not of bots: a bot whose task was lost is taken over at once), absences and the
seats' last heartbeats move forward by it, and no-shows wait the grace again.
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from games.models import Match, MatchStatus, Seat, SeatKind, SweepClock, TableStatus, WebProcess
from games.modes import modes_with_stand_in
from games.services.play import match_timeout
from games.services.presence import (
    seat_abandon_absent,
    seat_mark_no_show,
    seat_presence_lost,
    seat_process_gone,
)

logger = logging.getLogger(__name__)


def tables_sweep() -> dict[str, int]:
    """Expired turns, sockets of dead processes, seats nobody opened, and long
    absences (each its own transaction)."""
    now = timezone.now()
    done = {"timeouts": 0, "processes_gone": 0, "presence_lost": 0, "no_shows": 0, "abandoned": 0}
    resumed_at = sweep_clock_tick(now)
    due = Match.objects.filter(status=MatchStatus.PLAYING, turn_deadline__lte=now).values_list(
        "pk", "version"
    )
    for match_id, version in list(due[:500]):
        if match_timeout(match_id=match_id, version=version):
            done["timeouts"] += 1
    done["processes_gone"] = web_processes_sweep(now)
    stale = Seat.objects.filter(
        live=True,
        connections__gt=0,
        seen_at__lte=now - timedelta(seconds=settings.PRESENCE_STALE_SECONDS),
    ).values_list("table_id", "position")
    for table_id, position in list(stale[:500]):
        if seat_presence_lost(table_id=table_id, position=position):
            done["presence_lost"] += 1
    grace = timedelta(seconds=settings.ABSENCE_CONNECT_GRACE_SECONDS)
    candidates = Seat.objects.none()  # within the grace after an outage: reconnecting
    if resumed_at is None or now - resumed_at >= grace:
        candidates = Seat.objects.filter(
            table__status=TableStatus.PLAYING,
            table__mode__in=modes_with_stand_in(),
            table__matches__status=MatchStatus.PLAYING,
            table__matches__started_at__lte=now - grace,
            kind=SeatKind.HUMAN,
            live=True,
            connections=0,
            absent_since__isnull=True,
        ).exclude(reconnect_by__gt=now)  # a restart closed its socket: reconnecting
    no_shows = candidates.values_list("table_id", "position")
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


def web_processes_sweep(now: datetime) -> int:
    """The web processes silent for WEB_PROCESS_STALE_SECONDS died: their sockets stop
    counting on every seat (`seat_process_gone`, each seat its own transaction), and
    the row of one whose seats are all done is deleted. Returns the seats changed."""
    limit = now - timedelta(seconds=settings.WEB_PROCESS_STALE_SECONDS)
    changed = 0
    for process in list(
        WebProcess.objects.filter(heartbeat_at__lt=limit).values_list("pk", flat=True)
    ):
        held = Seat.objects.filter(sockets__has_key=process).values_list("table_id", "position")
        for table_id, position in list(held[:500]):
            changed += seat_process_gone(
                table_id=table_id, position=position, process=process, stale_before=limit
            )
        if not Seat.objects.filter(sockets__has_key=process).exists():
            # Only while still silent: one that counted a socket meanwhile beat anew.
            WebProcess.objects.filter(pk=process, heartbeat_at__lt=limit).delete()
    return changed


@transaction.atomic
def sweep_clock_tick(now: datetime) -> datetime | None:
    """Records this sweep; after an outage (the last one longer ago than
    SWEEP_OUTAGE_SECONDS) gives the time lost back to the clocks first. Returns when
    the last outage ended (None: none seen)."""
    clock, created = SweepClock.objects.select_for_update().get_or_create(
        pk=1, defaults={"swept_at": now}
    )
    if created:
        return None
    gap = now - clock.swept_at
    if gap > timedelta(seconds=settings.SWEEP_OUTAGE_SECONDS):
        # What the sweep would have watched meanwhile, less one period it always takes.
        lost = gap - timedelta(seconds=settings.TABLE_SWEEP_SECONDS)
        given = clocks_give_back(lost, now=now)
        logger.warning(
            "table sweep: none for %.1f s; %.1f s given back to %s turn(s), %s absence(s), "
            "%s seat(s) heard from",
            gap.total_seconds(),
            lost.total_seconds(),
            *given,
        )
        clock.resumed_at = now
    if now > clock.swept_at:
        clock.swept_at = now
    clock.save(update_fields=["swept_at", "resumed_at"])
    return clock.resumed_at


def clocks_give_back(lost: timedelta, *, now: datetime) -> tuple[int, int, int]:
    """`lost` added to the clocks that ran while nobody watched them: a player's turn
    deadline (never past a whole turn from now), an absence not yet abandoned (its
    wait to abandonment), the last heartbeat of a connected seat (its presence).
    A bot's turn keeps its deadline: the sweep takes it over as soon as it is due."""
    longest = timedelta(seconds=max(settings.TURN_SECONDS_BID, settings.TURN_SECONDS_CARD))
    playing = list(
        Match.objects.filter(status=MatchStatus.PLAYING, turn_deadline__isnull=False).values_list(
            "pk", "table_id", "to_play", "turn_deadline"
        )
    )
    players = {
        (seat.table_id, seat.position)
        for seat in Seat.objects.filter(
            table_id__in=[table_id for _, table_id, _, _ in playing], kind=SeatKind.HUMAN
        ).only("table_id", "position", "kind", "abandoned", "absent_since")
        if not seat.bot_controlled
    }
    turns = 0
    for match_id, table_id, to_play, deadline in playing:
        if deadline is None or (table_id, to_play) not in players:
            continue
        later = min(deadline + lost, now + longest)
        if later > deadline:
            turns += Match.objects.filter(pk=match_id, turn_deadline=deadline).update(
                turn_deadline=later
            )
    absences = Seat.objects.filter(
        table__status=TableStatus.PLAYING, abandoned=False, absent_since__isnull=False
    ).update(absent_since=F("absent_since") + lost)
    heard = Seat.objects.filter(live=True, connections__gt=0).update(seen_at=F("seen_at") + lost)
    return turns, absences, heard

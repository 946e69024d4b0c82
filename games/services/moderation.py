"""Staff stopping a match, and a banned player leaving their table."""

from __future__ import annotations

import logging
from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from cuatrola.engine import Match as EngineMatch
from games import errors
from games.models import Match, MatchStatus, Seat, Table, TableStatus
from games.modes import mode_policy
from games.services.rooms import seat_leave
from games.services.tables import table_broadcast, table_close, table_lock_live
from games.state import engine_match

logger = logging.getLogger(__name__)


@transaction.atomic
def match_abort(*, match_id: int, staff_user: User, reason: str) -> Match:
    """Staff stop a live match: everyone at the table is told, the mode undoes what
    it holds (a stake table's stakes go back, exactly once: the economy's refund is
    idempotent per table), nobody earns anything (the match is never settled), and
    the admin log keeps the reason."""
    reason = (reason or "").strip()
    if not reason:
        raise errors.ReasonRequired()
    if not staff_user.has_perm("games.change_match"):
        raise errors.NotAllowed()
    table, match, seats, engine = _stop_locked(match_id)
    mode_policy(table.mode).match_abort(table=table, match=match, seats=seats)
    LogEntry.objects.log_actions(
        user_id=staff_user.pk,
        queryset=[match],
        action_flag=CHANGE,
        change_message=_("Match aborted. Reason: %(reason)s") % {"reason": reason},
    )
    table_broadcast(
        table=table,
        seats=seats,
        match=match,
        engine=engine,
        events=[{"type": "match_aborted", "reason": reason}],
    )
    return match


@transaction.atomic
def match_stop(*, match_id: int, event: dict[str, Any]) -> Match | None:
    """A mode ends one of its live matches with no result (the daily deal at the end
    of its day): the table is closed, nobody earns anything, `event` (a frame
    event, e.g. `{"type": "daily_day_over"}`) tells the table why. The caller's
    mode does its own bookkeeping (no `match_abort` hook). None when the match is
    not live any more (finished or stopped meanwhile)."""
    try:
        table, match, seats, engine = _stop_locked(match_id)
    except errors.GameError:
        return None
    table_broadcast(table=table, seats=seats, match=match, engine=engine, events=[event])
    return match


def _stop_locked(match_id: int) -> tuple[Table, Match, list[Seat], EngineMatch]:
    """Locks the table of the live match `match_id`, marks the match aborted and
    closes the table (cancelled). MatchNotLive when it is not being played."""
    table_id = Match.objects.filter(pk=match_id).values_list("table_id", flat=True).first()
    if table_id is None:
        raise errors.MatchNotLive()
    table, match, seats = table_lock_live(table_id=table_id)
    if match.pk != match_id:
        raise errors.MatchNotLive()
    engine = engine_match(match)
    match.status = MatchStatus.ABORTED
    match.finished_at = timezone.now()
    match.to_play = None
    match.turn_deadline = None
    match.save(update_fields=["status", "finished_at", "to_play", "turn_deadline"])
    table_close(table=table, seats=seats, status=TableStatus.CANCELLED)
    return table, match, seats, engine


def user_remove_from_tables(*, user: User) -> None:
    """A banned user leaves their live table: a bot takes the seat (or the room closes)."""
    seat = Seat.objects.filter(user=user, live=True).first()
    if seat is None:
        return
    try:
        seat_leave(user=user, table_id=seat.table_id)
    except errors.GameError:
        logger.warning("could not remove banned user %s from table %s", user.pk, seat.table_id)

"""Staff stopping a match, and a banned player leaving their table."""

from __future__ import annotations

import logging

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games import errors
from games.models import Match, MatchStatus, Seat, TableStatus
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


def user_remove_from_tables(*, user: User) -> None:
    """A banned user leaves their live table: a bot takes the seat (or the room closes)."""
    seat = Seat.objects.filter(user=user, live=True).first()
    if seat is None:
        return
    try:
        seat_leave(user=user, table_id=seat.table_id)
    except errors.GameError:
        logger.warning("could not remove banned user %s from table %s", user.pk, seat.table_id)

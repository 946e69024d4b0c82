"""The matchmaking queue: joining, leaving, the matchmaker's passes (seated four by
four among equals, bots filling for those who waited), and the record of each seating."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from accounts.selectors import linked_pairs
from games import services as games
from games.models import Mode, RuleSetName, Seat, SeatKind, Table, TableStatus
from games.services import user_notify
from online import errors as err
from online import quitting
from online.matchmaking import Seating, Waiting, tables_choose
from online.models import QueueEntry, QueueInvitation, QueueSeating
from online.services.seating import SEATS, already_at_table, at_live_table, now_or, rng, take_seat
from online.services.stakes import stake_table_leave, stake_tables_sweep
from ops import metrics
from ops.prune import delete_in_batches
from ratings.selectors import NEW_VALUE, bot_rating, ratings_of
from social.selectors import blocked_pairs, partner_marks_among

logger = logging.getLogger(__name__)


# pg_advisory_xact_lock key of the matchmaker: one matchmaking pass at a time, in
# every process, so each pass sees every committed queue row.
MATCHMAKER_LOCK = 0x6375_6174_6D6D  # "cuatmm"


_sqlite_matchmaker = threading.Lock()  # SQLite (embedded default): one process, threads


def queue_join(*, user: User, now: datetime | None = None) -> QueueEntry:
    """Put `user` in the matchmaking queue (joining twice keeps the first place).

    AlreadyAtTable when they sit at a live table; QueueWait (why, until when) while
    a wait for abandoning rated matches is in force (docs/fairplay.md). After commit
    a matchmaking pass runs, so four players arriving together are seated at once.
    """
    now = now_or(now)
    with transaction.atomic():
        if at_live_table(user.pk):
            raise already_at_table()
        quitting.wait_check(user=user, now=now)
        entry, created = QueueEntry.objects.get_or_create(user=user, defaults={"joined_at": now})
        if created:
            # Queued alone: an invitation to queue together they sent is void.
            for to_user_id in QueueInvitation.objects.filter(from_user=user).values_list(
                "to_user_id", flat=True
            ):
                user_notify(user_id=to_user_id, what="invitations")
            QueueInvitation.objects.filter(from_user=user).delete()
            transaction.on_commit(match_after_commit)
    return entry


def match_after_commit() -> None:
    try:
        queue_match()
    except Exception:  # the periodic sweep retries; a join never fails for this
        logger.exception("matchmaking pass after a join failed")


def quit_notice_dismiss(*, user: User) -> bool:
    """The player read what their last abandonment of a rated match cost
    (docs/fairplay.md): it is no longer shown. False when nothing was shown."""
    return quitting.notice_dismiss(user=user)


def queue_leave(*, user: User) -> None:
    """Take `user` out of the queue, and the partner they queued with (who is told);
    NotQueued when they are not in it (or were just seated)."""
    with transaction.atomic():
        entry = QueueEntry.objects.select_for_update().filter(user=user).first()
        if entry is None:
            raise err.NotQueued()
        entry.delete()
        if (
            entry.partner_id is not None
            and QueueEntry.objects.filter(user_id=entry.partner_id, partner=user).delete()[0]
        ):
            user_notify(user_id=entry.partner_id, what="invitations")


def queue_match(*, now: datetime | None = None) -> list[int]:
    """One matchmaking pass: the waiting players (oldest first, at most
    ONLINE_MATCH_BATCH) are seated four by four among equals, in balanced pairs, and
    bots fill a table for those left once the longest waiting of them has waited
    ONLINE_BOT_FILL_SECONDS (`online.matchmaking`). Returns the ids of the tables
    created.
    """
    now = now_or(now)
    guard = _sqlite_matchmaker if connection.vendor != "postgresql" else contextlib.nullcontext()
    with guard, transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [MATCHMAKER_LOCK])
        # SKIP LOCKED: a row being deleted by a leave (or a ban) is not waited for.
        entries = list(
            QueueEntry.objects.select_for_update(skip_locked=True).order_by("joined_at", "pk")[
                : settings.ONLINE_MATCH_BATCH
            ]
        )
        entries = _drop_busy(entries)
        by_user = {e.user_id: e for e in entries}
        ratings = ratings_of(list(by_user))
        bot = bot_rating(settings.ONLINE_BOT_LEVEL)  # a level without one: a new player's
        marks = partner_marks_among(by_user)
        seatings = tables_choose(
            [Waiting(e.user_id, ratings[e.user_id], e.joined_at, e.partner_id) for e in entries],
            now=now,
            fill_after_seconds=settings.ONLINE_BOT_FILL_SECONDS,
            bot_rating=bot if bot is not None else NEW_VALUE,
            # Kept apart: a block either way, and linked accounts (never opponents,
            # nor partners the queue chose: docs/online.md).
            blocked=blocked_pairs(by_user) | linked_pairs(by_user, now=now),
            # Partner marks (docs/online.md, "Partners in the queue").
            avoid=marks.avoid,
            prefer=marks.prefer,
        )
        created = []
        for seating in seatings:
            group = [by_user[w.key] for w in seating.people]
            try:
                with transaction.atomic():
                    created.append(_online_table_create(group, seating, now))
            except err.AlreadyAtTable:
                # Someone in the group sat elsewhere since the check: drop them, the
                # others keep their place for the next pass.
                _drop_busy(group)
    return created


def _drop_busy(entries: list[QueueEntry]) -> list[QueueEntry]:
    """Remove the entries of players who meanwhile sat at a live table."""
    busy = set(
        Seat.objects.filter(live=True, user_id__in=[e.user_id for e in entries]).values_list(
            "user_id", flat=True
        )
    )
    if busy:
        QueueEntry.objects.filter(pk__in=[e.pk for e in entries if e.user_id in busy]).delete()
    return [e for e in entries if e.user_id not in busy]


def _online_table_create(group: Sequence[QueueEntry], seating: Seating, now: datetime) -> int:
    users = User.objects.in_bulk([e.user_id for e in group])
    # The first pair on seats 0 and 2 or on 1 and 3, each pair's seats in either order.
    first = rng.randrange(2)
    at: dict[int, User | None] = {}
    for offset, pair in zip((first, 1 - first), seating.pairs, strict=True):
        positions = [offset, offset + 2]
        rng.shuffle(positions)
        for position, waiting in zip(positions, pair, strict=True):
            at[position] = None if waiting is None else users[waiting.key]
    first_waiting = min(group, key=lambda e: (e.joined_at, e.pk))
    table = Table.objects.create(
        mode=Mode.ONLINE,
        rules=RuleSetName.ONLINE,
        bot_level=settings.ONLINE_BOT_LEVEL,
        owner=users[first_waiting.user_id],
        status=TableStatus.OPEN,
    )
    Seat.objects.bulk_create(
        [Seat(table=table, position=p, kind=SeatKind.BOT) for p in range(SEATS) if at[p] is None]
    )
    for position in range(SEATS):
        user = at[position]
        if user is not None:
            take_seat(Seat(table=table, position=position), user)
    QueueEntry.objects.filter(pk__in=[e.pk for e in group]).delete()
    _seatings_record(table, group, now)
    table = games.table_lock(table_id=table.pk)
    games.table_start(table=table, seats=games.seats_lock(table=table), fresh=True)
    return table.pk


def queue_seatings_prune(*, now: datetime | None = None, batch: int = 5000) -> int:
    """Deletes the queue's seating records older than QUEUE_SEATING_KEEP_DAYS (the
    live view reads the last hour; a row is kept a while for looking back). In
    batches of `batch`, each its own transaction, so the table is never held long.
    Returns how many rows were deleted."""
    cutoff = (now or timezone.now()) - timedelta(days=settings.QUEUE_SEATING_KEEP_DAYS)
    return delete_in_batches(
        QueueSeating.objects.filter(seated_at__lt=cutoff), order_by="seated_at", batch=batch
    )


def _seatings_record(table: Table, group: Sequence[QueueEntry], now: datetime) -> None:
    """How long each of them waited and how many bots joined them: a row each (the
    staff's live view) and, once committed, the Prometheus figures."""
    bots = SEATS - len(group)
    waits = [max(0.0, (now - entry.joined_at).total_seconds()) for entry in group]
    QueueSeating.objects.bulk_create(
        [
            QueueSeating(seated_at=now, waited_ms=round(wait * 1000), table=table, bot_seats=bots)
            for wait in waits
        ]
    )

    def record() -> None:
        for wait in waits:
            metrics.QUEUE_SEAT_SECONDS.observe(wait)
        metrics.QUEUE_SEATS.labels("player").inc(len(group))
        metrics.QUEUE_SEATS.labels("bot").inc(bots)

    metrics.after_commit(record)


def online_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The periodic pass (beat / embedded ticker): bot fill and stake-table timeouts."""
    now = now_or(now)
    return {
        "tables": len(queue_match(now=now)),
        "cancelled": stake_tables_sweep(now=now),
    }


def queue_remove_banned(*, user: User) -> None:
    """A banned player leaves the queue (the partner they queued with waits on alone)
    and any stake table still waiting to fill; their invitations to queue together,
    sent or received, are void."""
    QueueEntry.objects.filter(user=user).delete()
    QueueInvitation.objects.filter(Q(from_user=user) | Q(to_user=user)).delete()
    for table_id in Seat.objects.filter(
        user=user, live=True, table__mode=Mode.STAKE, table__status=TableStatus.OPEN
    ).values_list("table_id", flat=True):
        with contextlib.suppress(err.OnlineError):
            stake_table_leave(user=user, table_id=table_id)

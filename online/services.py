"""Matchmaking with bot fill, stake tables, and the settlement of online matches.

The only code that writes the queue and stake rows. Each service is one
transaction. Lock order, always: the matchmaker's advisory lock, then queue
rows; or a table row, then its seats (games.services' order), then queue rows,
then ledger accounts (inside the economy services). Tables are locked, seated,
started, broadcast and closed through games.services' public life cycle
(`table_lock`, `seat_take`, `table_start`, `table_broadcast`, `table_close`), so
the partial unique index on live seats is the last word on "one live table per
player". What online and stake tables do where modes differ is answered by
`online.policies`.
"""

from __future__ import annotations

import contextlib
import logging
import random
import threading
from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from fractions import Fraction
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy

from accounts.models import User
from accounts.selectors import linked_pairs
from economy.errors import EscrowSettled, InsufficientFunds
from economy.services import (
    FULL_RATE,
    Placement,
    RewardRate,
    match_reward,
    pot_pay_out,
    stake_place,
    stake_refund,
)
from games import errors as game_errors
from games import hooks as games_hooks
from games import services as games
from games.models import Match, MatchSeat, Mode, RuleSetName, Seat, SeatKind, Table, TableStatus
from leagues.services import LeagueResult, league_points_record_match
from online import errors as err
from online import quitting
from online.matchmaking import Seating, Waiting, tables_choose
from online.models import (
    MatchLeaguePoints,
    QueueEntry,
    QueueSeating,
    StakeSitting,
    StakeTable,
)
from ops import metrics
from ops.prune import delete_in_batches
from ratings.selectors import NEW_VALUE, bot_rating, ratings_of
from ratings.services import match_rate
from social.selectors import blocked_by_any, blocked_pairs

logger = logging.getLogger(__name__)

SEATS = 4
# pg_advisory_xact_lock key of the matchmaker: one matchmaking pass at a time, in
# every process, so each pass sees every committed queue row.
MATCHMAKER_LOCK = 0x6375_6174_6D6D  # "cuatmm"
_sqlite_matchmaker = threading.Lock()  # SQLite (embedded default): one process, threads
_rng = random.SystemRandom()


def _now(now: datetime | None) -> datetime:
    return now or timezone.now()


def _at_live_table(user_id: int) -> bool:
    return Seat.objects.filter(user_id=user_id, live=True).exists()


#: What a player looking for a table is told when they already sit at a live one.
ALREADY_AT_TABLE = gettext_lazy(
    "You are already at a live table: finish or leave it before looking for another."
)


def _already_at_table() -> err.AlreadyAtTable:
    return err.AlreadyAtTable(ALREADY_AT_TABLE)


def _take_seat(seat: Seat, user: User, *, forbids_watchers: bool = False) -> None:
    try:
        games.seat_take(seat=seat, user=user, forbids_watchers=forbids_watchers)
    except err.AlreadyAtTable:
        raise _already_at_table() from None


# --- the queue --------------------------------------------------------------------


def queue_join(*, user: User, now: datetime | None = None) -> QueueEntry:
    """Put `user` in the matchmaking queue (joining twice keeps the first place).

    AlreadyAtTable when they sit at a live table; QueueWait (why, until when) while
    a wait for abandoning rated matches is in force (docs/fairplay.md). After commit
    a matchmaking pass runs, so four players arriving together are seated at once.
    """
    now = _now(now)
    with transaction.atomic():
        if _at_live_table(user.pk):
            raise _already_at_table()
        quitting.wait_check(user=user, now=now)
        entry, created = QueueEntry.objects.get_or_create(user=user, defaults={"joined_at": now})
        if created:
            transaction.on_commit(_match_after_commit)
    return entry


def _match_after_commit() -> None:
    try:
        queue_match()
    except Exception:  # the periodic sweep retries; a join never fails for this
        logger.exception("matchmaking pass after a join failed")


def quit_notice_dismiss(*, user: User) -> bool:
    """The player read what their last abandonment of a rated match cost
    (docs/fairplay.md): it is no longer shown. False when nothing was shown."""
    return quitting.notice_dismiss(user=user)


def queue_leave(*, user: User) -> None:
    """Take `user` out of the queue; NotQueued when they are not in it (or were just seated)."""
    with transaction.atomic():
        deleted, _ = QueueEntry.objects.filter(user=user).delete()
    if not deleted:
        raise err.NotQueued()


def queue_match(*, now: datetime | None = None) -> list[int]:
    """One matchmaking pass: the waiting players (oldest first, at most
    ONLINE_MATCH_BATCH) are seated four by four among equals, in balanced pairs, and
    bots fill a table for those left once the longest waiting of them has waited
    ONLINE_BOT_FILL_SECONDS (`online.matchmaking`). Returns the ids of the tables
    created.
    """
    now = _now(now)
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
        seatings = tables_choose(
            [Waiting(e.user_id, ratings[e.user_id], e.joined_at) for e in entries],
            now=now,
            fill_after_seconds=settings.ONLINE_BOT_FILL_SECONDS,
            bot_rating=bot if bot is not None else NEW_VALUE,
            # Kept apart: a block either way, and linked accounts (never opponents,
            # nor partners the queue chose: docs/online.md).
            blocked=blocked_pairs(by_user) | linked_pairs(by_user, now=now),
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
    first = _rng.randrange(2)
    at: dict[int, User | None] = {}
    for offset, pair in zip((first, 1 - first), seating.pairs, strict=True):
        positions = [offset, offset + 2]
        _rng.shuffle(positions)
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
            _take_seat(Seat(table=table, position=position), user)
    QueueEntry.objects.filter(pk__in=[e.pk for e in group]).delete()
    _seatings_record(table, group, now)
    table = games.table_lock(table_id=table.pk)
    games.table_start(table=table, seats=games.seats_lock(table=table))
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


# --- stake tables ---------------------------------------------------------------------


def stake_amount(stake: Any) -> int:
    """The stake as an int, if it is one of STAKE_AMOUNTS; UnknownStake otherwise."""
    if isinstance(stake, bool):
        raise err.UnknownStake()
    try:
        amount = int(stake)
    except (TypeError, ValueError):
        raise err.UnknownStake() from None
    if amount not in settings.STAKE_AMOUNTS:
        raise err.UnknownStake()
    return amount


def _lock_stake_table(table_id: Any) -> tuple[Table, StakeTable]:
    try:
        table = games.table_lock(table_id=int(table_id))
    except (game_errors.TableNotFound, TypeError, ValueError, OverflowError):
        raise err.StakeTableNotFound() from None
    info = StakeTable.objects.filter(table=table).first()
    if table.mode != Mode.STAKE or info is None:
        raise err.StakeTableNotFound()
    return table, info


def min_reputation_value(value: Any) -> int:
    """A stake table's minimum reputation as an int from 0 to 100 (absent or empty: 0);
    BadMinimumReputation for anything else (a word, a fraction, a negative number,
    more than 100)."""
    if value is None or (isinstance(value, str) and value.strip() == ""):
        return 0
    if isinstance(value, bool):
        raise err.BadMinimumReputation()
    text = str(value).strip()
    if not text.isascii() or not text.isdigit() or len(text) > 3:
        raise err.BadMinimumReputation()
    minimum = int(text)
    if minimum > 100:
        raise err.BadMinimumReputation()
    return minimum


def stake_table_open(
    *,
    user: User,
    stake: Any,
    allow_watchers: bool = True,
    min_reputation: Any = 0,
    now: datetime | None = None,
) -> Table:
    """Open a stake table of `stake` coins and sit `user` at it (their stake to escrow).
    `allow_watchers` False: nobody but staff may watch while they sit (docs/watching.md).
    `min_reputation`: the reputation (0-100) a player needs to sit there
    (BadMinimumReputation otherwise). QueueWait while the player waits for abandoning
    rated matches."""
    amount = stake_amount(stake)
    minimum = min_reputation_value(min_reputation)
    now = _now(now)
    with transaction.atomic():
        if _at_live_table(user.pk):
            raise _already_at_table()
        quitting.wait_check(user=user, now=now)
        table = Table.objects.create(mode=Mode.STAKE, rules=RuleSetName.ONLINE, owner=user)
        info = StakeTable.objects.create(
            table=table,
            stake=amount,
            expires_at=now + timedelta(seconds=settings.STAKE_FILL_SECONDS),
            min_reputation=minimum,
        )
        Seat.objects.bulk_create([Seat(table=table, position=p) for p in range(SEATS)])
        table = games.table_lock(table_id=table.pk)
        _sit(table, info, games.seats_lock(table=table), user, now, allow_watchers)
    return table


def stake_table_sit(
    *, user: User, table_id: Any, allow_watchers: bool = True, now: datetime | None = None
) -> Table:
    """Sit `user` at an open stake table: a random free seat, the stake into escrow.

    The fourth player starts the match. `allow_watchers` False: the player forbids
    watchers while they sit, and the sockets watching the table are closed (4433).
    Refusals (nothing changes): StakeTableNotFound, StakeTableClosed (started,
    cancelled or past its fill time), AlreadySeatedHere, StakeTableFull,
    NotWelcomeHere (a player seated there blocked the user), AlreadyAtTable, QueueWait
    (abandoned rated matches lately), ReputationTooLow (under the table's minimum),
    ShortBalance.
    """
    now = _now(now)
    with transaction.atomic():
        table, info = _lock_stake_table(table_id)
        if table.status != TableStatus.OPEN or info.expires_at <= now:
            raise err.StakeTableClosed()
        quitting.wait_check(user=user, now=now)
        _reputation_check(info, user)
        _sit(table, info, games.seats_lock(table=table), user, now, allow_watchers)
    return table


def _reputation_check(info: StakeTable, user: User) -> None:
    """ReputationTooLow when either share of the player's reputation (matches finished,
    finished without a turn timed out) is under the table's minimum; a player with no
    finished match has no reputation to show and is refused by any minimum above 0."""
    if not info.min_reputation:
        return
    found = games_hooks.seat_reputation(user.pk)
    if found is None or min(found.finished, found.on_time) < info.min_reputation:
        raise err.ReputationTooLow(
            minimum=info.min_reputation,
            finished=found.finished if found else None,
            on_time=found.on_time if found else None,
        )


def _sit(
    table: Table,
    info: StakeTable,
    seats: list[Seat],
    user: User,
    now: datetime,
    allow_watchers: bool,
) -> None:
    if any(s.user_id == user.pk for s in seats):
        raise err.AlreadySeatedHere()
    free = [s for s in seats if s.kind == SeatKind.EMPTY]
    if not free:
        raise err.StakeTableFull()
    if blocked_by_any(user.pk, [s.user_id for s in seats if s.user_id is not None]):
        # A player here blocked the sitter: the one who blocked never meets them. (Who
        # blocked someone sitting here may sit anyway: the page asks them to confirm.)
        raise err.NotWelcomeHere()
    # Sitting down leaves the queue; done before taking the seat so that a
    # matchmaking pass holding the queue row is waited for, never deadlocked with.
    QueueEntry.objects.filter(user=user).delete()
    seat = _rng.choice(free)
    # Only False forbids: any other value keeps the default (watchers allowed).
    forbids = allow_watchers is False
    _take_seat(seat, user, forbids_watchers=forbids)
    if forbids:
        seated = {s.user_id for s in seats if s.user_id is not None}
        games.table_watchers_close(table_id=table.pk, keep=seated)
    sitting = StakeSitting.objects.create(table=info, user=user, position=seat.position, sat_at=now)
    try:
        stake_place(
            user=user,
            table_id=table.pk,
            amount=info.stake,
            idempotency_key=f"stake:{table.pk}:{user.pk}:{sitting.pk}",
        )
    except InsufficientFunds:
        raise err.ShortBalance() from None
    except EscrowSettled:
        raise err.StakeTableClosed() from None
    if all(s.kind == SeatKind.HUMAN for s in seats):
        games.table_start(table=table, seats=seats)
    else:
        games.table_broadcast(table=table, seats=seats)


def stake_table_leave(*, user: User, table_id: Any, now: datetime | None = None) -> None:
    """Leave a stake table before its match starts: the seat is freed, the stake refunded.

    The last player leaving cancels the table. Once the match has started, leaving is
    abandoning (games.services.seat_leave); here that is StakeTableClosed.
    """
    now = _now(now)
    with transaction.atomic():
        table, _info = _lock_stake_table(table_id)
        seats = games.seats_lock(table=table)
        seat = next((s for s in seats if s.user_id == user.pk and s.live), None)
        if seat is None:
            raise err.NotSeatedHere()
        if table.status != TableStatus.OPEN:
            raise err.StakeTableClosed()
        stake_seat_leave_locked(table=table, seats=seats, seat=seat, now=now)


def stake_seat_leave_locked(
    *, table: Table, seats: list[Seat], seat: Seat, now: datetime | None = None
) -> None:
    """Free `seat` of an open stake table whose row and seats the caller has locked,
    refunding its stake (the stake policy's answer to games.services.seat_leave)."""
    now = _now(now)
    info = StakeTable.objects.get(table=table)
    user_id = seat.user_id
    sitting = (
        None  # an empty or bot seat has no sitting (a sitting's user is never null)
        if user_id is None
        else StakeSitting.objects.filter(table=info, user_id=user_id, left_at__isnull=True).first()
    )
    games.seat_free(seat=seat)
    if sitting is not None:
        sitting.left_at = now
        sitting.save(update_fields=["left_at"])
        stake_refund(
            table_id=table.pk,
            user=User.objects.get(pk=sitting.user_id),
            idempotency_key=f"refund:{table.pk}:{user_id}:{sitting.pk}",
            now=now,
        )
    if not any(s.kind == SeatKind.HUMAN for s in seats):
        _cancel_locked(table, info, seats, now)
    else:
        games.table_broadcast(table=table, seats=seats)


def stake_table_cancel(*, table_id: int, now: datetime | None = None) -> bool:
    """Cancel an open stake table past its fill time and refund every stake, once.

    False (nothing done) when the table started, was already cancelled or has time left.
    """
    now = _now(now)
    with transaction.atomic():
        try:
            table, info = _lock_stake_table(table_id)
        except err.StakeTableNotFound:
            return False
        if table.status != TableStatus.OPEN or info.expires_at > now:
            return False
        _cancel_locked(table, info, games.seats_lock(table=table), now)
    return True


def _cancel_locked(table: Table, info: StakeTable, seats: list[Seat], now: datetime) -> None:
    games.table_close(table=table, seats=seats, status=TableStatus.CANCELLED)
    StakeSitting.objects.filter(table=info, left_at__isnull=True).update(left_at=now)
    # Every stake still in escrow goes back, and the escrow is settled.
    stake_refund(table_id=table.pk, now=now)
    games.table_broadcast(table=table, seats=seats)


def stake_tables_sweep(*, now: datetime | None = None) -> int:
    """Cancel every open stake table past its fill time; returns how many."""
    now = _now(now)
    due = StakeTable.objects.filter(
        table__status=TableStatus.OPEN, expires_at__lte=now
    ).values_list("table_id", flat=True)
    return sum(stake_table_cancel(table_id=table_id, now=now) for table_id in list(due[:500]))


def online_sweep(*, now: datetime | None = None) -> dict[str, int]:
    """The periodic pass (beat / embedded ticker): bot fill and stake-table timeouts."""
    now = _now(now)
    return {
        "tables": len(queue_match(now=now)),
        "cancelled": stake_tables_sweep(now=now),
    }


# --- the end of an online or stake match ---------------------------------------------


def league_points_for(*, place: int, with_bots: bool) -> int:
    points = int(settings.ONLINE_LEAGUE_POINTS[place])
    if with_bots:
        points = int(points * Fraction(settings.ONLINE_BOT_LEAGUE_RATE))  # rounds down
    return points


def _place(ms: MatchSeat) -> int:
    """A finished match's seat has its place (set with the others before settlement)."""
    if ms.place is None:
        raise ValueError(f"match seat {ms.pk} has no place: its match is not finished")
    return ms.place


def match_settle(
    *,
    table: Table,
    match: Match,
    match_seats: list[MatchSeat],
    rate: RewardRate = FULL_RATE,
    pot: bool = False,
) -> None:
    """Pay an online or stake match that just finished, inside its finishing transaction
    (the online and stake policies' settlement, `online.policies`).

    Coins and XP per place through economy.match_reward at `rate` (stake tables: XP
    only); with `pot`, the whole pot to the winning pair's players who did not
    abandon; league points stored per seat and recorded in the league; the players'
    ratings updated (once per match: `ratings.services.match_rate`).
    """
    users = User.objects.in_bulk([ms.user_id for ms in match_seats if ms.user_id])
    finished_at = match.finished_at or timezone.now()
    placements = [
        Placement(
            user=None if ms.is_bot or ms.user_id is None else users[ms.user_id],
            place=_place(ms),
            abandoned=ms.abandoned,
        )
        for ms in match_seats
    ]
    match_reward(
        match_id=match.pk, label=table.mode, rate=rate, placements=placements, now=finished_at
    )
    if pot:
        _pot_share(table, match, match_seats, users)
    with_bots = any(ms.is_bot for ms in match_seats)
    rows = []
    for ms in match_seats:
        earns = not ms.is_bot and ms.user_id is not None and not ms.abandoned
        points = league_points_for(place=_place(ms), with_bots=with_bots) if earns else 0
        rows.append(
            MatchLeaguePoints(
                match=match,
                position=ms.position,
                user_id=ms.user_id,
                place=_place(ms),
                points=points,
                halved=with_bots,
            )
        )
    MatchLeaguePoints.objects.bulk_create(rows, ignore_conflicts=True)
    earners = [(users[r.user_id], r.points, r.place <= 2) for r in rows if r.points]
    _league_record(match, earners, finished_at)
    match_rate(match=match, match_seats=match_seats, bot_level=table.bot_level)
    # The ladder of waits: a clean finish takes it down, an abandonment not yet counted
    # is counted (docs/fairplay.md).
    quitting.finish_record(match=match, match_seats=match_seats, at=finished_at)


def _pot_share(
    table: Table, match: Match, match_seats: list[MatchSeat], users: dict[int, User]
) -> None:
    winners = [ms for ms in match_seats if ms.position % 2 == match.winner]
    present = [users[ms.user_id] for ms in winners if not ms.abandoned and ms.user_id]
    if not present:
        # Both winners abandoned (silent in PLATFORM.md): the players who stayed share it.
        present = [users[ms.user_id] for ms in match_seats if not ms.abandoned and ms.user_id]
    if present:
        pot_pay_out(table_id=table.pk, winners=present, match_id=match.pk, now=match.finished_at)
    else:
        stake_refund(table_id=table.pk, now=match.finished_at)  # all four abandoned


def _league_record(
    match: Match, earners: list[tuple[User, int, bool]], finished_at: datetime
) -> None:
    """The league's seam (docs/league.md): every earner at once; idempotent per (user, match)."""
    if earners:
        league_points_record_match(
            match_id=match.pk,
            finished_at=finished_at,
            results=[LeagueResult(user=u, points=p, won=won) for u, p, won in earners],
        )


def queue_remove_banned(*, user: User) -> None:
    """A banned player leaves the queue and any stake table still waiting to fill."""
    QueueEntry.objects.filter(user=user).delete()
    for table_id in Seat.objects.filter(
        user=user, live=True, table__mode=Mode.STAKE, table__status=TableStatus.OPEN
    ).values_list("table_id", flat=True):
        with contextlib.suppress(err.OnlineError):
            stake_table_leave(user=user, table_id=table_id)


def match_league_points(
    match_ids: list[int], users: Iterable[Any] | None = None
) -> dict[tuple[int, int], int]:
    """The league points stored with these matches by (match id, user id), of `users`
    only when given (registered as games.hooks' match points, for the history pages)."""
    # Plain SQL: the history page asks it on every view (building the query was
    # most of its cost); the users are picked out here.
    if not match_ids:
        return {}
    wanted = None if users is None else {getattr(user, "pk", user) for user in users}
    placeholders = ", ".join(["%s"] * len(match_ids))
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT match_id, user_id, points FROM {MatchLeaguePoints._meta.db_table} "
            f"WHERE match_id IN ({placeholders})",
            [int(match_id) for match_id in match_ids],
        )
        return {
            (match_id, user_id): points
            for match_id, user_id, points in cursor.fetchall()
            if wanted is None or (user_id is not None and user_id in wanted)
        }

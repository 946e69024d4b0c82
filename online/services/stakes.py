"""Stake tables: opening, sitting (the stake into escrow), leaving before the match
(the stake refunded), and cancelling those that did not fill in time."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import transaction

from accounts.models import User
from economy.errors import EscrowSettled, InsufficientFunds
from economy.services import (
    stake_place,
    stake_refund,
)
from games import errors as game_errors
from games import hooks as games_hooks
from games import services as games
from games.models import Mode, RuleSetName, Seat, SeatKind, Table, TableStatus
from online import errors as err
from online import quitting
from online.models import QueueEntry, StakeSitting, StakeTable
from online.services.seating import SEATS, already_at_table, at_live_table, now_or, rng, take_seat
from social.selectors import blocked_by_any


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
    now = now_or(now)
    with transaction.atomic():
        if at_live_table(user.pk):
            raise already_at_table()
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
    now = now_or(now)
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
    seat = rng.choice(free)
    # Only False forbids: any other value keeps the default (watchers allowed).
    forbids = allow_watchers is False
    take_seat(seat, user, forbids_watchers=forbids)
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
    now = now_or(now)
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
    now = now_or(now)
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
    now = now_or(now)
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
    now = now_or(now)
    due = StakeTable.objects.filter(
        table__status=TableStatus.OPEN, expires_at__lte=now
    ).values_list("table_id", flat=True)
    return sum(stake_table_cancel(table_id=table_id, now=now) for table_id in list(due[:500]))

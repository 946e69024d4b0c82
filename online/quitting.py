"""Quitting rated and stake matches: the ladder of waits (docs/fairplay.md,
"Reputation and quitting"). The only writer of `MatchConduct` and `QuitStanding`.

- An abandonment of an online or stake match (`abandonment_record`, from the mode
  policies' `seat_abandoned`, inside the transaction that abandons the seat) climbs
  one step: the n-th step makes the player wait QUIT_WAIT_MINUTES[n-1] minutes
  (the last entry past the end; 0 is a warning only) before they may join the queue,
  open or sit at a stake table again.
- A first disconnect is forgiven: an abandonment by absence (away too long, not the
  Leave button) when the player has no other abandonment within QUIT_WINDOW_DAYS
  climbs no step. A player who came back within the grace never abandoned at all.
- Matches finished cleanly (not abandoned, no turn timed out) take the ladder down:
  every QUIT_CLEAN_PER_STEP of them, one step (`finish_record`, from the
  settlement). A wait already in force runs to its end.
- An abandonment more than QUIT_WINDOW_DAYS after the last counted one starts
  the ladder again from the bottom.

Each person's conduct in a match is one `MatchConduct` row (unique per match and
person): a redelivered settlement or abandonment changes nothing. Lock order: the
caller's (a table, its match and seats), then the player's `QuitStanding` row.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from games.models import Match, MatchSeat
from online import errors as err
from online.models import ABANDONING, Conduct, MatchConduct, QuitStanding


def window() -> timedelta:
    return timedelta(days=settings.QUIT_WINDOW_DAYS)


def wait_minutes(step: int) -> int:
    """The wait the `step`-th step costs, in minutes (0: a warning only)."""
    if step <= 0:
        return 0
    waits = settings.QUIT_WAIT_MINUTES
    return int(waits[min(step, len(waits)) - 1])


def _standing_lock(user_id: int) -> QuitStanding:
    QuitStanding.objects.get_or_create(user_id=user_id)
    return QuitStanding.objects.select_for_update().get(user_id=user_id)


def _conduct_create(**fields: object) -> MatchConduct | None:
    """The row, or None when this person's conduct in this match was already recorded."""
    try:
        with transaction.atomic():
            return MatchConduct.objects.create(**fields)
    except IntegrityError:
        return None


def abandonment_record(
    *, match: Match, user_id: int, left: bool, at: datetime
) -> MatchConduct | None:
    """`user_id` abandoned the rated or stake `match` at `at` (`left`: by leaving;
    otherwise away too long). Inside the caller's transaction. Returns the new row,
    or None when this match already counted for them."""
    if MatchConduct.objects.filter(match=match, user_id=user_id).exists():
        return None
    standing = _standing_lock(user_id)
    if standing.last_counted_at is not None and standing.last_counted_at < at - window():
        standing.step, standing.clean_matches = 0, 0  # the window passed: the ladder starts again
    forgiven = (
        not left
        and not MatchConduct.objects.filter(
            user_id=user_id, conduct__in=ABANDONING, at__gte=at - window()
        ).exists()
    )
    started = None  # the wait this abandonment starts (None: forgiven, or a warning)
    if not forgiven:
        standing.step += 1
        standing.clean_matches = 0
        standing.last_counted_at = at
        minutes = wait_minutes(standing.step)
        if minutes:
            started = at + timedelta(minutes=minutes)
            if standing.wait_until is None or standing.wait_until < started:
                standing.wait_until = started  # a longer wait in force is kept
    row = _conduct_create(
        match=match,
        user_id=user_id,
        conduct=Conduct.LEFT if left else Conduct.ABSENT,
        at=at,
        forgiven=forgiven,
        step=standing.step,
        wait_until=started,
    )
    if row is None:
        return None
    standing.notice = row
    standing.save()
    return row


def finish_record(*, match: Match, match_seats: Iterable[MatchSeat], at: datetime) -> None:
    """A rated or stake `match` was settled: each person who stayed to the end and
    stands on the ladder counts a clean match (no turn timed out) or a late one; an
    abandonment not yet counted (the match seat says abandoned) is counted as one by
    absence. Inside the settlement's transaction; a second settlement of the match
    changes nothing. A player on no step gets no row: their match changes nothing
    here (the history keeps it)."""
    for seat in sorted(match_seats, key=lambda s: s.user_id or 0):
        if seat.is_bot or seat.user_id is None:
            continue
        if seat.abandoned:
            abandonment_record(match=match, user_id=seat.user_id, left=False, at=at)
            continue
        standing = (
            QuitStanding.objects.select_for_update()
            .filter(user_id=seat.user_id, step__gt=0)
            .first()
        )
        if standing is None:
            continue
        clean = seat.timeouts == 0
        row = _conduct_create(
            match=match,
            user_id=seat.user_id,
            conduct=Conduct.CLEAN if clean else Conduct.LATE,
            at=at,
            step=standing.step,
        )
        if row is None or not clean:
            continue
        standing.clean_matches += 1
        if standing.clean_matches >= settings.QUIT_CLEAN_PER_STEP:
            standing.step -= 1
            standing.clean_matches = 0
        row.step = standing.step
        row.save(update_fields=["step"])
        standing.save(update_fields=["step", "clean_matches"])


def wait_check(*, user: User, now: datetime | None = None) -> None:
    """QueueWait (why, and until when) while the player's wait is in force."""
    now = now or timezone.now()
    until = (
        QuitStanding.objects.filter(user=user, wait_until__gt=now)
        .values_list("wait_until", flat=True)
        .first()
    )
    if until is None:
        return
    raise err.QueueWait(until=until, now=now, abandoned=max(abandoned_lately(user, now), 1))


def abandoned_lately(user: User, now: datetime) -> int:
    """The player's abandonments counted (not forgiven) within the window."""
    return MatchConduct.objects.filter(
        user=user, conduct__in=ABANDONING, forgiven=False, at__gte=now - window()
    ).count()


def notice_dismiss(*, user: User) -> bool:
    """The player read what their last abandonment cost: it is no longer shown.
    False when there was nothing to dismiss."""
    with transaction.atomic():
        return bool(
            QuitStanding.objects.filter(user=user, notice__isnull=False).update(notice=None)
        )

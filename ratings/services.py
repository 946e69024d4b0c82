"""The only code that writes ratings (docs/ratings.md).

- `match_rate`: a finished online or stake match updates its players' ratings, in
  the settlement's transaction, once: the match's `RatedMatch` row is inserted
  first (ON CONFLICT DO NOTHING), and a second settlement finds it and does nothing.
- `rating_reset`: staff set a player's rating back to a new player's, with a reason
  (logged in the admin's history); the player leaves the leaderboard until they
  are established again.
- `ratings_recompute`: every rating rebuilt from the match history in date order
  (`manage.py recompute_ratings`), with the same arithmetic as `match_rate`.

Lock order: the ledger's accounts (the settlement pays first), then rating rows by
user id.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

from django.contrib.admin.models import CHANGE, LogEntry
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from accounts.models import User
from games.models import Match, MatchSeat, MatchStatus, Mode, Table
from ratings import errors
from ratings.models import RatedMatch, Rating, RatingChange, RatingReset
from ratings.skill import NEW, SeatIn, Skill, bot_skill, match_update, shown

#: The modes whose finished matches are rated (their policies call `match_rate`).
RATED_MODES = (Mode.ONLINE, Mode.STAKE)
#: Who may reset a rating (the admin's change permission on ratings).
RESET_PERMISSION = "ratings.change_rating"


@dataclass
class State:
    """A player's estimate while ratings are replayed or updated."""

    mu: float
    sigma: float
    matches: int = 0
    last_rated_at: datetime | None = None

    @classmethod
    def new(cls) -> State:
        return cls(NEW.mu, NEW.sigma)


@dataclass(frozen=True)
class SeatPlayed:
    """One seat of a finished match as the rating reads it."""

    position: int
    user_id: int | None  # None: a bot's seat
    abandoned: bool = False


@dataclass(frozen=True)
class Change:
    user_id: int
    position: int
    at: datetime
    before: State
    after: State


def _apply(
    states: dict[int, State],
    seats: Sequence[SeatPlayed],
    *,
    winner: int,
    bot_level: str,
    at: datetime,
) -> list[Change]:
    """Updates `states` (which holds every person of the match) with one match and
    returns what changed. The one arithmetic of both the settlement and the replay."""
    ordered = sorted(seats, key=lambda s: s.position)
    inputs = [
        SeatIn(bot_skill(bot_level), person=False)
        if s.user_id is None
        else SeatIn(
            Skill(states[s.user_id].mu, states[s.user_id].sigma),
            abandoned=s.abandoned,
        )
        for s in ordered
    ]
    after = match_update(inputs, winner)
    changes = []
    for seat, skill in zip(ordered, after, strict=True):
        if seat.user_id is None or skill is None:
            continue
        before = states[seat.user_id]
        now = State(skill.mu, skill.sigma, before.matches + 1, at)
        states[seat.user_id] = now
        changes.append(Change(seat.user_id, seat.position, at, before, now))
    return changes


def _change_row(match_id: int, change: Change) -> RatingChange:
    return RatingChange(
        match_id=match_id,
        user_id=change.user_id,
        position=change.position,
        at=change.at,
        mu_before=change.before.mu,
        sigma_before=change.before.sigma,
        mu_after=change.after.mu,
        sigma_after=change.after.sigma,
        before=shown(change.before.mu),
        after=shown(change.after.mu),
        matches=change.after.matches,
    )


def _claim(match_id: int, at: datetime) -> bool:
    """Inserts the match's RatedMatch row; False when it was there already (rated)."""
    table = RatedMatch._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (match_id, rated_at) VALUES (%s, %s) "
            "ON CONFLICT (match_id) DO NOTHING RETURNING match_id",
            [match_id, at],
        )
        return cursor.fetchone() is not None


def _lock_ratings(user_ids: Iterable[int]) -> dict[int, Rating]:
    """The players' rating rows, locked in user id order (created when missing)."""
    wanted = sorted(set(user_ids))
    rows = {
        r.user_id: r
        for r in Rating.objects.select_for_update().filter(user_id__in=wanted).order_by("pk")
    }
    missing = [u for u in wanted if u not in rows]
    if missing:
        Rating.objects.bulk_create([Rating(user_id=u) for u in missing], ignore_conflicts=True)
        rows.update(
            (r.user_id, r)
            for r in Rating.objects.select_for_update().filter(user_id__in=missing).order_by("pk")
        )
    return rows


def _state(row: Rating) -> State:
    return State(row.mu, row.sigma, row.matches, row.last_rated_at)


def match_rate(*, match: Match, match_seats: Sequence[MatchSeat], bot_level: str) -> bool:
    """Updates the ratings of a finished online or stake match's players, inside the
    settlement's transaction; False (nothing written) when the match was rated
    already. Bots (`bot_level`) play at their fixed ratings and are not updated."""
    if match.winner is None or match.finished_at is None:
        raise ValueError(f"match {match.pk} is not finished: it cannot be rated")
    with transaction.atomic():
        if not _claim(match.pk, match.finished_at):
            return False
        seats = [
            SeatPlayed(
                ms.position, None if ms.is_bot or ms.user_id is None else ms.user_id, ms.abandoned
            )
            for ms in match_seats
        ]
        rows = _lock_ratings(s.user_id for s in seats if s.user_id is not None)
        states = {user_id: _state(row) for user_id, row in rows.items()}
        changes = _apply(
            states, seats, winner=match.winner, bot_level=bot_level, at=match.finished_at
        )
        for change in changes:
            row = rows[change.user_id]
            row.mu, row.sigma = change.after.mu, change.after.sigma
            row.value = shown(row.mu)
            row.matches, row.last_rated_at = change.after.matches, change.after.last_rated_at
        Rating.objects.bulk_update(
            [rows[c.user_id] for c in changes], ["mu", "sigma", "value", "matches", "last_rated_at"]
        )
        RatingChange.objects.bulk_create([_change_row(match.pk, c) for c in changes])
    return True


def rating_reset(
    *, user: User, staff_user: User, reason: str, now: datetime | None = None
) -> RatingReset:
    """Sets `user`'s rating back to a new player's (provisional, off the leaderboard
    until established again), logged with `reason` in the admin's history.

    ResetNeedsReason without a reason, ResetNotAllowed for staff without the
    permission; nothing is written then."""
    reason = (reason or "").strip()
    if not reason:
        raise errors.ResetNeedsReason()
    if not staff_user.is_active or not staff_user.has_perm(RESET_PERMISSION):
        raise errors.ResetNotAllowed()
    with transaction.atomic():
        row = _lock_ratings([user.pk])[user.pk]
        at = now or timezone.now()
        if row.last_rated_at is not None and at <= row.last_rated_at:
            # After every match already applied to it, so a replay meets them in order.
            at = row.last_rated_at + timedelta(microseconds=1)
        reset = RatingReset.objects.create(
            user=user,
            staff=staff_user,
            reason=reason,
            at=at,
            before=row.value,
            matches_before=row.matches,
        )
        row.mu, row.sigma, row.value, row.matches = NEW.mu, NEW.sigma, shown(NEW.mu), 0
        row.save(update_fields=["mu", "sigma", "value", "matches"])
        LogEntry.objects.log_actions(
            user_id=staff_user.pk,
            queryset=[user],
            action_flag=CHANGE,
            change_message=_("Rating reset from %(before)s. Reason: %(reason)s")
            % {"before": reset.before, "reason": reason},
        )
    return reset


# --- the replay -----------------------------------------------------------------------

_MATCHES_SQL = f"""
SELECT m.id, m.finished_at, m.winner, t.bot_level, s.position, s.user_id, s.is_bot,
       s.abandoned
FROM {Match._meta.db_table} m
JOIN {Table._meta.db_table} t ON t.id = m.table_id
JOIN {MatchSeat._meta.db_table} s ON s.match_id = m.id
WHERE m.status = %s AND m.winner IS NOT NULL AND m.finished_at IS NOT NULL
  AND t.mode IN (%s, %s)
ORDER BY m.finished_at, m.id, s.position
"""


@dataclass(frozen=True)
class _Played:
    match_id: int
    at: datetime
    winner: int
    bot_level: str
    seats: tuple[SeatPlayed, ...]


def _history(cursor: Any) -> Iterator[_Played]:
    """The rated matches with their seats, in date order, streamed."""
    cursor.execute(_MATCHES_SQL, [MatchStatus.FINISHED, *RATED_MODES])
    current: tuple[int, datetime, int, str] | None = None
    seats: list[SeatPlayed] = []
    while rows := cursor.fetchmany(5000):
        for match_id, at, winner, level, position, user_id, is_bot, abandoned in rows:
            if current is not None and current[0] != match_id:
                yield _Played(*current, seats=tuple(seats))
                seats = []
            if timezone.is_naive(at):  # SQLite's raw rows: UTC without a zone
                at = timezone.make_aware(at, UTC)
            current = (match_id, at, winner, level)
            seats.append(SeatPlayed(position, None if is_bot else user_id, abandoned))
    if current is not None:
        yield _Played(*current, seats=tuple(seats))


@dataclass(frozen=True)
class Recomputed:
    matches: int
    changes: int
    players: int
    resets: int


def ratings_recompute(*, batch: int = 20_000) -> Recomputed:
    """Rebuilds every rating, rated match and rating change from the finished online
    and stake matches in date order (resets applied at their moment), with the same
    arithmetic as `match_rate`: the same numbers. One transaction; on PostgreSQL the
    rating tables are locked meanwhile, so a settlement waits for it."""
    with transaction.atomic():
        postgres = connection.vendor == "postgresql"
        tables = [m._meta.db_table for m in (RatingChange, RatedMatch, Rating)]
        with connection.cursor() as cursor:
            if postgres:
                cursor.execute(f"LOCK TABLE {', '.join(tables)} IN EXCLUSIVE MODE")
                # Foreign keys checked row by row, not queued for the commit: TRUNCATE
                # refuses a table with queued checks, and millions would be queued.
                cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
                cursor.execute(f"TRUNCATE {', '.join(tables)}")
            else:
                for table in tables:
                    cursor.execute(f"DELETE FROM {table}")
        resets = list(RatingReset.objects.order_by("at", "pk").values_list("user_id", "at"))
        states: dict[int, State] = {}
        next_reset = 0
        matched = changed = 0
        pending_changes: list[RatingChange] = []
        pending_matches: list[RatedMatch] = []

        def flush() -> None:
            _write(RatedMatch, pending_matches, postgres)
            _write(RatingChange, pending_changes, postgres)
            pending_matches.clear()
            pending_changes.clear()

        with connection.chunked_cursor() as cursor:
            for played in _history(cursor):
                while next_reset < len(resets) and resets[next_reset][1] < played.at:
                    _reset_state(states, resets[next_reset][0])
                    next_reset += 1
                for seat in played.seats:
                    if seat.user_id is not None and seat.user_id not in states:
                        states[seat.user_id] = State.new()
                changes = _apply(
                    states,
                    played.seats,
                    winner=played.winner,
                    bot_level=played.bot_level,
                    at=played.at,
                )
                pending_matches.append(RatedMatch(match_id=played.match_id, rated_at=played.at))
                pending_changes.extend(_change_row(played.match_id, c) for c in changes)
                matched += 1
                changed += len(changes)
                if len(pending_changes) >= batch:
                    flush()
        flush()
        for user_id, _at in resets[next_reset:]:
            _reset_state(states, user_id)
        _write(
            Rating,
            [
                Rating(
                    user_id=user_id,
                    mu=s.mu,
                    sigma=s.sigma,
                    value=shown(s.mu),
                    matches=s.matches,
                    last_rated_at=s.last_rated_at,
                )
                for user_id, s in states.items()
            ],
            postgres,
        )
        if postgres:
            with connection.cursor() as cursor:
                cursor.execute("SET CONSTRAINTS ALL DEFERRED")
    return Recomputed(matched, changed, len(states), len(resets))


def _reset_state(states: dict[int, State], user_id: int) -> None:
    before = states.get(user_id)
    states[user_id] = State(NEW.mu, NEW.sigma, 0, before.last_rated_at if before else None)


def _write(model: Any, rows: list[Any], postgres: bool) -> None:
    """Inserts `rows` (COPY on PostgreSQL: the replay writes millions)."""
    if not rows:
        return
    if not postgres:
        model.objects.bulk_create(rows, batch_size=2000)
        return
    fields = [f for f in model._meta.concrete_fields if not f.primary_key or not f.auto_created]
    columns = ", ".join(f.column for f in fields)
    buffer = io.StringIO()
    for row in rows:
        values = []
        for field in fields:
            value = getattr(row, field.attname)
            if value is None:
                values.append("\\N")
            elif isinstance(value, datetime):
                values.append(value.isoformat())
            elif isinstance(value, float):
                values.append(repr(value))
            elif isinstance(value, bool):
                values.append("t" if value else "f")
            else:
                values.append(str(value))
        buffer.write("\t".join(values))
        buffer.write("\n")
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's cursor, for COPY
        with raw.copy(f"COPY {model._meta.db_table} ({columns}) FROM STDIN") as copy:
            copy.write(buffer.getvalue())

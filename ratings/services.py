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


_CHANGE_COLUMNS = (
    "match_id", "user_id", "position", "at", "mu_before", "sigma_before", "mu_after",
    "sigma_after", "before", "after", "matches",
)  # fmt: skip


def _change_values(match_id: int, change: Change) -> tuple[Any, ...]:
    """A RatingChange row's values, in _CHANGE_COLUMNS order."""
    return (
        match_id,
        change.user_id,
        change.position,
        change.at,
        change.before.mu,
        change.before.sigma,
        change.after.mu,
        change.after.sigma,
        shown(change.before.mu),
        shown(change.after.mu),
        change.after.matches,
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


_LOCK_SQL = (
    f"SELECT user_id, mu, sigma, matches, last_rated_at FROM {Rating._meta.db_table} "
    "WHERE user_id = ANY(%s::bigint[]) ORDER BY user_id FOR UPDATE"
)


def _lock_states(user_ids: list[int]) -> dict[int, State]:
    """The players' estimates, their rows locked in user id order (created when
    missing). Plain SQL on PostgreSQL: this runs in every settlement."""
    if connection.vendor != "postgresql":
        return {u: _state(row) for u, row in _lock_ratings(user_ids).items()}
    wanted = sorted(set(user_ids))
    with connection.cursor() as cursor:
        cursor.execute(_LOCK_SQL, [wanted])
        states = {row[0]: State(*row[1:]) for row in cursor.fetchall()}
        missing = [u for u in wanted if u not in states]
        if missing:
            cursor.execute(
                f"INSERT INTO {Rating._meta.db_table} (user_id, mu, sigma, value, matches) "
                "SELECT u, %s, %s, %s, 0 FROM unnest(%s::bigint[]) AS u ON CONFLICT DO NOTHING",
                [NEW.mu, NEW.sigma, shown(NEW.mu), missing],
            )
            cursor.execute(_LOCK_SQL, [missing])
            states.update((row[0], State(*row[1:])) for row in cursor.fetchall())
    return states


def _insert_changes(match_id: int, changes: list[Change]) -> None:
    if not changes:
        return
    one = "(" + ", ".join(["%s"] * len(_CHANGE_COLUMNS)) + ")"
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {RatingChange._meta.db_table} ({', '.join(_CHANGE_COLUMNS)}) "
            f"VALUES {', '.join([one] * len(changes))}",
            [value for c in changes for value in _change_values(match_id, c)],
        )


def _store(changes: list[Change]) -> None:
    """Writes the players' new estimates: one statement on PostgreSQL (the ORM's
    bulk_update costs milliseconds of Python for four rows)."""
    if not changes:
        return
    values = [
        (c.user_id, c.after.mu, c.after.sigma, shown(c.after.mu), c.after.matches, c.at)
        for c in changes
    ]
    if connection.vendor != "postgresql":
        for user_id, mu, sigma, value, matches, at in values:
            Rating.objects.filter(user_id=user_id).update(
                mu=mu, sigma=sigma, value=value, matches=matches, last_rated_at=at
            )
        return
    rows = ", ".join(
        ["(%s::bigint, %s::float8, %s::float8, %s::int, %s::int, %s::timestamptz)"] * len(values)
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {Rating._meta.db_table} AS r SET mu = v.mu, sigma = v.sigma, "
            "value = v.value, matches = v.matches, last_rated_at = v.at "
            f"FROM (VALUES {rows}) AS v(user_id, mu, sigma, value, matches, at) "
            "WHERE r.user_id = v.user_id",
            [x for row in values for x in row],
        )


def match_rate(*, match: Match, match_seats: Sequence[MatchSeat], bot_level: str) -> bool:
    """Updates the ratings of a finished online or stake match's players, inside the
    settlement's transaction; False (nothing written) when the match was rated
    already. Bots (`bot_level`) play at their fixed ratings and are not updated."""
    if match.winner is None or match.finished_at is None:
        raise ValueError(f"match {match.pk} is not finished: it cannot be rated")
    # No savepoint of its own: a failure here fails the settlement it is part of.
    with transaction.atomic(savepoint=False):
        if not _claim(match.pk, match.finished_at):
            return False
        seats = [
            SeatPlayed(
                ms.position, None if ms.is_bot or ms.user_id is None else ms.user_id, ms.abandoned
            )
            for ms in match_seats
        ]
        states = _lock_states([s.user_id for s in seats if s.user_id is not None])
        changes = _apply(
            states, seats, winner=match.winner, bot_level=bot_level, at=match.finished_at
        )
        _store(changes)
        _insert_changes(match.pk, changes)
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
                cursor.execute(
                    "SELECT bool_and(has_table_privilege(t, 'TRUNCATE')) "
                    "FROM unnest(%s::text[]) AS t",
                    [tables],
                )
                if cursor.fetchone()[0]:
                    cursor.execute(f"TRUNCATE {', '.join(tables)}")
                else:  # the application's role (docs/operations.md): slower, same result
                    for table in tables:
                        cursor.execute(f"DELETE FROM {table}")
            else:
                for table in tables:
                    cursor.execute(f"DELETE FROM {table}")
        resets = list(RatingReset.objects.order_by("at", "pk").values_list("user_id", "at"))
        states: dict[int, State] = {}
        next_reset = 0
        matched = changed = 0
        pending_changes: list[tuple[Any, ...]] = []
        pending_matches: list[tuple[Any, ...]] = []

        def flush() -> None:
            _write(RatedMatch, ("match_id", "rated_at"), pending_matches, postgres)
            _write(RatingChange, _CHANGE_COLUMNS, pending_changes, postgres)
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
                pending_matches.append((played.match_id, played.at))
                pending_changes.extend(_change_values(played.match_id, c) for c in changes)
                matched += 1
                changed += len(changes)
                if len(pending_changes) >= batch:
                    flush()
        flush()
        for user_id, _at in resets[next_reset:]:
            _reset_state(states, user_id)
        _write(
            Rating,
            ("user_id", "mu", "sigma", "value", "matches", "last_rated_at"),
            [
                (user_id, st.mu, st.sigma, shown(st.mu), st.matches, st.last_rated_at)
                for user_id, st in states.items()
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


def _copy_text(value: Any) -> str:
    if value is None:
        return "\\N"
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, float):
        return repr(value)  # the shortest text that reads back as the same double
    return str(value)


def _write(model: Any, columns: Sequence[str], rows: list[tuple[Any, ...]], postgres: bool) -> None:
    """Inserts `rows` (values in `columns` order): COPY on PostgreSQL, where the
    replay writes millions."""
    if not rows:
        return
    if not postgres:
        model.objects.bulk_create(
            [model(**dict(zip(columns, row, strict=True))) for row in rows], batch_size=2000
        )
        return
    text = "".join("\t".join(map(_copy_text, row)) + "\n" for row in rows)
    with connection.cursor() as cursor:
        raw = cursor.cursor  # psycopg's cursor, for COPY
        with raw.copy(f"COPY {model._meta.db_table} ({', '.join(columns)}) FROM STDIN") as copy:
            copy.write(text)

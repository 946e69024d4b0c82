"""The only code that writes ratings (docs/ratings.md).

- `match_rate`: a finished online or stake match updates its players' ratings, in
  the settlement's transaction, once: the players' rows are locked, then the
  statement that inserts the match's `RatedMatch` row (ON CONFLICT DO NOTHING)
  writes the new ratings only if it inserted it; a second settlement waits for the
  first's locks, finds the row and writes nothing. A player whose partner abandoned
  is protected from losing rating, unless the two are linked accounts or the pair
  abandons repeatedly (`protections_withheld`; each decision is kept).
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
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.contrib.admin.models import CHANGE, LogEntry
from django.db import connection, transaction
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Mod
from django.utils import timezone
from django.utils.translation import gettext as _
from psycopg.types.numeric import Int4, Int8

from accounts.models import User
from accounts.selectors import accounts_linked
from games.models import Match, MatchSeat, MatchStatus, Mode, Table
from ops.sql import run_prepared
from ratings import errors
from ratings.models import ProtectionWithheld, RatedMatch, Rating, RatingChange, RatingReset
from ratings.skill import (
    NEW,
    SeatIn,
    Skill,
    bot_skill,
    match_update,
    provisional,
    provisional_step,
    shown,
)

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
    # Not rated down when the partner abandoned (ratings.skill.SeatIn.protected).
    protected: bool = True


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
    returns what changed. The one arithmetic of both the settlement and the replay.
    A player provisional before the match moves at most RATING_PROVISIONAL_STEP
    points (`ratings.skill.provisional_step`); an established one as the model says."""
    ordered = sorted(seats, key=lambda s: s.position)
    inputs = [
        SeatIn(bot_skill(bot_level), person=False)
        if s.user_id is None
        else SeatIn(
            Skill(states[s.user_id].mu, states[s.user_id].sigma),
            abandoned=s.abandoned,
            protected=s.protected,
        )
        for s in ordered
    ]
    after = match_update(inputs, winner)
    changes = []
    for seat, skill in zip(ordered, after, strict=True):
        if seat.user_id is None or skill is None:
            continue
        before = states[seat.user_id]
        if provisional(before.matches):
            skill = provisional_step(
                Skill(before.mu, before.sigma), skill, settings.RATING_PROVISIONAL_STEP
            )
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


_RATING = Rating._meta.db_table

_LOCK_SQL = (
    f"SELECT user_id, mu, sigma, matches, last_rated_at FROM {_RATING} "
    "WHERE user_id = ANY($1::bigint[]) ORDER BY user_id FOR UPDATE"
)


def _lock_states(user_ids: list[int]) -> dict[int, State]:
    """The players' estimates, their rows locked in user id order (created when
    missing: a player's first rated match)."""
    wanted = sorted(set(user_ids))
    if not wanted:
        return {}
    if connection.vendor != "postgresql":
        return {u: _state(row) for u, row in _lock_ratings(wanted).items()}
    rows = run_prepared(_LOCK_SQL, ([Int8(u) for u in wanted],)).fetchall()
    states = {row[0]: State(*row[1:]) for row in rows}
    missing = [u for u in wanted if u not in states]
    if missing:
        with connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {_RATING} (user_id, mu, sigma, value, matches) "
                "SELECT u, %s, %s, %s, 0 FROM unnest(%s::bigint[]) AS u ON CONFLICT DO NOTHING",
                [NEW.mu, NEW.sigma, shown(NEW.mu), missing],
            )
        rows = run_prepared(_LOCK_SQL, ([Int8(u) for u in missing],)).fetchall()
        states.update((row[0], State(*row[1:])) for row in rows)
    return states


# The claim, the players' new estimates and the match's rating changes in one
# statement (data-modifying CTEs, one row per change in the arrays): the estimates
# and changes are written only when this statement inserted the match's RatedMatch
# row. Returns whether it did.
_WRITE_SQL = f"""
WITH claim AS (
    INSERT INTO {RatedMatch._meta.db_table} (match_id, rated_at) VALUES ($1, $2)
    ON CONFLICT (match_id) DO NOTHING RETURNING match_id
), v AS (
    SELECT * FROM unnest($3::bigint[], $4::int[], $5::float8[], $6::float8[],
        $7::float8[], $8::float8[], $9::int[], $10::int[], $11::int[])
        AS v(user_id, position, mu_before, sigma_before, mu_after, sigma_after,
             before, after, matches)
), stored AS (
    UPDATE {_RATING} AS r SET mu = v.mu_after, sigma = v.sigma_after, value = v.after,
        matches = v.matches, last_rated_at = $2
    FROM v WHERE r.user_id = v.user_id AND EXISTS (SELECT FROM claim)
), changed AS (
    INSERT INTO {RatingChange._meta.db_table} ({", ".join(_CHANGE_COLUMNS)})
    SELECT claim.match_id, v.user_id, v.position, $2, v.mu_before, v.sigma_before,
        v.mu_after, v.sigma_after, v.before, v.after, v.matches
    FROM v CROSS JOIN claim
)
SELECT count(*) FROM claim
"""


def _claim_and_write(match_id: int, at: datetime, changes: list[Change]) -> bool:
    """Claims the match and writes its changes (see _WRITE_SQL); False when it was
    rated already, and then nothing is written."""
    if connection.vendor != "postgresql":
        if not _claim(match_id, at):  # SQLite: the database is locked for the write
            return False
        _store(changes)
        _insert_changes(match_id, changes)
        return True
    columns = list(zip(*(_change_values(match_id, c)[1:] for c in changes), strict=True))
    if not columns:
        columns = [()] * (len(_CHANGE_COLUMNS) - 1)
    user_ids, positions, _at, mu_b, sigma_b, mu_a, sigma_a, before, after, matches = columns
    params = (
        Int8(match_id),
        at,
        [Int8(u) for u in user_ids],
        [Int4(p) for p in positions],
        list(mu_b),
        list(sigma_b),
        list(mu_a),
        list(sigma_a),
        [Int4(v) for v in before],
        [Int4(v) for v in after],
        [Int4(v) for v in matches],
    )
    row = run_prepared(_WRITE_SQL, params).fetchone()
    return bool(row and row[0])


def _insert_changes(match_id: int, changes: list[Change]) -> None:
    if not changes:
        return
    RatingChange.objects.bulk_create(
        [
            RatingChange(**dict(zip(_CHANGE_COLUMNS, _change_values(match_id, c), strict=True)))
            for c in changes
        ]
    )


def _store(changes: list[Change]) -> None:
    for c in changes:
        Rating.objects.filter(user_id=c.user_id).update(
            mu=c.after.mu,
            sigma=c.after.sigma,
            value=shown(c.after.mu),
            matches=c.after.matches,
            last_rated_at=c.at,
        )


# --- the partner left with a bot -------------------------------------------------------


def _left_partners(seats: Sequence[SeatPlayed], winner: int) -> list[tuple[int, int]]:
    """(player, abandoner) of each player whose partner abandoned a match their pair
    lost: the only players the protection would keep from losing rating."""
    by_position = {s.position: s for s in seats}
    left = []
    for seat in seats:
        partner = by_position.get(seat.position ^ 2)  # positions 0 and 2, 1 and 3
        if (
            seat.user_id is not None
            and not seat.abandoned
            and seat.position % 2 != winner
            and partner is not None
            and partner.user_id is not None
            and partner.abandoned
        ):
            left.append((seat.user_id, partner.user_id))
    return left


def _pair_abandons_repeatedly(*, match: Match, user_id: int, partner_id: int) -> bool:
    """Whether the abandonment of this match brings the pair's to RATING_PAIR_ABANDONMENTS
    within their last RATING_PAIR_ABANDON_MATCHES rated matches together (this one
    included): the matches where the two sat as partners, and abandonments by either."""
    earlier = settings.RATING_PAIR_ABANDON_MATCHES - 1
    if earlier <= 0:
        return settings.RATING_PAIR_ABANDONMENTS <= 1
    partner_seat = MatchSeat.objects.filter(
        match=OuterRef("match"), user_id=partner_id, position=Mod(OuterRef("position") + 2, 4)
    )
    together = (
        MatchSeat.objects.filter(
            user_id=user_id,
            match__status=MatchStatus.FINISHED,
            match__table__mode__in=RATED_MODES,
        )
        .exclude(match_id=match.pk)
        .annotate(partner_abandoned=Subquery(partner_seat.values("abandoned")[:1]))
        .filter(partner_abandoned__isnull=False)
        .order_by("-match__finished_at", "-match_id")
        .values_list("abandoned", "partner_abandoned")[:earlier]
    )
    abandonments = 1 + sum(1 for mine, theirs in together if mine or theirs)
    return abandonments >= settings.RATING_PAIR_ABANDONMENTS


def protections_withheld(*, match: Match, seats: Sequence[SeatPlayed]) -> dict[int, str]:
    """The players of a finished match whose partner abandoned and whose pair lost, yet
    who are rated down all the same, with why (a `ProtectionWithheld.Reason`): the two
    are linked accounts (accounts.selectors), or the pair abandons repeatedly. Reads
    nothing when no partner was left with a bot."""
    if match.winner is None:
        return {}
    withheld: dict[int, str] = {}
    for user_id, partner_id in _left_partners(seats, match.winner):
        if accounts_linked(user_id, partner_id):
            withheld[user_id] = ProtectionWithheld.Reason.LINKED
        elif _pair_abandons_repeatedly(match=match, user_id=user_id, partner_id=partner_id):
            withheld[user_id] = ProtectionWithheld.Reason.REPEATED
    return withheld


def match_rate(*, match: Match, match_seats: Sequence[MatchSeat], bot_level: str) -> bool:
    """Updates the ratings of a finished online or stake match's players, inside the
    settlement's transaction; False (nothing written) when the match was rated
    already. Bots (`bot_level`) play at their fixed ratings and are not updated.

    On PostgreSQL two prepared statements: the players' rows locked and read, then
    the match claimed and the new estimates and changes written only if the claim
    took (a second settlement of the match, having waited for the first's locks,
    computes and writes nothing). A player left with a bot by their partner costs
    the reads of `protections_withheld` first, and a row if it is withheld."""
    if match.winner is None or match.finished_at is None:
        raise ValueError(f"match {match.pk} is not finished: it cannot be rated")
    # No savepoint of its own: a failure here fails the settlement it is part of.
    with transaction.atomic(savepoint=False):
        seats = [
            SeatPlayed(
                ms.position, None if ms.is_bot or ms.user_id is None else ms.user_id, ms.abandoned
            )
            for ms in match_seats
        ]
        withheld = protections_withheld(match=match, seats=seats)
        seats = [replace(s, protected=s.user_id not in withheld) for s in seats]
        states = _lock_states([s.user_id for s in seats if s.user_id is not None])
        changes = _apply(
            states, seats, winner=match.winner, bot_level=bot_level, at=match.finished_at
        )
        rated = _claim_and_write(match.pk, match.finished_at, changes)
        if rated and withheld:
            ProtectionWithheld.objects.bulk_create(
                [
                    ProtectionWithheld(match_id=match.pk, user_id=user_id, reason=reason)
                    for user_id, reason in sorted(withheld.items())
                ]
            )
        return rated


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


def _history(cursor: Any, withheld: set[tuple[int, int]]) -> Iterator[_Played]:
    """The rated matches with their seats, in date order, streamed; the seats in
    `withheld` (match, user) without the partner's protection, as settled."""
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
            protected = (match_id, user_id) not in withheld
            seats.append(SeatPlayed(position, None if is_bot else user_id, abandoned, protected))
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
    and stake matches in date order (resets applied at their moment, and the partner
    protections the settlements withheld), with the same arithmetic as `match_rate`:
    the same numbers. One transaction; on PostgreSQL the
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
        # Kept through the replay: the decisions the settlements made (the sign-ins
        # that showed a link may be gone).
        withheld = set(ProtectionWithheld.objects.values_list("match_id", "user_id"))
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
            for played in _history(cursor, withheld):
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

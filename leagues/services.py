"""The only code that writes league rows.

* `league_points_record` — the seam the online-match code calls when a match
  finishes (docs/league.md): one row per (user, match), idempotent.
* `league_week_close` / `league_weeks_close_due` — archive a finished week's
  standings, pay its prizes through the economy ledger and move players between
  divisions, exactly once: the week row is locked FOR UPDATE and re-read, the
  archive has UNIQUE(week, user) and every prize carries a ledger idempotency
  key, so a second closer (a retry, a second worker, a second beat) changes
  nothing.

Ranking, promotion and relegation are one set-based INSERT … SELECT with window
functions (PostgreSQL and SQLite both run it); the rules are in docs/league.md.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Count, F
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from games.signals import results_recorded
from leagues.errors import (
    BotsDoNotScore,
    EarlierWeekOpen,
    InvalidLeaguePoints,
    InvalidMatch,
    NaiveFinishTime,
    WeekNotOver,
)
from leagues.models import (
    Division,
    LeagueMembership,
    LeaguePoints,
    LeagueScore,
    LeagueScoreCount,
    LeagueStanding,
    LeagueWeek,
    Movement,
    WeekStatus,
)
from leagues.weeks import week_bounds

logger = logging.getLogger(__name__)


# --- Memberships and weeks -------------------------------------------------------


def league_membership_ensure(*, user: User) -> LeagueMembership:
    """The user's membership, created in Bronze if they have none yet."""
    membership, _created = LeagueMembership.objects.get_or_create(user=user)
    return membership


def league_week_ensure(*, moment: datetime) -> LeagueWeek:
    """The week row `moment` falls in, created open if missing (safe under races)."""
    starts_at, ends_at = week_bounds(moment)
    week, _created = LeagueWeek.objects.get_or_create(
        starts_at=starts_at, defaults={"ends_at": ends_at}
    )
    return week


# --- Points: the seam for online matches ------------------------------------------


@dataclass(frozen=True)
class LeagueResult:
    """What one human player earned in a finished match: points (already halved) and a win."""

    user: User | None
    points: int
    won: bool = False


@dataclass(frozen=True)
class _Scored:
    """A LeagueResult once checked: a real user and positive points."""

    user: User
    points: int
    won: bool


def league_points_record(
    *, user: User | None, match_id: int, points: int, finished_at: datetime, won: bool = False
) -> LeaguePoints:
    """Record the league points `user` earned in match `match_id`, once.

    The caller (online-match code) passes the points already halved when a bot
    sat, whether the player's pair won, and the match's finish time, which
    decides the week. A second call for the same (user, match) returns the first
    row with `replayed = True` and adds nothing. Bots (user None) raise
    BotsDoNotScore; points < 1 InvalidLeaguePoints.
    """
    (row,) = league_points_record_match(
        match_id=match_id,
        finished_at=finished_at,
        results=[LeagueResult(user=user, points=points, won=won)],
    )
    return row


def league_points_record_match(
    *, match_id: int, finished_at: datetime, results: Sequence[LeagueResult]
) -> list[LeaguePoints]:
    """Record every player of one finished match at once; rows in `results` order.

    No row is shared by all recorders (no week lock): each call locks only its
    own players' score rows (by user id) and then the histogram rows it moves
    (by week, division, points), so concurrent matches never wait on one hot
    row and, both lists being sorted, never deadlock. Idempotent per (user, match).
    """
    if isinstance(match_id, bool) or not isinstance(match_id, int) or match_id <= 0:
        raise InvalidMatch()
    if not isinstance(finished_at, datetime) or timezone.is_naive(finished_at):
        raise NaiveFinishTime()
    scored: list[_Scored] = []
    for result in results:
        user = result.user
        if user is None or getattr(user, "pk", None) is None:
            raise BotsDoNotScore()
        points = result.points
        if isinstance(points, bool) or not isinstance(points, int) or points <= 0:
            raise InvalidLeaguePoints()
        scored.append(_Scored(user=user, points=points, won=result.won))
    if len({r.user.pk for r in scored}) != len(scored):
        raise ValueError("a user appears twice in the results")
    week = league_week_ensure(moment=finished_at)
    rows: dict[int, LeaguePoints] = {}
    with transaction.atomic():
        _week_share(week)
        divisions = _divisions_ensure([r.user for r in scored])
        fresh: list[_Scored] = []
        for player in sorted(scored, key=lambda r: r.user.pk):
            try:
                with transaction.atomic():
                    row = LeaguePoints.objects.create(
                        user=player.user,
                        match_id=match_id,
                        week=week,
                        points=player.points,
                        won=bool(player.won),
                        finished_at=finished_at,
                    )
                row.replayed = False
                fresh.append(player)
            except IntegrityError:
                existing = LeaguePoints.objects.filter(user=player.user, match_id=match_id).first()
                if existing is None:
                    raise
                row = existing
                row.replayed = True
            rows[player.user.pk] = row
        if fresh and week.is_closed:
            # Kept as history; the week's archived result is final (docs/league.md).
            logger.warning("league points for closed week %s: match %s", week, match_id)
        _scores_add(week=week, results=fresh, divisions=divisions, finished_at=finished_at)
    return [rows[r.user.pk] for r in scored]


def _week_share(week: LeagueWeek) -> None:
    """Take the week row FOR KEY SHARE before reading the players' divisions.

    A shared lock: recorders never wait for each other on it (the foreign key of
    each LeaguePoints row takes the same lock anyway). It waits only while an
    earlier week's close holds this week FOR UPDATE to move scores with promoted
    or relegated players, so a record reads either the divisions before that close
    (and its score row is moved by it) or after it. SQLite serialises writers.
    """
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT 1 FROM {LeagueWeek._meta.db_table} WHERE id = %s FOR KEY SHARE",
                [week.pk],
            )


def _divisions_ensure(users: Sequence[User]) -> dict[int, int]:
    """Each user's division; a missing membership is created in Bronze."""
    ids = [u.pk for u in users]
    found = dict(
        LeagueMembership.objects.filter(user_id__in=ids).values_list("user_id", "division")
    )
    missing = [LeagueMembership(user_id=i) for i in ids if i not in found]
    if missing:
        LeagueMembership.objects.bulk_create(missing, ignore_conflicts=True)
        found = dict(
            LeagueMembership.objects.filter(user_id__in=ids).values_list("user_id", "division")
        )
    return found


def _scores_add(
    *,
    week: LeagueWeek,
    results: Sequence[_Scored],
    divisions: dict[int, int],
    finished_at: datetime,
) -> None:
    """Add to the players' weekly totals and move them in the division's histogram.

    Lock order: the players' score rows by user id, then histogram rows by
    (week, division, points); the week close locks later weeks' score rows by
    (week, user id) and then histogram rows the same way.
    """
    if not results:
        return
    ids = sorted(r.user.pk for r in results)
    LeagueScore.objects.bulk_create(
        [LeagueScore(week=week, user_id=i, division=divisions[i], points=0) for i in ids],
        ignore_conflicts=True,
    )
    scores = {
        score.user_id: score
        for score in LeagueScore.objects.select_for_update()
        .filter(week=week, user_id__in=ids)
        .order_by("user_id")
    }
    deltas: dict[tuple[int, int, int], int] = defaultdict(int)
    for result in results:
        score = scores[result.user.pk]
        before = score.points
        score.points = before + result.points
        score.wins += 1 if result.won else 0
        score.reached_at = max(score.reached_at or finished_at, finished_at)
        deltas[(week.pk, score.division, score.points)] += 1
        if before:
            deltas[(week.pk, score.division, before)] -= 1
    LeagueScore.objects.bulk_update(list(scores.values()), ["points", "wins", "reached_at"])
    _counts_apply(deltas)


def _counts_apply(deltas: dict[tuple[int, int, int], int]) -> None:
    """Add `players` deltas to histogram rows keyed (week id, division, points), in key order."""
    for (week_id, division, points), delta in sorted(deltas.items()):
        if not delta:
            continue
        lookup = {"week_id": week_id, "division": division, "points": points}
        if LeagueScoreCount.objects.filter(**lookup).update(players=F("players") + delta):
            continue
        try:
            with transaction.atomic():
                LeagueScoreCount.objects.create(**lookup, players=delta)
        except IntegrityError:
            LeagueScoreCount.objects.filter(**lookup).update(players=F("players") + delta)


# --- Closing a week -------------------------------------------------------------------


@dataclass
class WeekClosing:
    """What closing one week did; `replayed` when it had already been closed."""

    week: LeagueWeek
    replayed: bool
    players: int = 0
    promoted: int = 0
    relegated: int = 0
    prizes: list[tuple[int, int, int]] = field(default_factory=list)  # (user_id, rank, coins)


def league_prize_table() -> dict[int, tuple[int, ...]]:
    """Coins by place (1st, 2nd, 3rd…) for each division, from settings.LEAGUE_PRIZES."""
    table = settings.LEAGUE_PRIZES
    return {division: tuple(table[Division(division).key]) for division in Division.values}


def league_prize_key(*, week: LeagueWeek, user_id: int) -> str:
    """Ledger idempotency key of a week's prize: one prize per user per week."""
    return f"league:{week.monday.isoformat()}:{user_id}"


def _when(moment: datetime) -> Any:
    return connection.ops.adapt_datetimefield_value(moment)


def _sql(statement: str, params: list) -> int:
    """Runs one of the statements below, its `{score}`, `{membership}` and `{standing}`
    the models' table names (docs/architecture.md, "Plain SQL")."""
    tables = {
        "score": LeagueScore._meta.db_table,
        "membership": LeagueMembership._meta.db_table,
        "standing": LeagueStanding._meta.db_table,
    }
    with connection.cursor() as cursor:
        cursor.execute(statement.format(**tables), params)
        return cursor.rowcount


# The division a score row counts in is its player's membership at close time.
_SYNC_SCORES = """
UPDATE {score}
SET division = (SELECT m.division FROM {membership} m
                WHERE m.user_id = {score}.user_id)
WHERE week_id = %s
  AND EXISTS (SELECT 1 FROM {membership} m
              WHERE m.user_id = {score}.user_id
                AND m.division <> {score}.division)
"""

# One pass: rank (RANK: equal points share it, and its prize), each player's place
# in the exact order from the top and from the bottom, and the division's field
# size. The quotas are exact: the first max(1, ⌊n·up%⌋) from the top move up, the
# last ⌊n·down%⌋ from the bottom move down. The exact order breaks equal points by
# more matches won that week, then by reaching the total earlier, then by user id
# (the account made first), so it is total and the same on every run.
_ARCHIVE = """
INSERT INTO {standing} (week_id, user_id, division, rank, points, prize, movement)
SELECT week_id, user_id, division, rnk, points, 0,
  CASE
    WHEN division < %s AND from_top <= (CASE WHEN n * %s / 100 < 1 THEN 1 ELSE n * %s / 100 END)
      THEN 1
    WHEN division > %s AND from_bottom <= n * %s / 100
      THEN -1
    ELSE 0
  END
FROM (
  SELECT s.week_id, s.user_id, s.division, s.points,
    RANK() OVER (PARTITION BY s.division ORDER BY s.points DESC) AS rnk,
    ROW_NUMBER() OVER (PARTITION BY s.division ORDER BY s.points DESC, s.wins DESC,
                       COALESCE(s.reached_at, %s) ASC, s.user_id ASC) AS from_top,
    ROW_NUMBER() OVER (PARTITION BY s.division ORDER BY s.points ASC, s.wins ASC,
                       COALESCE(s.reached_at, %s) DESC, s.user_id DESC) AS from_bottom,
    COUNT(*) OVER (PARTITION BY s.division) AS n
  FROM {score} s
  WHERE s.week_id = %s AND s.points > 0
) ranked
"""

_MOVE = """
UPDATE {membership}
SET division = (SELECT s.division + s.movement FROM {standing} s
                WHERE s.week_id = %s AND s.user_id = {membership}.user_id),
    updated_at = %s
WHERE user_id IN (SELECT user_id FROM {standing}
                  WHERE week_id = %s AND movement <> 0)
"""


def league_week_close(*, week: LeagueWeek, now: datetime | None = None) -> WeekClosing:
    """Close one finished week: archive standings, pay prizes, move players. Once.

    Raises WeekNotOver before the week's end and EarlierWeekOpen when an earlier
    week is still open (use league_weeks_close_due, which closes them in order).
    Any failure rolls the whole close back; nothing is half-paid.
    """
    now = now or timezone.now()
    with transaction.atomic():
        # NO KEY UPDATE: serialises closers, yet lets late records reference the week.
        week = LeagueWeek.objects.select_for_update(no_key=True).get(pk=week.pk)
        if week.is_closed:
            return WeekClosing(week=week, replayed=True)
        if week.ends_at > now:
            raise WeekNotOver()
        if LeagueWeek.objects.filter(status=WeekStatus.OPEN, starts_at__lt=week.starts_at).exists():
            raise EarlierWeekOpen()
        _sql(_SYNC_SCORES, [week.pk])
        up = settings.LEAGUE_PROMOTION_PERCENT
        down = settings.LEAGUE_RELEGATION_PERCENT
        ends = _when(week.ends_at)
        _sql(
            _ARCHIVE,
            [Division.DIAMOND, up, up, Division.BRONZE, down, ends, ends, week.pk],
        )
        prizes = _prizes_pay(week=week)
        _sql(_MOVE, [week.pk, _when(now), week.pk])
        _later_scores_follow(week=week)
        standings = LeagueStanding.objects.filter(week=week)
        week.division_players = {
            str(row["division"]): row["n"]
            for row in standings.values("division").annotate(n=Count("pk")).order_by()
        }
        week.players = sum(week.division_players.values())
        week.promoted = standings.filter(movement=Movement.UP).count()
        week.relegated = standings.filter(movement=Movement.DOWN).count()
        week.prizes_paid = sum(coins for _, _, coins in prizes)
        week.status = WeekStatus.CLOSED
        week.closed_at = now
        week.save()
        _results_notify(week=week)
        results_recorded.send(sender=LeagueWeek, event="league", ref_id=week.pk)
    logger.info(
        "league week %s closed: %s players, %s up, %s down, %s coins",
        week,
        week.players,
        week.promoted,
        week.relegated,
        week.prizes_paid,
    )
    return WeekClosing(
        week=week,
        replayed=False,
        players=week.players,
        promoted=week.promoted,
        relegated=week.relegated,
        prizes=prizes,
    )


def _results_notify(*, week: LeagueWeek) -> int:
    """Every player of the closed week learns their result (promoted, kept,
    relegated, with the prize): one notification each, in bulk, pushed after commit."""
    from notifications import kinds
    from notifications.services import Outgoing, notifications_send_many

    link = reverse("league_week", kwargs={"week_id": week.pk})
    rows = (
        LeagueStanding.objects.filter(week=week)
        .order_by("user_id")
        .values_list("user_id", "division", "movement", "prize", "rank")
        .iterator(chunk_size=5000)
    )
    return notifications_send_many(
        Outgoing(
            user_id=user_id,
            kind=kinds.LEAGUE_RESULT,
            params={
                "week": week.label,
                "division": min(max(division + movement, Division.BRONZE), Division.DIAMOND),
                "movement": movement,
                "prize": prize,
                "rank": rank,
            },
            link=link,
            dedup_key=f"league-week:{week.pk}",
        )
        for user_id, division, movement, prize, rank in rows
    )


def _later_scores_follow(*, week: LeagueWeek) -> None:
    """Points already recorded for later weeks move with a promoted or relegated player.

    The score rows are locked (pk order) before any histogram row, as records do.
    """
    moved = LeagueStanding.objects.filter(week=week).exclude(movement=Movement.STAY)
    # The later weeks' rows first, oldest first, FOR UPDATE: records hold them FOR KEY
    # SHARE while they read divisions and write scores, so this waits for records in
    # flight and holds back new ones until the moved divisions are committed.
    later = list(
        LeagueWeek.objects.select_for_update()
        .filter(starts_at__gt=week.starts_at)
        .order_by("starts_at")
        .values_list("pk", flat=True)
    )
    # of=("self",): the join-free filter below locks the score rows only; (week, user)
    # order, as records lock a week's score rows by user id.
    scores = list(
        LeagueScore.objects.select_for_update(of=("self",))
        .filter(week_id__in=later, user_id__in=moved.values("user_id"))
        .order_by("week_id", "user_id")
    )
    if not scores:
        return
    divisions = dict(
        LeagueMembership.objects.filter(user_id__in=[s.user_id for s in scores]).values_list(
            "user_id", "division"
        )
    )
    deltas: dict[tuple[int, int, int], int] = {}
    changed = []
    for score in scores:
        division = divisions.get(score.user_id, score.division)
        if division == score.division:
            continue
        old_key = (score.week_id, score.division, score.points)
        new_key = (score.week_id, division, score.points)
        deltas[old_key] = deltas.get(old_key, 0) - 1
        deltas[new_key] = deltas.get(new_key, 0) + 1
        score.division = division
        changed.append(score)
    LeagueScore.objects.bulk_update(changed, ["division"], batch_size=1000)
    _counts_apply(deltas)


def _prizes_pay(*, week: LeagueWeek) -> list[tuple[int, int, int]]:
    """Pay every prize-ranked player of `week` through the ledger.

    All the winners' coin accounts are locked first, at once, in the ledger's one
    lock order (economy.services.accounts_lock), so the close never holds one
    account while waiting for another that a match payout holds.
    """
    from economy.models import TransactionKind
    from economy.services import accounts_lock, ledger_grant

    table = league_prize_table()
    places = max((len(row) for row in table.values()), default=0)
    winners = list(
        LeagueStanding.objects.filter(week=week, rank__lte=places)
        .select_related("user")
        .order_by("user_id")
    )
    accounts_lock(users=[s.user for s in winners if _prize_for(table, s.division, s.rank) > 0])
    paid = []
    for standing in winners:
        coins = _prize_for(table, standing.division, standing.rank)
        if coins <= 0:
            continue
        # Never multiplied: ledger_grant applies no booster or VIP.
        ledger_grant(
            user=standing.user,
            amount=coins,
            idempotency_key=league_prize_key(week=week, user_id=standing.user_id),
            kind=TransactionKind.LEAGUE_PRIZE,
            memo=f"league {week.label} {Division(standing.division).key} #{standing.rank}",
        )
        standing.prize = coins
        paid.append((standing.user_id, standing.rank, coins))
    LeagueStanding.objects.bulk_update([s for s in winners if s.prize], ["prize"])
    return paid


def _prize_for(table: dict[int, tuple[int, ...]], division: int, rank: int) -> int:
    places = table.get(division, ())
    return int(places[rank - 1]) if 0 < rank <= len(places) else 0


def league_weeks_close_due(
    *, now: datetime | None = None, up_to: LeagueWeek | None = None
) -> list[WeekClosing]:
    """Close every finished open week, oldest first (also weeks missed while nothing ran).

    With `up_to`, stop after that week. Each week closes in its own transaction,
    so a crash after some weeks leaves those closed and the next run goes on.
    Also makes sure the current week's row exists.
    """
    now = now or timezone.now()
    league_week_ensure(moment=now)
    closings: list[WeekClosing] = []
    while True:
        due = LeagueWeek.objects.filter(status=WeekStatus.OPEN, ends_at__lte=now)
        if up_to is not None:
            due = due.filter(starts_at__lte=up_to.starts_at)
        week = due.order_by("starts_at").first()
        if week is None:
            return closings
        closings.append(league_week_close(week=week, now=now))

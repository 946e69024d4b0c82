"""Reads for the league pages, each a handful of index scans (no window over a division)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db import connection
from django.db.models import QuerySet, Subquery, Sum

from accounts.models import User
from leagues.models import (
    Division,
    LeagueMembership,
    LeaguePoints,
    LeagueScore,
    LeagueScoreCount,
    LeagueStanding,
    LeagueWeek,
    WeekStatus,
)
from leagues.weeks import week_bounds


@dataclass(frozen=True)
class BoardRow:
    rank: int
    username: str
    points: int
    is_you: bool


@dataclass
class LeagueBoard:
    """The current week as one player sees it."""

    starts_at: datetime
    ends_at: datetime
    division: int
    players: int
    points: int
    rank: int | None
    top: list[BoardRow] = field(default_factory=list)
    around: list[BoardRow] = field(default_factory=list)

    @property
    def division_label(self) -> str:
        return str(Division(self.division).label)

    @property
    def division_key(self) -> str:
        return Division(self.division).key

    @property
    def promotion_places(self) -> int:
        if self.division == Division.DIAMOND or not self.players:
            return 0
        return max(1, self.players * settings.LEAGUE_PROMOTION_PERCENT // 100)

    @property
    def relegation_places(self) -> int:
        if self.division == Division.BRONZE:
            return 0
        return self.players * settings.LEAGUE_RELEGATION_PERCENT // 100


def league_division_of(*, user: User) -> int:
    """The user's division; Bronze when they have no membership row yet."""
    division = (
        LeagueMembership.objects.filter(user_id=user.pk).values_list("division", flat=True).first()
    )
    return division or Division.BRONZE


# One round trip for every row the board shows: the top, the player's own row and
# the nearest rows on each side (equal points first, by user id), each part a
# LIMITed keyset scan of the (week, division, -points, user) index.
_BOARD_PART = """
SELECT * FROM (
  SELECT '{part}' AS part, s.user_id, u.username, s.points
  FROM {score} s JOIN {user} u ON u.id = s.user_id
  WHERE s.week_id = %s AND s.division = %s {where}
  ORDER BY {order} LIMIT %s
) AS {part}"""
_MINE = "(SELECT m.points FROM {score} m WHERE m.week_id = %s AND m.user_id = %s)"
_PARTS = (
    # part, extra condition (needs my points?), order, python sort key
    ("top", "", "s.points DESC, s.user_id", lambda r: (-r[3], r[1])),
    ("me", "AND s.user_id = %s", "s.user_id", lambda r: 0),
    ("tb", "AND s.points = {mine} AND s.user_id < %s", "s.user_id DESC", lambda r: -r[1]),
    ("ab", "AND s.points > {mine}", "s.points, s.user_id DESC", lambda r: (r[3], -r[1])),
    ("ta", "AND s.points = {mine} AND s.user_id > %s", "s.user_id", lambda r: r[1]),
    ("bl", "AND s.points < {mine}", "s.points DESC, s.user_id", lambda r: (-r[3], r[1])),
)


def _board_rows(*, week_id: int, division: int, user_id: int, top: int, around: int) -> dict:
    tables = {"score": LeagueScore._meta.db_table, "user": User._meta.db_table}
    mine = _MINE.format(**tables)
    statements, params = [], []
    for part, where, order, _key in _PARTS:
        statements.append(
            _BOARD_PART.format(part=part, where=where.format(mine=mine), order=order, **tables)
        )
        params += [week_id, division]
        if part == "me":
            params += [user_id]
        elif part in ("tb", "ta"):
            params += [week_id, user_id, user_id]
        elif part in ("ab", "bl"):
            params += [week_id, user_id]
        params.append(top if part == "top" else 1 if part == "me" else around)
    with connection.cursor() as cursor:
        cursor.execute(" UNION ALL ".join(statements), params)
        fetched = cursor.fetchall()
    parts: dict[str, list[tuple[int, str, int]]] = {part: [] for part, *_ in _PARTS}
    keys = {part: key for part, _where, _order, key in _PARTS}
    for row in sorted(fetched, key=lambda r: (r[0], keys[r[0]](r))):
        parts[row[0]].append((row[1], row[2], row[3]))
    return parts


def league_board(
    *, user: User, now: datetime, top: int | None = None, around: int | None = None
) -> LeagueBoard:
    """The user's division, points and rank this week, the top rows and the rows around them.

    Three queries whatever the division's size: the week and division, the
    division's points histogram (LeagueScoreCount: a competition rank is 1 +
    the players with more points), and one UNION of LIMITed keyset scans for
    the rows shown. No COUNT, no OFFSET over the division.
    """
    top = settings.LEAGUE_BOARD_TOP if top is None else top
    around = settings.LEAGUE_BOARD_AROUND if around is None else around
    starts_at, ends_at = week_bounds(now)
    found = (
        LeagueWeek.objects.filter(starts_at=starts_at)
        .annotate(
            division=Subquery(
                LeagueMembership.objects.filter(user_id=user.pk).values("division")[:1]
            )
        )
        .values_list("pk", "division")
        .first()
    )
    week_id, division = found if found else (None, None)
    if division is None:
        division = league_division_of(user=user) if week_id is None else Division.BRONZE
    board = LeagueBoard(
        starts_at=starts_at, ends_at=ends_at, division=division, players=0, points=0, rank=None
    )
    if week_id is None:
        return board
    above: dict[int, int] = {}  # points -> players with more points
    for points, players in (
        LeagueScoreCount.objects.filter(week_id=week_id, division=division, players__gt=0)
        .order_by("-points")
        .values_list("points", "players")
    ):
        above[points] = board.players
        board.players += players

    def ranked(rows: list[tuple[int, str, int]]) -> list[BoardRow]:
        return [
            BoardRow(above.get(points, 0) + 1, username, points, row_user_id == user.pk)
            for row_user_id, username, points in rows
        ]

    parts = _board_rows(week_id=week_id, division=division, user_id=user.pk, top=top, around=around)
    board.top = ranked(parts["top"])
    if not parts["me"]:
        return board
    board.points = parts["me"][0][2]
    board.rank = above.get(board.points, 0) + 1
    if any(row.is_you for row in board.top):
        return board
    before = (parts["tb"] + parts["ab"])[:around]  # nearest first
    after = (parts["ta"] + parts["bl"])[:around]
    board.around = ranked([*reversed(before), *parts["me"], *after])
    return board


@dataclass(frozen=True)
class LastResult:
    week: LeagueWeek
    standing: LeagueStanding | None  # None: the player scored nothing that week


def league_last_result(*, user: User, week: LeagueWeek | None = None) -> LastResult | None:
    """The latest closed week (or `week`, when the caller has it) and the user's line in it."""
    if week is None:
        week = LeagueWeek.objects.filter(status=WeekStatus.CLOSED).order_by("-starts_at").first()
    if week is None:
        return None
    standing = LeagueStanding.objects.filter(week=week, user_id=user.pk).first()
    return LastResult(week=week, standing=standing)


def league_closed_weeks() -> QuerySet[LeagueWeek]:
    return LeagueWeek.objects.filter(status=WeekStatus.CLOSED).order_by("-starts_at")


class ArchivedStandings:
    """A closed week's standings in one division, sliceable for a Paginator.

    Its size was fixed at close (no COUNT), and a slice starts by keyset on the
    rank: exactly R−1 players rank above the first player of rank R, so a page
    only skips inside one tie group instead of OFFSETting through the division.
    """

    def __init__(self, *, week: LeagueWeek, division: int) -> None:
        self.rows = LeagueStanding.objects.filter(week=week, division=division)
        size = week.division_players.get(str(division))
        self.size = self.rows.count() if size is None else int(size)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, index: slice) -> list[LeagueStanding]:
        if not isinstance(index, slice):
            raise TypeError("archived standings are read by slices")
        start, stop = index.start or 0, min(index.stop or self.size, self.size)
        if stop <= start:
            return []
        first_rank = (
            self.rows.filter(rank__lte=start + 1)
            .order_by("-rank")
            .values_list("rank", flat=True)
            .first()
        ) or 1
        skip = start - (first_rank - 1)
        return list(
            self.rows.filter(rank__gte=first_rank)
            .select_related("user")
            .only("rank", "points", "prize", "movement", "division", "user_id", "user__username")
            .order_by("rank", "user_id")[skip : skip + (stop - start)]
        )


def league_archived_standings(*, week: LeagueWeek, division: int) -> ArchivedStandings:
    return ArchivedStandings(week=week, division=division)


def league_archived_division_of(*, user: User, week: LeagueWeek) -> int | None:
    return (
        LeagueStanding.objects.filter(week=week, user_id=user.pk)
        .values_list("division", flat=True)
        .first()
    )


def league_points_total(*, user: User, week: LeagueWeek) -> int:
    """The sum of the user's LeaguePoints rows in `week` (what LeagueScore mirrors)."""
    total = LeaguePoints.objects.filter(user=user, week=week).aggregate(total=Sum("points"))
    return total["total"] or 0


def league_standings_of(*, user: User, weeks: int) -> list[LeagueStanding]:
    """The player's archived standings in the last `weeks` closed weeks they played,
    oldest first, each with its week. Public, as the archived standings are."""
    standings = (
        LeagueStanding.objects.filter(user=user)
        .select_related("week")
        .order_by("-week__starts_at")[:weeks]
    )
    return list(reversed(list(standings)))


def division_labels() -> dict[int, str]:
    """Each division's name in the current language, by its number."""
    return {value: str(label) for value, label in Division.choices}


def league_week_overdue_seconds(now: datetime) -> float:
    """How long the oldest week past its end has waited to be closed (0 when none)."""
    due = (
        LeagueWeek.objects.filter(status=WeekStatus.OPEN, ends_at__lte=now)
        .order_by("ends_at")
        .values_list("ends_at", flat=True)
        .first()
    )
    return (now - due).total_seconds() if due is not None else 0.0

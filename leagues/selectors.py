"""Reads for the league pages, each a handful of index scans (no window over a division)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db.models import QuerySet, Sum

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
        return Division(self.division).label

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


def _rows(queryset, user_id: int, rank_of) -> list[BoardRow]:
    return [
        BoardRow(rank_of(points), username, points, row_user_id == user_id)
        for row_user_id, username, points in queryset
    ]


def league_board(
    *, user: User, now: datetime, top: int | None = None, around: int | None = None
) -> LeagueBoard:
    """The user's division, points and rank this week, the top rows and the rows around them.

    Ranks come from the division's points histogram (LeagueScoreCount): a
    player's competition rank is 1 + the players with more points. Rows are
    read by keyset over the (week, division, -points, user) index, never with
    an OFFSET or a COUNT over the division.
    """
    top = settings.LEAGUE_BOARD_TOP if top is None else top
    around = settings.LEAGUE_BOARD_AROUND if around is None else around
    starts_at, ends_at = week_bounds(now)
    division = league_division_of(user=user)
    board = LeagueBoard(
        starts_at=starts_at, ends_at=ends_at, division=division, players=0, points=0, rank=None
    )
    week_id = LeagueWeek.objects.filter(starts_at=starts_at).values_list("pk", flat=True).first()
    if week_id is None:
        return board
    histogram = sorted(
        LeagueScoreCount.objects.filter(
            week_id=week_id, division=division, players__gt=0
        ).values_list("points", "players"),
        reverse=True,
    )
    above: dict[int, int] = {}  # points -> players with more points
    running = 0
    for points, players in histogram:
        above[points] = running
        running += players
    board.players = running

    def rank_of(points: int) -> int:
        return above.get(points, 0) + 1

    scores = LeagueScore.objects.filter(week_id=week_id, division=division)
    columns = ("user_id", "user__username", "points")
    board.top = _rows(
        scores.order_by("-points", "user_id").values_list(*columns)[:top], user.pk, rank_of
    )
    mine = scores.filter(user_id=user.pk).values_list("points", flat=True).first()
    if not mine:
        return board
    board.points, board.rank = mine, rank_of(mine)
    tied_before = scores.filter(points=mine, user_id__lt=user.pk)
    if board.rank + tied_before.count() <= top:
        return board  # the player is already in the top rows
    # Rows just before the player in (points desc, user asc) order, nearest first.
    before = list(tied_before.order_by("-user_id").values_list(*columns)[:around])
    if len(before) < around:
        before += list(
            scores.filter(points__gt=mine)
            .order_by("points", "-user_id")
            .values_list(*columns)[: around - len(before)]
        )
    after = list(
        scores.filter(points=mine, user_id__gt=user.pk)
        .order_by("user_id")
        .values_list(*columns)[:around]
    )
    if len(after) < around:
        after += list(
            scores.filter(points__lt=mine)
            .order_by("-points", "user_id")
            .values_list(*columns)[: around - len(after)]
        )
    window = [*reversed(before), (user.pk, user.get_username(), mine), *after]
    board.around = _rows(window, user.pk, rank_of)
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

"""Reads for the league pages, each a handful of index scans (no window over a division)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Q, QuerySet, Sum

from accounts.models import User
from leagues.models import (
    Division,
    LeagueMembership,
    LeaguePoints,
    LeagueScore,
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


def _ranked(rows: list[tuple[int, str, int]], first_rank: int, offset: int, user_id: int):
    """Competition ranks (1, 2, 2, 4) for consecutive rows ordered by points, from `offset`."""
    ranked = []
    previous_points = None
    rank = first_rank
    for index, (row_user_id, username, points) in enumerate(rows):
        if previous_points is not None and points != previous_points:
            rank = offset + index + 1
        ranked.append(BoardRow(rank, username, points, row_user_id == user_id))
        previous_points = points
    return ranked


def league_board(
    *, user: User, now: datetime, top: int | None = None, around: int | None = None
) -> LeagueBoard:
    """The user's division, points and rank this week, the top rows and the rows around them."""
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
    scores = LeagueScore.objects.filter(week_id=week_id, division=division)
    ordered = scores.order_by("-points", "user_id").values_list(
        "user_id", "user__username", "points"
    )
    board.players = scores.count()
    board.top = _ranked(list(ordered[:top]), 1, 0, user.pk)
    mine = scores.filter(user_id=user.pk).values_list("points", flat=True).first()
    if not mine:
        return board
    # One index range scan gives both the rank and the position among equals.
    counts = scores.filter(points__gte=mine).aggregate(
        above=Count("pk", filter=Q(points__gt=mine)),
        tied_before=Count("pk", filter=Q(points=mine, user_id__lt=user.pk)),
    )
    above = counts["above"]
    position = above + counts["tied_before"]
    board.points, board.rank = mine, above + 1
    if position < top:
        return board  # the player is already in the top rows
    offset = max(0, position - around)
    window = list(ordered[offset : position + around + 1])
    first_points = window[0][2]
    first_rank = (
        board.rank if first_points == mine else scores.filter(points__gt=first_points).count() + 1
    )
    board.around = _ranked(window, first_rank, offset, user.pk)
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


def league_archived_standings(*, week: LeagueWeek, division: int) -> QuerySet[LeagueStanding]:
    return (
        LeagueStanding.objects.filter(week=week, division=division)
        .select_related("user")
        .only("rank", "points", "prize", "movement", "division", "user__username")
        .order_by("rank", "user_id")
    )


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

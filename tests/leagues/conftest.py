"""The league's cast and clock: users, a match-id counter and fixed Madrid times."""

from __future__ import annotations

import itertools
from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

MADRID = ZoneInfo("Europe/Madrid")


def madrid(*args: int) -> datetime:
    return datetime(*args, tzinfo=MADRID)


# An ordinary week: Monday 2026-11-16 00:00 to Monday 2026-11-23 00:00, Madrid.
MONDAY = madrid(2026, 11, 16)
MIDWEEK = madrid(2026, 11, 18, 12)
NEXT_MONDAY = madrid(2026, 11, 23)


@pytest.fixture
def record(db):
    """record(user, points, when) — league points for a fresh match id."""
    from leagues.services import league_points_record

    match_ids = itertools.count(1)

    def make(user, points: int, when: datetime = MIDWEEK, match_id: int | None = None):
        return league_points_record(
            user=user,
            match_id=match_id or next(match_ids),
            points=points,
            finished_at=when,
        )

    return make


@pytest.fixture
def players(make_user):
    """players(n, division=…) — n users named p01, p02… placed in `division`."""
    from leagues.models import Division, LeagueMembership

    counter = itertools.count(1)

    def make(n: int, division: int = Division.BRONZE, prefix: str = "p"):
        users = []
        for _ in range(n):
            user = make_user(f"{prefix}{next(counter):02d}")
            LeagueMembership.objects.filter(user=user).update(division=division)
            users.append(user)
        return users

    return make


def division_of(user) -> int:
    from leagues.models import LeagueMembership

    return LeagueMembership.objects.get(user=user).division


def prize_coins(user) -> int:
    """Coins the user received as league prizes, read from the ledger."""
    from django.db.models import Sum

    from economy.models import Entry, TransactionKind

    total = Entry.objects.filter(
        account__user=user, transaction__kind=TransactionKind.LEAGUE_PRIZE
    ).aggregate(total=Sum("amount"))["total"]
    return total or 0


def histogram_is_consistent() -> bool:
    """Open weeks' LeagueScoreCount rows equal a recount of LeagueScore (empty buckets aside).

    A closed week's histogram is no longer read (its archive is), so it is not checked.
    """
    from django.db.models import Count

    from leagues.models import LeagueScore, LeagueScoreCount

    kept = {
        (w, d, p): n
        for w, d, p, n in LeagueScoreCount.objects.filter(week__status="open").values_list(
            "week_id", "division", "points", "players"
        )
        if n
    }
    recount = {
        (row["week_id"], row["division"], row["points"]): row["n"]
        for row in LeagueScore.objects.filter(week__status="open")
        .values("week_id", "division", "points")
        .annotate(n=Count("id"))
    }
    return kept == recount

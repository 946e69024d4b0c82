"""Registered pairs (social's partnerships) as their page shows them: the matches the
two played as partners while the pair stood, their record, and the pair leaderboard
(docs/social.md, "Partners"). From the history's own `PlayerMatch` rows: the lower
id's line of each match, whose `partner` is the other."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import Count, Q, QuerySet

from history.models import Outcome, PlayerMatch
from ratings.selectors import PairRating, pair_ratings
from social.selectors import standing_partnerships

#: The pair page lists this many of the latest matches together.
PAIR_MATCHES = 20
#: The pair leaderboard shows this many pairs.
PAIR_BOARD_SIZE = 100


def _lines(pair: Any) -> QuerySet[PlayerMatch]:
    lines = PlayerMatch.objects.filter(
        user_id=pair.user_low_id, partner_id=pair.user_high_id, finished_at__gte=pair.created_at
    )
    if pair.dissolved_at is not None:
        lines = lines.filter(finished_at__lte=pair.dissolved_at)
    return lines


@dataclass(frozen=True)
class PairRecord:
    played: int
    won: int
    lost: int
    abandoned: int


def pair_record(pair: Any) -> PairRecord:
    """Won, lost (abandoned: a loss one of them left) while the pair stood (one query)."""
    sums = _lines(pair).aggregate(
        played=Count("pk"),
        won=Count("pk", filter=Q(outcome=Outcome.WON)),
        lost=Count("pk", filter=Q(outcome=Outcome.LOST)),
        abandoned=Count("pk", filter=Q(outcome=Outcome.ABANDONED)),
    )
    return PairRecord(**sums)


def pair_matches(pair: Any, *, limit: int = PAIR_MATCHES) -> list[PlayerMatch]:
    """The latest matches the two played as partners while the pair stood."""
    return list(_lines(pair).order_by("-finished_at", "-pk")[:limit])


def pair_rating(pair: Any) -> PairRating:
    key = (pair.user_low_id, pair.user_high_id)
    return pair_ratings([key])[key]


@dataclass(frozen=True)
class BoardPair:
    rank: int
    pair: Any
    rating: PairRating


def pair_leaderboard(*, size: int = PAIR_BOARD_SIZE) -> list[BoardPair]:
    """The standing pairs by pair rating, established pairs first (two queries)."""
    pairs = standing_partnerships()
    ratings = pair_ratings([(p.user_low_id, p.user_high_id) for p in pairs])
    ranked = sorted(
        pairs,
        key=lambda p: (
            ratings[(p.user_low_id, p.user_high_id)].provisional,
            -ratings[(p.user_low_id, p.user_high_id)].value,
            p.created_at,
            p.pk,
        ),
    )[:size]
    return [
        BoardPair(rank=i, pair=p, rating=ratings[(p.user_low_id, p.user_high_id)])
        for i, p in enumerate(ranked, start=1)
    ]

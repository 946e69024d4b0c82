"""Reads of ratings for the table, the queue, the player page and the leaderboard."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.utils import timezone

from games.hooks import SeatReputation
from ratings import hooks
from ratings.models import Rating, RatingChange, RatingReset
from ratings.skill import BOT_SKILLS, NEW, PROVISIONAL_MATCHES, Skill, shown

#: The leaderboard: the top BOARD_SIZE established players with a rated match in the
#: last BOARD_DAYS days.
BOARD_SIZE = 100
BOARD_DAYS = 30
#: Rated matches drawn on the player page's chart (the latest).
CHART_MATCHES = 60
NEW_VALUE = shown(NEW.mu)


def seat_rating(user_id: int) -> tuple[int, bool]:
    """(rating, provisional) of a player (a new player's without a rated match)."""
    row = Rating.objects.filter(user_id=user_id).values_list("value", "matches").first()
    if row is None:
        return NEW_VALUE, True
    return row[0], row[1] < PROVISIONAL_MATCHES


def bot_rating(level: str) -> int | None:
    """The fixed rating of a bot level (None for a level without one)."""
    skill = BOT_SKILLS.get(level)
    return skill.shown if skill is not None else None


def ratings_of(user_ids: list[int]) -> dict[int, int]:
    """Each player's rating by user id (a new player's when they have none)."""
    found = dict(Rating.objects.filter(user_id__in=user_ids).values_list("user_id", "value"))
    return {user_id: found.get(user_id, NEW_VALUE) for user_id in user_ids}


def skills_before(match_ids: list[int]) -> dict[tuple[int, int], Skill]:
    """Each person's estimate before each of these rated matches, by (match id, user
    id), as the match's rating change recorded it (none for an unrated match). One
    query per 5,000 matches."""
    found: dict[tuple[int, int], Skill] = {}
    ids = sorted(set(match_ids))
    for start in range(0, len(ids), 5000):
        rows = RatingChange.objects.filter(match_id__in=ids[start : start + 5000]).values_list(
            "match_id", "user_id", "mu_before", "sigma_before"
        )
        for match_id, user_id, mu, sigma in rows:
            found[(match_id, user_id)] = Skill(mu, sigma)
    return found


def skills_now(user_ids: list[int]) -> dict[int, Skill]:
    """Each player's estimate now (a new player's without a rated match)."""
    found = {
        user_id: Skill(mu, sigma)
        for user_id, mu, sigma in Rating.objects.filter(user_id__in=user_ids).values_list(
            "user_id", "mu", "sigma"
        )
    }
    return {user_id: found.get(user_id, NEW) for user_id in user_ids}


def match_rating_changes(match_id: int) -> dict[int, dict[str, Any]]:
    """What a rated match did to each person's rating, by seat position."""
    return {
        position: {
            "before": before,
            "after": after,
            "change": after - before,
            "provisional": matches < PROVISIONAL_MATCHES,
        }
        for position, before, after, matches in RatingChange.objects.filter(
            match_id=match_id
        ).values_list("position", "before", "after", "matches")
    }


# --- a player ---------------------------------------------------------------------


@dataclass(frozen=True)
class PlayerRating:
    value: int
    provisional: bool
    matches: int  # rated matches since the last reset
    rank: int | None  # on the leaderboard's terms (None: not ranked)

    @property
    def matches_to_go(self) -> int:
        return max(0, PROVISIONAL_MATCHES - self.matches)


def _cutoff(now: datetime) -> datetime:
    return now - timedelta(days=BOARD_DAYS)


def _ranked(now: datetime) -> Any:
    """The established players with a rated match in the last BOARD_DAYS days (read
    from the partial index ratings_board_idx)."""
    return Rating.objects.filter(matches__gte=PROVISIONAL_MATCHES, last_rated_at__gte=_cutoff(now))


def _rank_of(row: Rating, now: datetime) -> int | None:
    if row.matches < PROVISIONAL_MATCHES or row.last_rated_at is None:
        return None
    if row.last_rated_at < _cutoff(now):
        return None
    return 1 + _ranked(now).filter(value__gt=row.value).count()


def player_rating(user_id: int, now: datetime | None = None) -> PlayerRating:
    now = now or timezone.now()
    row = Rating.objects.filter(user_id=user_id).first()
    if row is None:
        return PlayerRating(NEW_VALUE, True, 0, None)
    return PlayerRating(row.value, row.provisional, row.matches, _rank_of(row, now))


@dataclass(frozen=True)
class RatingPoint:
    at: datetime
    value: int
    change: int
    provisional: bool
    match_id: int | None  # None: a reset
    reset: bool = False


def rating_history(user_id: int, limit: int = CHART_MATCHES) -> list[RatingPoint]:
    """The player's latest `limit` rated matches (the rating after each) and the
    resets among them, oldest first."""
    changes = list(
        RatingChange.objects.filter(user_id=user_id)
        .order_by("-at", "-pk")
        .values_list("at", "before", "after", "matches", "match_id")[:limit]
    )
    points = [
        RatingPoint(at, after, after - before, matches < PROVISIONAL_MATCHES, match_id)
        for at, before, after, matches, match_id in changes
    ]
    resets = RatingReset.objects.filter(user_id=user_id)
    if changes and len(changes) == limit:
        resets = resets.filter(at__gt=changes[-1][0])
    for at, before in resets.values_list("at", "before"):
        points.append(RatingPoint(at, NEW_VALUE, NEW_VALUE - before, True, None, reset=True))
    points.sort(key=lambda p: (p.at, p.reset))
    return points


# --- the leaderboard ---------------------------------------------------------------


@dataclass(frozen=True)
class BoardRow:
    rank: int
    user_id: int
    username: str
    value: int
    matches: int
    reputation: SeatReputation | None  # shown as the tables show it
    is_you: bool


@dataclass(frozen=True)
class Board:
    top: list[BoardRow]
    you: BoardRow | None  # your own row when you are ranked, in the top or not
    players: int  # how many are ranked
    yours: PlayerRating | None  # your rating when you are not ranked

    @property
    def you_below(self) -> bool:
        """You are ranked, but below the top rows."""
        return self.you is not None and not any(row.is_you for row in self.top)


def leaderboard(
    *, user_id: int | None, now: datetime | None = None, players: int | None = None
) -> Board:
    """The top BOARD_SIZE players and, for `user_id`, their own rank (shown even when
    they are not in the top) or why they are not ranked. `players`: how many are
    ranked, when the caller knows (ratings/cached.py keeps it), else counted."""
    now = now or timezone.now()
    ranked = _ranked(now)
    top_rows = list(
        ranked.order_by("-value", "user_id").values_list(
            "user_id", "user__username", "value", "matches"
        )[:BOARD_SIZE]
    )
    own = Rating.objects.filter(user_id=user_id).first() if user_id is not None else None
    own_rank = _rank_of(own, now) if own is not None else None
    ids = [row[0] for row in top_rows]
    if own is not None and own_rank is not None and own.user_id not in ids:
        ids.append(own.user_id)
    reputation = hooks.reputation_by_user(ids)
    top: list[BoardRow] = []
    for index, (uid, username, value, matches) in enumerate(top_rows):
        # Equal ratings share a rank (1, 2, 2, 4).
        rank = top[-1].rank if top and top[-1].value == value else index + 1
        top.append(
            BoardRow(rank, uid, username, value, matches, reputation.get(uid), uid == user_id)
        )
    you = next((row for row in top if row.is_you), None)
    if you is None and own is not None and own_rank is not None:
        you = BoardRow(
            own_rank,
            own.user_id,
            own.user.username,
            own.value,
            own.matches,
            reputation.get(own.user_id),
            True,
        )
    yours = None
    if you is None and user_id is not None:
        yours = (
            PlayerRating(own.value, own.provisional, own.matches, None)
            if own is not None
            else PlayerRating(NEW_VALUE, True, 0, None)
        )
    if players is None:
        players = ranked_count(now=now)
    return Board(top=top, you=you, players=players, yours=yours)


def ranked_count(*, now: datetime | None = None) -> int:
    """How many players are ranked (an index-only scan of every ranked player)."""
    return _ranked(now or timezone.now()).count()


@dataclass(frozen=True)
class PairRating:
    """A pair's strength as the model keeps it (docs/ratings.md: the sum of its two
    players' means), shown on the players' scale: the number of their mean μ.
    Provisional while either player is."""

    value: int
    provisional: bool


def pair_ratings(pairs: list[tuple[int, int]]) -> dict[tuple[int, int], PairRating]:
    """Each pair's rating, by the pair as given (one query for all)."""
    ids = sorted({user_id for pair in pairs for user_id in pair})
    rows = {
        user_id: (mu, matches)
        for user_id, mu, matches in Rating.objects.filter(user_id__in=ids).values_list(
            "user_id", "mu", "matches"
        )
    }
    found: dict[tuple[int, int], PairRating] = {}
    for a, b in pairs:
        mu_a, matches_a = rows.get(a, (NEW.mu, 0))
        mu_b, matches_b = rows.get(b, (NEW.mu, 0))
        found[(a, b)] = PairRating(
            value=shown((mu_a + mu_b) / 2),
            provisional=min(matches_a, matches_b) < PROVISIONAL_MATCHES,
        )
    return found

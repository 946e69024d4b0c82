"""Reads for the history pages, shaped so a page costs a fixed number of queries."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.paginator import Page, Paginator
from django.db.models import Count, Prefetch, Q
from django.http import Http404

from games.engine import Match as EngineMatch
from games.models import Match, MatchSeat, MatchStatus, Mode
from games.state import record_from_log


@dataclass
class HistoryRow:
    match: Match
    seat: MatchSeat
    partner: MatchSeat | None
    opponents: list[MatchSeat]
    outcome: str  # "won", "lost" or "abandoned"
    own_score: int
    other_score: int
    rewards: dict[str, int] = field(default_factory=dict)


def _outcome(seat: MatchSeat) -> str:
    if seat.abandoned:
        return "abandoned"
    return "won" if seat.won else "lost"


def finished_seats(user: Any, mode: str | None = None):
    """The user's seats in finished matches, newest first."""
    seats = MatchSeat.objects.filter(user=user, match__status=MatchStatus.FINISHED)
    if mode:
        seats = seats.filter(match__table__mode=mode)
    return seats.select_related("match__table").order_by("-match__finished_at", "-match_id")


def history_page(user: Any, *, mode: str | None, page: Any) -> tuple[Page, list[HistoryRow]]:
    """One page of the user's finished matches; every seat of them comes in one query."""
    if mode not in Mode.values:
        mode = None
    seats = finished_seats(user, mode).prefetch_related(
        Prefetch(
            "match__match_seats",
            queryset=MatchSeat.objects.select_related("user").order_by("position"),
            to_attr="all_seats",
        )
    )
    paginator = Paginator(seats, settings.HISTORY_PAGE_SIZE)
    page_obj = paginator.get_page(page)
    rows = []
    for seat in page_obj.object_list:
        match = seat.match
        others = {s.position: s for s in match.all_seats}
        scores = (match.score_a, match.score_b)
        pair = seat.position % 2
        rows.append(
            HistoryRow(
                match=match,
                seat=seat,
                partner=others.get((seat.position + 2) % 4),
                opponents=[
                    others[p]
                    for p in ((seat.position + 1) % 4, (seat.position + 3) % 4)
                    if p in others
                ],
                outcome=_outcome(seat),
                own_score=scores[pair],
                other_score=scores[1 - pair],
            )
        )
    _attach_rewards(user, rows)
    return page_obj, rows


def rewards_by_match_and_user(
    match_ids: list[int], users: list[Any] | None = None
) -> dict[tuple[int, int], dict[str, int]]:
    """Coins and XP from the ledger entries carrying each match id, and the league
    points stored with the match, per (match id, user id): one query each."""
    from django.apps import apps

    rewards: dict[tuple[int, int], dict[str, int]] = {}
    if not match_ids or not apps.is_installed("economy"):
        return rewards
    from economy.selectors import match_rewards

    rewards.update(match_rewards(match_ids, users))
    if apps.is_installed("online"):
        from online.models import MatchLeaguePoints

        points = MatchLeaguePoints.objects.filter(match_id__in=match_ids)
        if users is not None:
            points = points.filter(user__in=users)
        for match_id, user_id, value in points.values_list("match_id", "user_id", "points"):
            rewards.setdefault((match_id, user_id), {})["league_points"] = value
    return rewards


def _attach_rewards(user: Any, rows: list[HistoryRow]) -> None:
    """What the user got from each listed match, whatever the page size."""
    rewards = rewards_by_match_and_user([row.match.pk for row in rows], users=[user])
    for row in rows:
        row.rewards = rewards.get((row.match.pk, user.pk), {})


def match_results(stored: StoredMatch) -> list[dict[str, Any]]:
    """Each seat of a finished match with its place, points and rewards, by place."""
    rewards = rewards_by_match_and_user([stored.match.pk])
    rows = [
        {
            "seat": seat,
            "rewards": rewards.get((stored.match.pk, seat.user_id), {}) if seat.user_id else {},
        }
        for seat in stored.seats
    ]
    return sorted(rows, key=lambda row: (row["seat"].place or 5, row["seat"].position))


@dataclass
class PlayerRecord:
    played: int
    wins: int
    losses: int
    abandoned: int
    per_mode: list[tuple[str, int]]

    @property
    def completion_rate(self) -> int | None:
        """Matches finished (not abandoned) out of those played, in percent."""
        if not self.played:
            return None
        return round(100 * (self.played - self.abandoned) / self.played)


def player_record(user: Any) -> PlayerRecord:
    """A player's public record over finished matches, in two queries."""
    seats = MatchSeat.objects.filter(user=user, match__status=MatchStatus.FINISHED)
    totals = seats.aggregate(
        played=Count("pk"),
        wins=Count("pk", filter=Q(won=True)),
        abandoned=Count("pk", filter=Q(abandoned=True)),
    )
    counts = dict(
        seats.values_list("match__table__mode")
        .annotate(n=Count("pk"))
        .values_list("match__table__mode", "n")
    )
    labels = dict(Mode.choices)
    per_mode = [(labels[mode], counts.get(mode, 0)) for mode in Mode.values]
    return PlayerRecord(
        played=totals["played"],
        wins=totals["wins"],
        losses=totals["played"] - totals["wins"],
        abandoned=totals["abandoned"],
        per_mode=per_mode,
    )


@dataclass
class StoredMatch:
    match: Match
    seats: list[MatchSeat]
    engine: EngineMatch
    record: dict[str, Any]


def finished_match(match_id: int) -> StoredMatch:
    """A finished match rebuilt through the engine from its stored deals and action log.

    Anything else (live, aborted, unknown) is a 404: a live match's cards never leave here.
    """
    match = (
        Match.objects.select_related("table")
        .filter(pk=match_id, status=MatchStatus.FINISHED)
        .first()
    )
    if match is None:
        raise Http404
    seats = list(match.match_seats.select_related("user").order_by("position"))
    record = record_from_log(match)
    return StoredMatch(
        match=match, seats=seats, engine=EngineMatch.from_dict(record), record=record
    )

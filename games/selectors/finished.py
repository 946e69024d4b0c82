"""Finished matches as they were stored, and each seat's name as the table named it
(the history, the coach and reports read them)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.frames.builder import player_names
from games.models import Match, MatchSeat, MatchStatus
from games.state import record_from_log


@dataclass(frozen=True)
class FinishedMatch:
    """A finished match as it was stored: the row (with its table), its seats by
    position (with their players), its engine record rebuilt from the deals and
    the action log (no hands for a match stored without them), and each seat's
    name as the table named it."""

    match: Match
    seats: list[MatchSeat]
    record: dict[str, Any]
    names: list[str | None]


def finished_match(match_id: int) -> FinishedMatch | None:
    """The finished match `match_id`, or None for any other (live, aborted, unknown):
    a live match's cards never leave here. Four queries."""
    match = (
        Match.objects.select_related("table")
        .filter(pk=match_id, status=MatchStatus.FINISHED)
        .first()
    )
    if match is None:
        return None
    seats = list(match.match_seats.select_related("user").order_by("position"))
    names = player_names(
        seed=match.seed,
        people={seat.position: seat.user.username for seat in seats if seat.user is not None},
        bots=[seat.position for seat in seats if seat.user is None and seat.is_bot],
    )
    return FinishedMatch(match=match, seats=seats, record=record_from_log(match), names=names)


def match_names(match_ids: list[int]) -> dict[int, list[str | None]]:
    """The name of each seat of these matches, by match id then position, as the table
    showed them (`games.frames.builder.player_names`: people by username, bots by the name drawn
    from the match's seed). One query."""
    people: dict[int, dict[int, str]] = {}
    bots: dict[int, list[int]] = {}
    seeds: dict[int, int] = {}
    for match_id, seed, position, username, is_bot in MatchSeat.objects.filter(
        match_id__in=match_ids
    ).values_list("match_id", "match__seed", "position", "user__username", "is_bot"):
        seeds[match_id] = seed
        if username is not None:
            people.setdefault(match_id, {})[position] = username
        elif is_bot:
            bots.setdefault(match_id, []).append(position)
    return {
        match_id: player_names(
            seed=seed, people=people.get(match_id, {}), bots=bots.get(match_id, [])
        )
        for match_id, seed in seeds.items()
    }


def match_players(match_id: int) -> set[int]:
    """The ids of the people who played the match (registered for accounts' reports)."""
    return set(
        MatchSeat.objects.filter(match_id=match_id, user__isnull=False).values_list(
            "user_id", flat=True
        )
    )

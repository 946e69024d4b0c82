"""Clubs' receiver of `games.signals.match_finished` (connected in ClubsConfig.ready)."""

from __future__ import annotations

from typing import Any

from clubs.models import ClubMatch
from clubs.selectors import clubs_with_members
from games.models import Match, MatchSeat
from games.modes import mode_policy


def on_match_finished(
    sender: Any, *, match: Match, table: Any, match_seats: list[MatchSeat], **kwargs: Any
) -> None:
    """Inside the settlement transaction: the match is one of each club two or more
    of its players belong to now (one query, and one insert when there is such a
    club). A mode the history does not record (a practised position) is left out."""
    if not mode_policy(table.mode).in_history:
        return
    players = [seat.user_id for seat in match_seats if seat.user_id is not None]
    if len(players) < 2:
        return
    ClubMatch.objects.bulk_create(
        [
            ClubMatch(
                club_id=club_id, match=match, finished_at=match.finished_at or match.started_at
            )
            for club_id in clubs_with_members(players)
        ],
        ignore_conflicts=True,
    )

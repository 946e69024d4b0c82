"""The history's receiver of `games.signals.match_finished`, connected in
`HistoryConfig.ready()`."""

from __future__ import annotations

from typing import Any

from games.models import Match, MatchSeat
from games.modes import mode_policy
from history.services import player_matches_record


def on_match_finished(
    sender: Any,
    *,
    match: Match,
    table: Any,
    match_seats: list[MatchSeat],
    engine: Any,
    **kwargs: Any,
) -> None:
    """Inside the settlement transaction: one history line per person at the table
    (none for a mode the history does not record: a practised position)."""
    if not mode_policy(table.mode).in_history:
        return
    player_matches_record(match=match, mode=table.mode, match_seats=match_seats, engine=engine)

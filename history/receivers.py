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
    """Inside the settlement transaction: one history line per person at the table.
    A mode whose matches stay out of the public history (the daily deal, whose cards
    must stay secret until its day ends) is not recorded."""
    if not mode_policy(table.mode).public_record:
        return
    player_matches_record(match=match, mode=table.mode, match_seats=match_seats, engine=engine)

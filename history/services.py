"""The only writers of the history app: a `PlayerMatch` per person of a finished
match, and the players' cached figures dropped when one of their matches is recorded
(history/cached.py)."""

from __future__ import annotations

from django.db import transaction

from cuatrola.engine import Match as EngineMatch
from games import selectors as games
from games.models import Match, MatchSeat
from games.modes import mode_policy
from history.cached import stats_changed
from history.figures import seat_figures
from history.models import Outcome, PlayerMatch


def _outcome(seat: MatchSeat) -> str:
    if seat.abandoned:
        return Outcome.ABANDONED
    return Outcome.WON if seat.won else Outcome.LOST


def player_matches_record(
    *, match: Match, mode: str, match_seats: list[MatchSeat], engine: EngineMatch | None
) -> list[PlayerMatch]:
    """One row per person seated in the finished `match` (bots have none).

    Idempotent: a match already recorded keeps its rows. `engine` is the finished
    engine match (None for a match stored without its hands: no hand figures).
    """
    finished_at = match.finished_at
    if finished_at is None:  # settlement stamps it before recording
        raise ValueError(f"match {match.pk} is recorded before it finished")
    users = {seat.position: seat.user_id for seat in match_seats}
    scores = (match.score_a, match.score_b)
    rows = []
    for seat in match_seats:
        if seat.user_id is None:
            continue
        position = seat.position
        pair = position % 2
        rows.append(
            PlayerMatch(
                match_id=match.pk,
                user_id=seat.user_id,
                position=position,
                mode=mode,
                rules=match.rules,
                finished_at=finished_at,
                outcome=_outcome(seat),
                partner_id=users.get((position + 2) % 4),
                opponent_1_id=users.get((position + 1) % 4),
                opponent_2_id=users.get((position + 3) % 4),
                own_score=scores[pair],
                other_score=scores[1 - pair],
                place=seat.place,
                timeouts=seat.timeouts,
                **(seat_figures(engine, position) if engine is not None else {}),
            )
        )
    PlayerMatch.objects.bulk_create(rows, ignore_conflicts=True)
    # The players' cached sums go now, and again once this is committed (a page read
    # in between may have cached the sums without this match).
    user_ids = [row.user_id for row in rows]
    stats_changed(user_ids)
    transaction.on_commit(lambda: stats_changed(user_ids))
    return rows


def player_matches_rebuild(*, match_id: int) -> list[PlayerMatch]:
    """Records a finished match already stored (the backfill, and matches stored in
    bulk): its engine record is rebuilt from the deals and the action log."""
    with transaction.atomic():
        found = games.finished_match(match_id)
        if found is None or not mode_policy(found.match.table.mode).in_history:
            return []
        engine = EngineMatch.from_dict(found.record) if found.record["hands"] else None
        return player_matches_record(
            match=found.match, mode=found.match.table.mode, match_seats=found.seats, engine=engine
        )

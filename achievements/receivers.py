"""The achievements' receiver of `games.signals.match_finished`, connected in
`AchievementsConfig.ready()`: inside the settlement transaction it only notes the match
as waiting (one INSERT, committed or rolled back with the settlement); the
`achievements.read_pending` task reads it after (docs/achievements.md); and of
`games.signals.results_recorded` (a day, a league week, a tournament), the same way."""

from __future__ import annotations

from typing import Any

from achievements.services import achievements_match_pending, achievements_results_pending


def on_match_finished(sender: Any, *, match: Any, **kwargs: Any) -> None:
    achievements_match_pending(match_id=match.pk)


def on_results_recorded(sender: Any, *, event: str, ref_id: int, **kwargs: Any) -> None:
    """Inside the closing transaction of a day, a league week or a tournament: its
    results wait to be read (one INSERT, committed or rolled back with the close)."""
    achievements_results_pending(event=event, ref_id=ref_id)

"""The achievements' receiver of `games.signals.match_finished`, connected in
`AchievementsConfig.ready()`: inside the settlement transaction it only notes the match
as waiting (one INSERT, committed or rolled back with the settlement); the
`achievements.read_pending` task reads it after (docs/achievements.md)."""

from __future__ import annotations

from typing import Any

from achievements.services import achievements_match_pending


def on_match_finished(sender: Any, *, match: Any, **kwargs: Any) -> None:
    achievements_match_pending(match_id=match.pk)

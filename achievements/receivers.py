"""The achievements' receiver of `games.signals.match_finished`, connected in
`AchievementsConfig.ready()`: inside the settlement transaction it only asks for the
task once the settlement is committed (the reading of the player's facts costs the
settlement nothing)."""

from __future__ import annotations

from typing import Any

from django.db import transaction


def on_match_finished(sender: Any, *, match: Any, **kwargs: Any) -> None:
    match_id = match.pk
    transaction.on_commit(lambda: _queue(match_id))


def _queue(match_id: int) -> None:
    from achievements.tasks import match_achievements

    match_achievements.delay(match_id)

"""What ratings asks of an app above it, registered from that app's `AppConfig.ready()`.

- `register_reliability(provider)` (history): each player's reliability (the share
  of their finished matches they did not abandon, in percent; None without a
  finished match) for a list of user ids, in one query. The leaderboard shows it
  beside the rating. None registered: no reliability is shown.
"""

from __future__ import annotations

from collections.abc import Callable

_reliability: Callable[[list[int]], dict[int, int | None]] | None = None


def register_reliability(provider: Callable[[list[int]], dict[int, int | None]]) -> None:
    global _reliability
    _reliability = provider


def reliability_by_user(user_ids: list[int]) -> dict[int, int | None]:
    if _reliability is None or not user_ids:
        return {}
    return _reliability(user_ids)

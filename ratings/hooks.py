"""What ratings asks of an app above it, registered from that app's `AppConfig.ready()`.

- `register_reputation(provider)` (history): each player's reputation (a
  `games.hooks.SeatReputation`: the shares of their recorded matches finished, and
  finished without a timed-out turn, in percent; missing without a finished match)
  for a list of user ids, in one query. The leaderboard shows it beside the rating,
  as the tables do. None registered: no reputation is shown.
"""

from __future__ import annotations

from collections.abc import Callable

from games.hooks import SeatReputation

_reputation: Callable[[list[int]], dict[int, SeatReputation | None]] | None = None


def register_reputation(
    provider: Callable[[list[int]], dict[int, SeatReputation | None]],
) -> None:
    global _reputation
    _reputation = provider


def reputation_by_user(user_ids: list[int]) -> dict[int, SeatReputation | None]:
    if _reputation is None or not user_ids:
        return {}
    return _reputation(user_ids)

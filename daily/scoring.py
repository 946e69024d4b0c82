"""Matchpoint scoring (pure arithmetic, docs/daily.md).

On one deal each player's result is compared with every other player's: 2
matchpoints for each player beaten, 1 for each tie. The percentage is the share
of the most there was to get, 2 per other player: `100 * mp / (2 * (n - 1))`.
A player alone on a deal has nobody to beat or to lose to: 50 %.

A deal a player did not finish counts as the *worst* result: below every finished
result (it beats nobody who finished) and equal to the other unfinished ones.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class DealScores:
    """Matchpoints of each finished result and of the worst (unfinished), among `players`."""

    players: int
    by_result: dict[int, int]
    worst: int

    def percent(self, matchpoints: int) -> float:
        return percent(matchpoints, self.players)


def deal_scores(counts: Mapping[int, int], unfinished: int = 0) -> DealScores:
    """`counts`: how many players finished the deal with each result; `unfinished`:
    how many count it as the worst result."""
    if unfinished < 0 or any(n < 0 for n in counts.values()):
        raise ValueError("player counts cannot be negative")
    players = sum(counts.values()) + unfinished
    by_result: dict[int, int] = {}
    below = unfinished  # every unfinished result is beaten by every finished one
    for result in sorted(counts):
        same = counts[result]
        if same:
            by_result[result] = 2 * below + (same - 1)
        below += same
    worst = max(0, unfinished - 1)  # ties with the other unfinished, beats nobody
    return DealScores(players=players, by_result=by_result, worst=worst)


def percent(matchpoints: int, players: int) -> float:
    """The share of the matchpoints there were to get, in percent (50 when alone)."""
    if players <= 1:
        return 50.0
    return 100.0 * matchpoints / (2 * (players - 1))


def prize_quota(players: int, share_percent: int) -> int:
    """How many ranks the prize reaches: `share_percent` of the players, rounded down,
    at least one while anyone played (and none when the share is 0)."""
    if players <= 0 or share_percent <= 0:
        return 0
    return max(1, players * share_percent // 100)

"""Singles paired into partnerships before round one, by rating (issue 43).

Singles are ordered by rating (highest first; equal ratings by id) and the strongest
is paired with the weakest, the second with the second weakest, and so on, so the
partnerships' combined ratings are as even as this simple rule makes them. With an odd
number the middle single (the median rating) is left over: the caller refunds or
seats them as the tournament says.
"""

from __future__ import annotations

from collections.abc import Sequence


def partnerships_from_singles(
    singles: Sequence[tuple[int, float]],
) -> tuple[list[tuple[int, int]], list[int]]:
    """Pair (id, rating) singles: ([(stronger, weaker), ...] strongest first, [left over])."""
    ids = [single for single, _ in singles]
    if len(set(ids)) != len(ids):
        raise ValueError("single ids must be unique")
    ordered = [single for single, _ in sorted(singles, key=lambda s: (-s[1], s[0]))]
    half = len(ordered) // 2
    pairs = [(ordered[i], ordered[-1 - i]) for i in range(half)]
    left = [ordered[half]] if len(ordered) % 2 else []
    return pairs, left

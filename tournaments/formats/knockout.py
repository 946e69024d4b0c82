"""Knockout: the seeded bracket, a tie's winner and the next round (issue 43).

The bracket has the next power of two of places; seeds are placed by the standard
order (1 v 16, 8 v 9, 4 v 13, 5 v 12, 2 v 15, 7 v 10, 3 v 14, 6 v 11 for sixteen), so
seeds 1 and 2 can meet only in the final, 1-4 only in the semi-finals, and so on. When
the field is not a power of two the missing seeds are byes, which fall to the top seeds
(seed 1 first). A bye is `(id, None)`: that entry goes through.

A tie is best of `best_of` matches (odd: 1, 3, 5...): the first to win more than half
takes it. A no-show loses the tie: the caller records the match won by the other side.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket position order for `size` places (a power of two)."""
    if size < 1 or size & (size - 1):
        raise ValueError("a bracket's size is a power of two")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def bracket_size(entries: int) -> int:
    """The number of places in a bracket for `entries` (the next power of two, at least 2)."""
    size = 2
    while size < entries:
        size *= 2
    return size


def bracket_first_round(seeds: Sequence[int]) -> tuple[tuple[int, int | None], ...]:
    """The first round's ties, in bracket order; `seeds` are ids in seed order (1 first)."""
    if len(set(seeds)) != len(seeds):
        raise ValueError("seeded ids must be unique")
    if len(seeds) < 2:
        raise ValueError("a bracket needs at least two entries")
    order = bracket_order(bracket_size(len(seeds)))
    placed = [seeds[s - 1] if s <= len(seeds) else None for s in order]
    ties: list[tuple[int, int | None]] = []
    for i in range(0, len(placed), 2):
        a, b = placed[i], placed[i + 1]
        if a is None:  # never: the higher seed of a tie always exists
            raise AssertionError("bracket placement")
        ties.append((a, b))
    return tuple(ties)


def tie_winner(wins_a: int, wins_b: int, *, best_of: int) -> Literal["a", "b"] | None:
    """Who has taken a best-of-`best_of` tie, or None while it is still open."""
    if best_of < 1 or best_of % 2 == 0:
        raise ValueError("best_of is a positive odd number")
    if wins_a < 0 or wins_b < 0 or wins_a + wins_b > best_of:
        raise ValueError("impossible score for the tie")
    needed = best_of // 2 + 1
    if wins_a >= needed and wins_b >= needed:
        raise ValueError("both sides cannot have won the tie")
    if wins_a >= needed:
        return "a"
    if wins_b >= needed:
        return "b"
    return None


def next_round(winners: Sequence[int]) -> tuple[tuple[int, int | None], ...]:
    """The next round's ties from the last round's winners, in bracket order.

    Winners are paired in order (1st v 2nd, 3rd v 4th...), which keeps the bracket; an
    odd one out (never in a bracket from `bracket_first_round`) goes through with a bye.
    """
    if len(set(winners)) != len(winners):
        raise ValueError("winners must be unique")
    ties: list[tuple[int, int | None]] = []
    for i in range(0, len(winners), 2):
        ties.append((winners[i], winners[i + 1] if i + 1 < len(winners) else None))
    return tuple(ties)


def rounds_needed(entries: int) -> int:
    """The number of rounds of a knockout of `entries` (1 for two, 3 for eight...)."""
    return bracket_size(entries).bit_length() - 1

"""Singles paired into partnerships (tournaments.formats.partnerships)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.partnerships import partnerships_from_singles


def test_the_strongest_partners_the_weakest_and_the_median_is_left_over() -> None:
    singles = [(1, 1500.0), (2, 1800.0), (3, 1200.0), (4, 1600.0), (5, 1400.0)]
    assert partnerships_from_singles(singles) == ([(2, 3), (4, 5)], [1])


@given(
    ratings=st.lists(st.integers(min_value=800, max_value=2400), max_size=40),
    order=st.randoms(use_true_random=False),
)
@settings(max_examples=80, deadline=None)
def test_everyone_is_placed_once_evenly_and_in_any_input_order(
    ratings: list[int], order: random.Random
) -> None:
    singles = [(i, float(r)) for i, r in enumerate(ratings, start=1)]
    pairs, left = partnerships_from_singles(singles)
    placed = [p for pair in pairs for p in pair] + left
    assert sorted(placed) == [i for i, _ in singles]
    assert len(left) == len(singles) % 2
    shuffled = list(singles)
    order.shuffle(shuffled)
    assert partnerships_from_singles(shuffled) == (pairs, left)
    rating = dict(singles)
    sums = [rating[a] + rating[b] for a, b in pairs]
    if sums:
        # Strongest with weakest: the spread of the teams never exceeds the field's spread.
        assert max(sums) - min(sums) <= max(rating.values()) - min(rating.values())


def test_duplicate_singles_are_refused() -> None:
    with pytest.raises(ValueError):
        partnerships_from_singles([(1, 1500.0), (1, 1500.0)])

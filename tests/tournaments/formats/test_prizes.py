"""A prize pool split by rank (tournaments.formats.prizes)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.prizes import prize_split


def test_the_pool_is_paid_by_per_mille_shares() -> None:
    assert prize_split(1000, [500, 300, 200], [(7, 1), (8, 2), (9, 3), (10, 4)]) == {
        7: 500,
        8: 300,
        9: 200,
        10: 0,
    }


def test_tied_entries_split_the_places_they_occupy() -> None:
    assert prize_split(1000, [500, 300, 200], [(7, 1), (8, 1), (9, 3)]) == {7: 400, 8: 400, 9: 200}


def test_fewer_entries_than_places_share_the_whole_pool() -> None:
    assert prize_split(100, [500, 300, 200], [(1, 1), (2, 2)]) == {1: 63, 2: 37}


def test_odd_coins_go_to_the_better_rank_then_the_smaller_id() -> None:
    assert prize_split(10, [1, 1, 1], [(5, 1), (6, 2), (7, 3)]) == {5: 4, 6: 3, 7: 3}
    assert prize_split(1, [500, 500], [(9, 1), (4, 1)]) == {4: 1, 9: 0}


@given(
    pool=st.integers(min_value=0, max_value=10**7),
    shares=st.lists(st.integers(min_value=0, max_value=1000), min_size=1, max_size=8).filter(
        lambda s: sum(s) > 0
    ),
    ranks=st.lists(st.integers(min_value=1, max_value=6), min_size=1, max_size=20),
)
@settings(max_examples=120, deadline=None)
def test_the_split_is_exact_whole_and_fair_to_ties(
    pool: int, shares: list[int], ranks: list[int]
) -> None:
    ranked = [(entry, rank) for entry, rank in enumerate(sorted(ranks), start=1)]
    if sum(shares[: len(ranked)]) == 0 and pool:
        with pytest.raises(ValueError):
            prize_split(pool, shares, ranked)
        return
    paid = prize_split(pool, shares, ranked)
    assert sum(paid.values()) == pool
    assert set(paid) == {entry for entry, _ in ranked}
    assert all(amount >= 0 for amount in paid.values())
    by_rank: dict[int, list[int]] = {}
    for entry, rank in ranked:
        by_rank.setdefault(rank, []).append(paid[entry])
    for amounts in by_rank.values():
        assert max(amounts) - min(amounts) <= 1


@pytest.mark.parametrize(
    ("pool", "shares", "ranks"),
    [
        (-1, [1], [(1, 1)]),
        (10, [-1, 2], [(1, 1)]),
        (10, [1], [(1, 1), (1, 2)]),
        (10, [1], [(1, 0)]),
        (10, [0], [(1, 1)]),
    ],
)
def test_bad_input_is_refused(pool: int, shares: list[int], ranks: list[tuple[int, int]]) -> None:
    with pytest.raises(ValueError):
        prize_split(pool, shares, ranks)

"""The seeded bracket, a tie's winner and the next round (tournaments.formats.knockout)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.knockout import (
    bracket_first_round,
    bracket_order,
    next_round,
    rounds_needed,
    tie_winner,
)


def play_out(seeds: list[int]) -> list[tuple[tuple[int, int | None], ...]]:
    """Every round of a bracket where the better seed always wins."""
    seed_of = {entry: i for i, entry in enumerate(seeds, start=1)}
    rounds = [bracket_first_round(seeds)]
    while len(rounds[-1]) > 1:
        winners = [a if b is None or seed_of[a] < seed_of[b] else b for a, b in rounds[-1]]
        rounds.append(next_round(winners))
    return rounds


def test_sixteen_seeds_are_placed_in_the_standard_order() -> None:
    assert bracket_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@given(count=st.integers(min_value=2, max_value=100))
@settings(max_examples=60, deadline=None)
def test_every_entry_is_placed_once_and_byes_go_to_the_top_seeds(count: int) -> None:
    seeds = [100 + i for i in range(count)]
    ties = bracket_first_round(seeds)
    placed = [e for tie in ties for e in tie if e is not None]
    assert sorted(placed) == seeds
    byes = [a for a, b in ties if b is None]
    size = 1 << (count - 1).bit_length()
    assert sorted(byes) == seeds[: size - count]
    assert len(ties) == size // 2


@given(count=st.integers(min_value=2, max_value=100))
@settings(max_examples=60, deadline=None)
def test_when_the_better_seed_always_wins_the_top_seeds_meet_last(count: int) -> None:
    seeds = list(range(1, count + 1))
    rounds = play_out(seeds)
    assert len(rounds) == rounds_needed(count)
    final = rounds[-1]
    assert final == ((1, 2),)
    if len(rounds) >= 2:
        semis = {e for tie in rounds[-2] for e in tie if e is not None}
        assert semis == set(range(1, min(count, 4) + 1))


def test_seeds_one_and_two_are_in_opposite_halves() -> None:
    ties = bracket_first_round(list(range(1, 9)))
    top = {e for tie in ties[:2] for e in tie}
    assert 1 in top and 2 not in top


@pytest.mark.parametrize(
    ("wins_a", "wins_b", "best_of", "winner"),
    [
        (1, 0, 1, "a"),
        (0, 1, 1, "b"),
        (0, 0, 1, None),
        (1, 1, 3, None),
        (2, 1, 3, "a"),
        (0, 2, 3, "b"),
        (2, 2, 5, None),
    ],
)
def test_a_tie_is_won_by_the_first_to_more_than_half(
    wins_a: int, wins_b: int, best_of: int, winner: str | None
) -> None:
    assert tie_winner(wins_a, wins_b, best_of=best_of) == winner


@pytest.mark.parametrize(
    ("wins_a", "wins_b", "best_of"), [(1, 0, 2), (0, 0, 0), (-1, 0, 3), (2, 2, 3), (3, 1, 3)]
)
def test_an_impossible_tie_is_refused(wins_a: int, wins_b: int, best_of: int) -> None:
    with pytest.raises(ValueError):
        tie_winner(wins_a, wins_b, best_of=best_of)


def test_a_bracket_needs_two_distinct_entries() -> None:
    with pytest.raises(ValueError):
        bracket_first_round([1])
    with pytest.raises(ValueError):
        bracket_first_round([1, 1])
    with pytest.raises(ValueError):
        bracket_order(6)


def test_an_odd_number_of_winners_gives_the_last_a_bye() -> None:
    assert next_round([4, 5, 6]) == ((4, 5), (6, None))

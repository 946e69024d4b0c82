"""Arena points with the streak bonus and the standings (tournaments.formats.arena)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.arena import arena_points, arena_standings, on_fire

results_lists = st.lists(st.booleans(), max_size=30)


def test_after_two_wins_in_a_row_wins_count_double_until_a_loss() -> None:
    assert arena_points([True, True, True, True, False, True]) == [2, 2, 4, 4, 0, 2]
    assert on_fire([True, True]) and not on_fire([True, True, False, True])


@given(results=results_lists)
@settings(max_examples=80, deadline=None)
def test_a_win_scores_two_or_four_and_a_loss_nothing(results: list[bool]) -> None:
    points = arena_points(results)
    assert len(points) == len(results)
    for i, (won, got) in enumerate(zip(results, points, strict=True)):
        streak_before = i >= 2 and results[i - 1] and results[i - 2]
        assert got == (4 if streak_before else 2) if won else got == 0


@given(entries=st.lists(results_lists, max_size=12))
@settings(max_examples=80, deadline=None)
def test_arena_standings_are_by_points_then_fewer_matches_sharing_ranks(
    entries: list[list[bool]],
) -> None:
    standings = arena_standings(list(enumerate(entries, start=1)))
    keys = [(-s.points, s.played) for s in standings]
    assert keys == sorted(keys)
    for i, s in enumerate(standings):
        assert s.rank == (standings[i - 1].rank if i and keys[i] == keys[i - 1] else i + 1)
        assert s.points == sum(s.sheet)


def test_arena_entries_must_be_unique() -> None:
    with pytest.raises(ValueError):
        arena_standings([(1, []), (1, [True])])

"""Matchpoints and movements (tournaments.formats.duplicate)."""

from __future__ import annotations

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.duplicate import (
    BoardResult,
    Movement,
    board_matchpoints,
    howell_movement,
    matchpoint_percentages,
    mitchell_movement,
    movement_for,
    score_board,
)


def test_two_per_pair_beaten_and_one_per_tie() -> None:
    assert board_matchpoints({1: 5, 2: 3, 3: 3, 4: -2}) == {1: 6, 2: 3, 3: 3, 4: 0}
    assert matchpoint_percentages({1: 5, 2: 3, 3: 3, 4: -2})[2] == Fraction(50)
    assert matchpoint_percentages({1: 5}) == {1: Fraction(50)}


def test_pairs_are_compared_only_with_those_in_the_same_direction() -> None:
    results = [
        BoardResult(1, "NS", 2),
        BoardResult(2, "EW", -2),
        BoardResult(3, "NS", -1),
        BoardResult(4, "EW", 1),
    ]
    assert score_board(results) == {1: 2, 3: 0, 2: 0, 4: 2}
    with pytest.raises(ValueError):
        score_board([BoardResult(1, "NS", 0), BoardResult(1, "EW", 0)])


@given(scores=st.dictionaries(st.integers(), st.integers(min_value=-30, max_value=30), max_size=20))
@settings(max_examples=80, deadline=None)
def test_matchpoints_on_a_board_add_up_to_n_times_n_minus_one(scores: dict[int, int]) -> None:
    mp = board_matchpoints(scores)
    n = len(scores)
    assert sum(mp.values()) == n * (n - 1)
    assert all(0 <= v <= 2 * max(n - 1, 0) for v in mp.values())
    for a in scores:
        for b in scores:
            if scores[a] > scores[b]:
                assert mp[a] > mp[b]


def check_movement(movement: Movement, pairs: int) -> Counter[frozenset[int]]:
    """Every pair plays each round or sits out; each table once per round, one board set a round."""
    meetings: Counter[frozenset[int]] = Counter()
    for rnd in movement.rounds:
        seated = [p for s in rnd.seatings for p in (s.ns, s.ew)]
        if rnd.sit_out is not None:
            seated.append(rnd.sit_out)
        assert sorted(seated) == list(range(1, pairs + 1))
        tables = [s.table for s in rnd.seatings]
        assert sorted(tables) == list(range(1, len(tables) + 1))
        assert {s.board_set for s in rnd.seatings} == {rnd.number}
        for s in rnd.seatings:
            meetings[frozenset((s.ns, s.ew))] += 1
    return meetings


@given(pairs=st.integers(min_value=2, max_value=16))
@settings(max_examples=30, deadline=None)
def test_a_howell_meets_every_other_pair_exactly_once(pairs: int) -> None:
    movement = howell_movement(pairs)
    meetings = check_movement(movement, pairs)
    assert set(meetings.values()) == {1}
    assert len(meetings) == pairs * (pairs - 1) // 2
    sat_out = [r.sit_out for r in movement.rounds if r.sit_out is not None]
    assert len(sat_out) == len(set(sat_out)) == (pairs if pairs % 2 else 0)
    directions = Counter(
        (p, d) for r in movement.rounds for s in r.seatings for p, d in ((s.ns, "NS"), (s.ew, "EW"))
    )
    assert all(abs(directions[(p, "NS")] - directions[(p, "EW")]) <= 2 for p in range(1, pairs + 1))


@given(tables=st.integers(min_value=1, max_value=20), data=st.data())
@settings(max_examples=30, deadline=None)
def test_a_mitchell_never_repeats_an_opponent(tables: int, data: st.DataObject) -> None:
    rounds = data.draw(st.integers(min_value=1, max_value=tables))
    movement = mitchell_movement(tables, rounds=rounds)
    meetings = check_movement(movement, 2 * tables)
    assert set(meetings.values()) == {1}
    assert len(movement.rounds) == rounds
    for rnd in movement.rounds:
        assert all(s.ns == s.table and s.ew > tables for s in rnd.seatings)


def test_howell_for_a_few_tables_and_mitchell_above() -> None:
    assert movement_for(10).kind == "howell"
    assert movement_for(12).kind == "mitchell"
    assert movement_for(11).tables == 6


@pytest.mark.parametrize(
    ("call", "arg", "rounds"),
    [("howell", 1, None), ("howell", 4, 4), ("mitchell", 0, None), ("mitchell", 3, 4)],
)
def test_impossible_movements_are_refused(call: str, arg: int, rounds: int | None) -> None:
    make = howell_movement if call == "howell" else mitchell_movement
    with pytest.raises(ValueError):
        make(arg, rounds=rounds)

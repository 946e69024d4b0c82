"""The queue never seats two people of whom one blocked the other (online.matchmaking)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from online.matchmaking import Waiting, tables_choose

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
FILL = 20
BOT = 1200


def waiting(key, rating, waited=0.0):
    return Waiting(key, rating, NOW - timedelta(seconds=waited))


def choose(people, blocked=(), now=NOW):
    pairs = frozenset(frozenset(p) for p in blocked)
    return tables_choose(people, now=now, fill_after_seconds=FILL, bot_rating=BOT, blocked=pairs)


def keys(seating):
    return sorted(w.key for w in seating.people)


def test_a_blocked_pair_is_not_seated_when_a_fifth_player_can_take_a_place():
    people = [waiting(k, 1500) for k in range(5)]
    tables = choose(people, blocked=[(0, 1)])
    assert len(tables) == 1
    seated = keys(tables[0])
    assert not {0, 1} <= set(seated) and len(seated) == 4


def test_without_the_block_the_same_five_seat_the_first_four_in_order():
    tables = choose([waiting(k, 1500) for k in range(5)])
    assert keys(tables[0]) == [0, 1, 2, 3]


def test_four_with_a_blocked_pair_wait_then_sit_at_two_tables_with_bots():
    people = [waiting(k, 1500, waited=5) for k in range(4)]
    assert choose(people, blocked=[(2, 3)]) == []
    tables = choose(people, blocked=[(2, 3)], now=NOW + timedelta(seconds=FILL))
    assert sorted(keys(t) for t in tables) == [[0, 1, 2], [3]]


def test_a_block_in_either_direction_counts():
    people = [waiting(k, 1500, waited=FILL) for k in range(2)]
    tables = choose(people, blocked=[(1, 0)])
    assert sorted(keys(t) for t in tables) == [[0], [1]]


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1000, 2000), st.floats(0, 40)), min_size=1, max_size=14).flatmap(
        lambda people: st.tuples(
            st.just(people),
            st.lists(
                st.tuples(st.integers(0, len(people) - 1), st.integers(0, len(people) - 1)).filter(
                    lambda p: p[0] != p[1]
                ),
                max_size=12,
            ),
        )
    )
)
def test_no_table_ever_holds_a_blocked_pair_and_nobody_is_seated_twice(case):
    people_spec, blocked = case
    people = [waiting(k, rating, waited) for k, (rating, waited) in enumerate(people_spec)]
    pairs = frozenset(frozenset(p) for p in blocked)
    tables = choose(people, blocked=blocked)
    seated = [w.key for t in tables for w in t.people]
    assert len(seated) == len(set(seated))
    for table in tables:
        table_keys = [w.key for w in table.people]
        assert len(table.pairs) == 2 and all(len(p) == 2 for p in table.pairs)
        for i, a in enumerate(table_keys):
            for b in table_keys[i + 1 :]:
                assert frozenset((a, b)) not in pairs
    # Once everyone has waited the fill time, everyone is seated (bots are a choice).
    later = choose(people, blocked=blocked, now=NOW + timedelta(seconds=FILL))
    assert sorted(w.key for t in later for w in t.people) == list(range(len(people)))

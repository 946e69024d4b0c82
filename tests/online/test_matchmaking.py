"""The queue's choice of tables (online.matchmaking): crafted waiting lists."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from online.matchmaking import (
    SPREAD_AT_ONCE,
    SPREAD_PER_SECOND,
    Waiting,
    pairs_balanced,
    spread_accepted,
    tables_choose,
)

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
FILL = 20
BOT = 1200


def waiting(key, rating, waited=0.0):
    return Waiting(key, rating, NOW - timedelta(seconds=waited))


def choose(people, now=NOW):
    return tables_choose(people, now=now, fill_after_seconds=FILL, bot_rating=BOT)


def keys(seating):
    return sorted(w.key for w in seating.people)


def test_four_equals_are_seated_at_once():
    tables = choose([waiting(k, 1500) for k in range(4)])
    assert len(tables) == 1 and keys(tables[0]) == [0, 1, 2, 3]


def test_nobody_is_seated_alone_before_the_fill_time():
    assert choose([waiting(1, 1500, waited=19.9)]) == []
    assert choose([waiting(k, 1500, waited=5) for k in range(3)]) == []


def test_of_more_than_four_the_four_closest_in_rating_are_seated():
    people = [
        waiting(1, 1500),
        waiting(2, 1900),
        waiting(3, 1520),
        waiting(4, 1480),
        waiting(5, 1100),
        waiting(6, 1540),
    ]
    tables = choose(people)
    assert len(tables) == 1 and keys(tables[0]) == [1, 3, 4, 6]


def test_the_closest_group_is_seated_first_even_if_others_waited_longer():
    people = [waiting(k, 1000 + 40 * k, waited=8) for k in range(4)]  # spread 120
    people += [waiting(10 + k, 2000 + k) for k in range(4)]  # spread 3
    tables = choose(people)
    assert [keys(t) for t in tables] == [[10, 11, 12, 13], [0, 1, 2, 3]]


def test_equal_spreads_seat_the_group_that_waited_longest():
    people = [waiting(k, 1500, waited=1) for k in range(4)]
    people += [waiting(10 + k, 1800, waited=3) for k in range(4)]
    people += [waiting(20, 1800)]
    tables = choose(people)
    assert [keys(t) for t in tables] == [[10, 11, 12, 13], [0, 1, 2, 3]]


def test_the_pairs_are_balanced_strongest_with_weakest():
    tables = choose([waiting(1, 1600), waiting(2, 1550), waiting(3, 1500), waiting(4, 1460)])
    (a, b), (c, d) = tables[0].pairs
    assert {a.key, b.key} == {1, 4} and {c.key, d.key} == {2, 3}


def test_pairs_with_bots_are_balanced_at_the_bots_rating():
    (a, b), (c, d) = pairs_balanced(
        [waiting(1, 1800), waiting(2, 1300), None, None], bot_rating=BOT
    )
    assert (a.key, b) == (1, None)  # the strongest person with a bot
    assert (c.key, d) == (2, None)
    with pytest.raises(ValueError, match="4 players"):
        pairs_balanced([None, None, None], bot_rating=BOT)


def test_the_accepted_spread_widens_with_waiting_time():
    assert spread_accepted(0, fill_after_seconds=FILL) == SPREAD_AT_ONCE == 150
    assert spread_accepted(10, fill_after_seconds=FILL) == 150 + 10 * SPREAD_PER_SECOND == 650
    assert spread_accepted(FILL, fill_after_seconds=FILL) == float("inf")
    spread_400 = [waiting(1, 1300), waiting(2, 1450), waiting(3, 1550), waiting(4, 1700)]
    assert choose(spread_400) == []  # 400 points apart: not at once
    later = NOW + timedelta(seconds=4.9)
    assert choose(spread_400, now=later) == []  # 150 + 4.9 × 50 = 395
    tables = choose(spread_400, now=NOW + timedelta(seconds=5))  # 400 accepted
    assert len(tables) == 1 and keys(tables[0]) == [1, 2, 3, 4]


def test_the_longest_waiting_player_decides_what_a_group_accepts():
    people = [waiting(1, 1300, waited=6), waiting(2, 1450), waiting(3, 1550), waiting(4, 1700)]
    assert len(choose(people)) == 1  # 150 + 6 × 50 = 450 ≥ 400


def test_a_lone_high_rated_player_still_gets_a_table_within_the_fill_time():
    star = waiting(99, 2600)
    crowd = [waiting(k, 1500 + k) for k in range(7)]
    assert [keys(t) for t in choose([star, *crowd])] == [[0, 1, 2, 3]]
    # Fifteen seconds on, the three left and the star are within what the star accepts.
    later = NOW + timedelta(seconds=15)
    tables = choose([star, *crowd[4:]], now=later)
    assert tables == [] or 99 in keys(tables[0])
    # Alone at the fill time: a table with bots.
    at_fill = choose([star], now=NOW + timedelta(seconds=FILL))
    assert len(at_fill) == 1 and keys(at_fill[0]) == [99]
    assert sum(w is None for pair in at_fill[0].pairs for w in pair) == 3


def test_at_the_fill_time_the_long_waiter_joins_people_whatever_the_spread():
    star = waiting(99, 2600, waited=FILL)
    crowd = [waiting(k, 1000) for k in range(3)]
    tables = choose([star, *crowd])
    assert len(tables) == 1 and keys(tables[0]) == [0, 1, 2, 99]


def test_those_left_get_bots_only_when_the_longest_waiting_of_them_reached_the_fill_time():
    people = [waiting(k, 1500, waited=3) for k in range(5)] + [waiting(9, 1500, waited=19)]
    tables = choose(people)
    assert len(tables) == 1  # the four closest (all equal) that waited longest
    assert 9 in keys(tables[0])
    tables = choose(people, now=NOW + timedelta(seconds=17))
    assert len(tables) == 2 and sorted(len(t.people) for t in tables) == [2, 4]

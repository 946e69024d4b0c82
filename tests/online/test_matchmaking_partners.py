"""Partners in the queue (online.matchmaking): two who queued together always sit
together as partners; a "prefer as partner" mark seats the two together when both
wait; an "avoid as partner" mark never makes the two partners; blocks still hold."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given, settings
from hypothesis import strategies as st

from online.matchmaking import Waiting, tables_choose

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
FILL = 20
BOT = 1200


def waiting(key, rating, waited=0.0, partner=None):
    return Waiting(key, rating, NOW - timedelta(seconds=waited), partner)


def choose(people, blocked=(), avoid=(), prefer=(), now=NOW):
    return tables_choose(
        people,
        now=now,
        fill_after_seconds=FILL,
        bot_rating=BOT,
        blocked=frozenset(frozenset(p) for p in blocked),
        avoid=frozenset(avoid),
        prefer=frozenset(prefer),
    )


def partners(tables):
    """Every pair of people seated as partners, as sets of keys."""
    found = set()
    for table in tables:
        for a, b in table.pairs:
            if a is not None and b is not None:
                found.add(frozenset((a.key, b.key)))
    return found


def seated(tables):
    return sorted(w.key for t in tables for w in t.people)


def test_a_queued_pair_faces_another_queued_pair_of_close_rating():
    people = [
        waiting(0, 1500, partner=1),
        waiting(1, 1700, partner=0),
        waiting(2, 1600, partner=3),
        waiting(3, 1620, partner=2),
    ]
    tables = choose(people)
    assert len(tables) == 1
    assert partners(tables) == {frozenset((0, 1)), frozenset((2, 3))}


def test_queued_pairs_far_apart_wait_then_face_each_other_at_the_fill_time():
    people = [
        waiting(0, 1000, waited=5, partner=1),
        waiting(1, 1000, waited=5, partner=0),
        waiting(2, 2000, waited=5, partner=3),
        waiting(3, 2000, waited=5, partner=2),
    ]
    assert choose(people) == []
    tables = choose(people, now=NOW + timedelta(seconds=FILL))
    assert partners(tables) == {frozenset((0, 1)), frozenset((2, 3))}


def test_a_queued_pair_alone_waits_then_sits_against_bots():
    people = [waiting(0, 1000, waited=5, partner=1), waiting(1, 1900, waited=5, partner=0)]
    assert choose(people) == []
    (table,) = choose(people, now=NOW + timedelta(seconds=FILL))
    assert partners([table]) == {frozenset((0, 1))}
    assert table.pairs[1] == (None, None)


def test_a_queued_pair_faces_two_waiting_alone_who_become_partners():
    people = [
        waiting(0, 1500, partner=1),
        waiting(1, 1500, partner=0),
        waiting(2, 1490),
        waiting(3, 1510),
    ]
    tables = choose(people)
    assert partners(tables) == {frozenset((0, 1)), frozenset((2, 3))}


def test_one_partner_named_without_the_other_waiting_waits_alone():
    people = [waiting(0, 1500, partner=9), *[waiting(k, 1500) for k in (1, 2, 3)]]
    assert seated(choose(people)) == [0, 1, 2, 3]


def test_a_blocked_queued_pair_is_no_pair():
    people = [
        waiting(0, 1500, waited=FILL, partner=1),
        waiting(1, 1500, waited=FILL, partner=0),
    ]
    tables = choose(people, blocked=[(0, 1)])
    assert len(tables) == 2


def test_a_preferred_partner_is_seated_with_the_player_who_marked_them():
    people = [waiting(k, 1500 + k) for k in range(4)]
    assert partners(choose(people)) == {frozenset((0, 3)), frozenset((1, 2))}
    assert frozenset((0, 1)) in partners(choose(people, prefer=[(0, 1)]))


def test_an_avoided_player_is_not_made_a_partner_while_another_split_exists():
    people = [waiting(k, 1500 + k) for k in range(4)]
    # The most balanced split makes 0 and 3 partners: avoided, the next one is used.
    pairs = partners(choose(people, avoid=[(3, 0)]))
    assert frozenset((0, 3)) not in pairs and len(pairs) == 2


def test_a_four_that_cannot_split_without_an_avoided_partner_is_not_seated():
    people = [waiting(k, 1500, waited=5) for k in range(4)]
    avoid = [(0, 1), (0, 2), (0, 3)]
    assert choose(people, avoid=avoid) == []
    later = choose(people, avoid=avoid, now=NOW + timedelta(seconds=FILL))
    assert seated(later) == [0, 1, 2, 3]
    assert not partners(later) & {frozenset(p) for p in avoid}


def test_a_preference_the_other_avoids_is_not_followed():
    people = [waiting(k, 1500 + k) for k in range(4)]
    pairs = partners(choose(people, prefer=[(0, 1)], avoid=[(1, 0)]))
    assert frozenset((0, 1)) not in pairs


# --- random waiting lists ----------------------------------------------------------


def _case(draw_people, n):
    pair = st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)).filter(lambda p: p[0] != p[1])
    return st.tuples(
        st.just(draw_people),
        st.lists(pair, max_size=10),  # blocks
        st.lists(pair, max_size=10),  # avoid
        st.lists(pair, max_size=10),  # prefer
        st.lists(pair, max_size=4),  # queued together
    )


cases = st.lists(
    st.tuples(st.integers(1000, 2000), st.floats(0, 40)), min_size=1, max_size=16
).flatmap(lambda people: _case(people, len(people)))


@settings(max_examples=400, deadline=None)
@given(cases)
def test_random_waiting_lists_keep_every_rule_of_partners_and_blocks(case):
    spec, blocked, avoid, prefer, queued = case
    partner: dict[int, int] = {}
    for a, b in queued:
        if a not in partner and b not in partner:
            partner[a], partner[b] = b, a
    people = [waiting(k, rating, waited, partner.get(k)) for k, (rating, waited) in enumerate(spec)]
    blocks = {frozenset(p) for p in blocked}
    avoided = {frozenset(p) for p in avoid}
    duos = {frozenset((a, b)) for a, b in partner.items() if frozenset((a, b)) not in blocks}
    for now in (NOW, NOW + timedelta(seconds=FILL)):
        tables = choose(people, blocked=blocked, avoid=avoid, prefer=prefer, now=now)
        keys = seated(tables)
        assert len(keys) == len(set(keys))
        together = partners(tables)
        for table in tables:
            assert len(table.pairs) == 2 and all(len(p) == 2 for p in table.pairs)
            table_keys = [w.key for w in table.people]
            for i, a in enumerate(table_keys):
                for b in table_keys[i + 1 :]:
                    # No blocked pair at a table, as partners or opponents.
                    assert frozenset((a, b)) not in blocks
        # Two who queued together (no block between them) sit together as partners,
        # or both still wait.
        for duo in duos:
            a, b = tuple(duo)
            assert (a in keys) == (b in keys)
            if a in keys:
                assert duo in together
        # Never partners the queue chose among those avoided.
        assert not (together - duos) & avoided
    # Once everyone has waited the fill time, everyone is seated.
    assert seated(tables) == list(range(len(people)))


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.tuples(st.integers(1000, 2000), st.floats(0, 40)), min_size=2, max_size=14),
    st.data(),
)
def test_a_lone_preference_both_waiting_is_always_seated_together(spec, data):
    """One mark, "prefer", and no other mark nor block: once the two are seated, they
    are partners."""
    a = data.draw(st.integers(0, len(spec) - 1))
    b = data.draw(st.integers(0, len(spec) - 1).filter(lambda k: k != a))
    people = [waiting(k, rating, waited) for k, (rating, waited) in enumerate(spec)]
    for now in (NOW, NOW + timedelta(seconds=FILL)):
        tables = choose(people, prefer=[(a, b)], now=now)
        keys = seated(tables)
        assert (a in keys) == (b in keys)
        if a in keys:
            assert frozenset((a, b)) in partners(tables)


def test_a_four_that_could_not_split_is_looked_at_again_once_one_of_it_is_seated():
    """From player 0 the first four cannot split (0 avoids 1, 2 and 3); once 1–4 are
    seated, 0 sits with 5, 6 and 7 in the same pass."""
    people = [waiting(k, 1500 + k) for k in range(8)]
    tables = choose(people, avoid=[(0, 1), (0, 2), (0, 3)])
    assert sorted(seated([t]) for t in tables) == [[0, 5, 6, 7], [1, 2, 3, 4]]

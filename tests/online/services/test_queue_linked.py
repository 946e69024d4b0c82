"""The rated queue never seats linked accounts as opponents: it keeps them apart as it
keeps apart people who blocked each other (docs/online.md; docs/moderation.md,
"Linked accounts")."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from accounts.services import sign_in_record
from online import services
from online.matchmaking import Waiting, tables_choose
from social import services as social
from tests.online.services.test_queue_blocks import tables_of

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)
FILL = 20


def link(*users, device="L" * 32, address=None):
    for user in users:
        sign_in_record(user_id=user.pk, address=address, device_id=device)


@pytest.mark.django_db
def test_the_queue_seats_the_four_others_rather_than_two_linked_accounts(players, clock):
    people = players(5)
    link(people[0], people[3])
    for person in people:  # each join runs a matchmaking pass after its commit
        services.queue_join(user=person, now=clock())
    services.queue_match(now=clock())
    seated = tables_of(people)
    assert not (seated["p00"] and seated["p03"])
    assert sum(1 for t in seated.values() if t) == 4


@pytest.mark.django_db
def test_accounts_linked_by_a_network_sit_at_two_tables_with_bots_after_the_fill_time(
    players, clock
):
    people = players(2)
    link(people[0], device="X" * 32, address="198.51.100.7")
    link(people[1], device="Y" * 32, address="198.51.100.7")
    for person in people:
        services.queue_join(user=person, now=clock())
    assert set(tables_of(people).values()) == {None}
    clock.advance(FILL)
    services.queue_match(now=clock())
    seated = tables_of(people)
    assert seated["p00"] != seated["p01"] and None not in seated.values()


@pytest.mark.django_db
def test_blocks_and_links_are_kept_apart_together(players, clock):
    people = players(4)
    link(people[0], people[1])
    social.block_add(user=people[2], username=people[3].username)
    for person in people:
        services.queue_join(user=person, now=clock())
    clock.advance(FILL)
    services.queue_match(now=clock())
    seated = tables_of(people)
    assert seated["p00"] != seated["p01"] and seated["p02"] != seated["p03"]


@pytest.mark.django_db
def test_unlinked_players_are_seated_together_as_before(players, clock):
    people = players(4)
    for number, person in enumerate(people):
        link(person, device=f"{number:032d}", address=f"198.51.100.{number}")
    for person in people:
        services.queue_join(user=person, now=clock())
    assert len(set(tables_of(people).values())) == 1


def opponents(seating):
    (a1, a2), (b1, b2) = seating.pairs
    return {
        frozenset((x.key, y.key))
        for x in (a1, a2)
        for y in (b1, b2)
        if x is not None and y is not None
    }


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_over_random_waiting_lists_linked_accounts_are_never_opponents(data):
    """The queue passes its blocked pairs and its linked pairs together
    (`online.services.queue_match`): whatever the list, no table seats a linked pair
    as opponents (nor at all), nobody is seated twice, and once everyone has waited
    the fill time everyone is seated."""
    count = data.draw(st.integers(2, 14), label="waiting")
    people = [
        Waiting(key, data.draw(st.integers(1000, 2000)), NOW - timedelta(seconds=waited))
        for key, waited in enumerate(
            data.draw(st.lists(st.floats(0, 40), min_size=count, max_size=count))
        )
    ]
    key_pairs = st.lists(
        st.frozensets(st.integers(0, count - 1), min_size=2, max_size=2),
        max_size=8,
    )
    linked = frozenset(data.draw(key_pairs, label="linked"))
    apart = linked | frozenset(data.draw(key_pairs, label="blocked"))
    now = NOW + timedelta(seconds=data.draw(st.floats(0, 40), label="later"))
    tables = tables_choose(people, now=now, fill_after_seconds=FILL, bot_rating=1200, blocked=apart)
    seated = [w.key for t in tables for w in t.people]
    assert len(seated) == len(set(seated))
    for table in tables:
        assert not opponents(table) & linked
        keys = {w.key for w in table.people}
        assert not any(pair <= keys for pair in linked)
    if all((now - w.joined_at).total_seconds() >= FILL for w in people):
        assert sorted(seated) == list(range(count))

"""Linked accounts: the same device (any sign-in kept), or the same network within
LINKED_NETWORK_DAYS (accounts.selectors; docs/moderation.md, "Linked accounts")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.conf import settings
from django.utils import timezone

from accounts.selectors import accounts_linked, linked_accounts, linked_pairs
from accounts.services import sign_in_record

pytestmark = pytest.mark.django_db

HOME = "198.51.100.7"
CAFE = "203.0.113.50"
PHONE = "A" * 32
LAPTOP = "B" * 32


@pytest.fixture
def sign_in():
    now = timezone.now()

    def record(user, *, address=None, device=None, days_ago=0.0):
        return sign_in_record(
            user_id=user.pk,
            address=address,
            device_id=device or f"{user.pk:032d}",  # each user's own, unless named
            at=now - timedelta(days=days_ago),
        )

    return record


@pytest.fixture
def cast(make_user):
    return [make_user(name) for name in ("ana", "bea", "carla", "dora")]


def pair(a, b):
    return frozenset((a.pk, b.pk))


def test_two_accounts_signed_in_on_one_device_are_linked(cast, sign_in):
    ana, bea, carla, _ = cast
    sign_in(ana, device=PHONE, days_ago=80)
    sign_in(bea, device=PHONE, days_ago=1)
    sign_in(carla, device=LAPTOP)
    assert linked_pairs([ana.pk, bea.pk, carla.pk]) == {pair(ana, bea)}
    assert accounts_linked(ana.pk, bea.pk) and accounts_linked(bea.pk, ana.pk)
    assert not accounts_linked(ana.pk, carla.pk)


def test_a_device_links_only_while_its_sign_ins_are_kept(cast, sign_in):
    ana, bea, *_ = cast
    sign_in(ana, device=PHONE, days_ago=settings.SIGN_IN_KEEP_DAYS + 1)  # not pruned yet
    sign_in(bea, device=PHONE)
    assert not accounts_linked(ana.pk, bea.pk)


def test_a_shared_network_links_while_both_signed_in_from_it_recently(cast, sign_in):
    ana, bea, carla, dora = cast
    days = settings.LINKED_NETWORK_DAYS
    sign_in(ana, address=HOME, days_ago=days - 1)
    sign_in(bea, address=HOME, days_ago=2)
    sign_in(carla, address=HOME, days_ago=days + 1)  # from there, but too long ago
    sign_in(dora, address=CAFE)
    assert linked_pairs([u.pk for u in cast]) == {pair(ana, bea)}


def test_the_network_window_is_a_setting(cast, sign_in, settings):
    ana, bea, *_ = cast
    sign_in(ana, address=HOME, days_ago=10)
    sign_in(bea, address=HOME)
    assert accounts_linked(ana.pk, bea.pk)
    settings.LINKED_NETWORK_DAYS = 5
    assert not accounts_linked(ana.pk, bea.pk)


def test_sign_ins_without_a_network_never_link_by_network(cast, sign_in):
    ana, bea, *_ = cast
    sign_in(ana, address=None)
    sign_in(bea, address="not an address")
    assert linked_pairs([ana.pk, bea.pk]) == frozenset()


def test_every_linked_pair_of_a_group_is_found_at_once(cast, sign_in, django_assert_num_queries):
    ana, bea, carla, dora = cast
    sign_in(ana, device=PHONE)
    sign_in(bea, device=PHONE)
    sign_in(bea, address=CAFE)
    sign_in(carla, address=CAFE)
    sign_in(dora, address=HOME)
    with django_assert_num_queries(1):
        found = linked_pairs([u.pk for u in cast])
    assert found == {pair(ana, bea), pair(bea, carla)}
    assert linked_pairs([ana.pk]) == frozenset() and not accounts_linked(ana.pk, ana.pk)


def test_a_users_linked_accounts_say_how_and_when(cast, sign_in, django_assert_num_queries):
    ana, bea, carla, dora = cast
    sign_in(ana, device=PHONE, address=HOME, days_ago=3)
    sign_in(bea, device=PHONE, days_ago=40)
    latest_phone = sign_in(bea, device=PHONE, days_ago=20)
    latest_home = sign_in(carla, address=HOME, days_ago=1)
    sign_in(carla, address=HOME, days_ago=5)
    sign_in(dora, address=CAFE)
    with django_assert_num_queries(2):
        links = linked_accounts(ana.pk)
    assert [link.username for link in links] == ["carla", "bea"]  # the latest first
    carla_link, bea_link = links
    assert carla_link.network_at == latest_home.at and carla_link.device_at is None
    assert bea_link.device_at == latest_phone.at and bea_link.network_at is None
    assert linked_accounts(dora.pk) == []


def test_an_account_without_sign_ins_is_linked_to_none(cast, sign_in):
    ana, bea, *_ = cast
    sign_in(bea, device=PHONE)
    assert linked_accounts(ana.pk) == []


def test_an_account_signed_in_from_no_network_still_sees_its_device_links(cast, sign_in):
    ana, bea, *_ = cast
    sign_in(ana, device=PHONE, address=None)
    shared = sign_in(bea, device=PHONE, address=HOME)
    [link] = linked_accounts(ana.pk)
    assert (link.username, link.device_at, link.network_at) == ("bea", shared.at, None)


def test_on_postgresql_the_prepared_query_finds_what_the_orms_query_finds(make_user, sign_in):
    """Every table in play asks for its players' links (games/frames/live.py): on
    PostgreSQL that is one prepared statement, which must answer as the ORM's query
    (the other databases' path) on any mix of devices, networks and ages."""
    import random

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from accounts import selectors

    if connection.vendor != "postgresql":
        pytest.skip("the prepared statement is PostgreSQL's; the others run the ORM's query")
    dice = random.Random(45)
    people = [make_user(f"p{n}") for n in range(8)]
    devices = [PHONE, LAPTOP]
    networks = [HOME, CAFE, "192.0.2.1", None]
    near = (0.0, settings.LINKED_NETWORK_DAYS - 1, settings.LINKED_NETWORK_DAYS + 1)
    ages = (*near, settings.SIGN_IN_KEEP_DAYS + 1)  # the last: no longer kept
    for _ in range(40):
        sign_in(
            dice.choice(people),
            address=dice.choice(networks),
            # mostly each one's own device, so that networks alone link some of them
            device=dice.choice(devices) if dice.random() < 0.25 else None,
            days_ago=dice.choice(ages),
        )
    kept, recent = selectors._link_cutoffs(None)
    found_some = False
    for size in (2, 3, 4, 8):
        for _ in range(5):
            wanted = sorted(person.pk for person in dice.sample(people, size))
            orm = selectors._shared_sign_ins(wanted, kept, recent)
            prepared = selectors._shared_sign_ins_prepared(wanted, kept, recent)
            assert sorted(prepared) == sorted(orm)
            assert len(set(prepared)) == len(prepared)  # each distinct once
            found_some = found_some or bool(orm)
    assert found_some
    with CaptureQueriesContext(connection) as queries:
        selectors.linked_pairs([person.pk for person in people])
    assert [q["sql"] for q in queries] == [selectors._SHARED_SIGN_INS_SQL]

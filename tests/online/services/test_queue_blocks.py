"""The queue, the stake tables and people who blocked each other (docs/social.md)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games.models import Seat
from online import services
from online.models import StakeSitting
from social import services as social

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def tables_of(users):
    return {
        u.username: Seat.objects.filter(user=u, live=True)
        .values_list("table_id", flat=True)
        .first()
        for u in users
    }


def test_the_queue_seats_the_four_others_rather_than_a_blocked_pair(players, clock):
    people = players(5)
    social.block_add(user=people[1], username=people[0].username)
    for person in people:  # each join runs a matchmaking pass after its commit
        services.queue_join(user=person, now=clock())
    services.queue_match(now=clock())
    seated = tables_of(people)
    assert not (seated["p00"] and seated["p01"])
    assert sum(1 for t in seated.values() if t) == 4


def test_after_the_fill_time_a_blocked_pair_sits_at_two_tables_with_bots(players, clock):
    people = players(2)
    social.block_add(user=people[0], username=people[1].username)
    for person in people:
        services.queue_join(user=person, now=clock())
    assert set(tables_of(people).values()) == {None}
    clock.advance(20)
    services.queue_match(now=clock())
    seated = tables_of(people)
    assert seated["p00"] != seated["p01"] and None not in seated.values()


def test_a_stake_table_warns_before_you_sit_with_someone_you_blocked(client, make_user):
    viewer, blocked = make_user("ana"), make_user("olga")
    social.block_add(user=viewer, username="olga")
    table = services.stake_table_open(user=blocked, stake=100)
    client.force_login(viewer)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    listing = client.get(reverse("online:stakes"))
    assert "(you blocked this player)" in listing.content.decode()
    response = client.post(reverse("online:stake_sit", args=[table.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("online:stake_table", args=[table.pk])
    assert not StakeSitting.objects.filter(user=viewer).exists()
    page = client.get(response["Location"]).content.decode()
    assert 'data-testid="blocked-warning"' in page and "olga" in page
    client.post(reverse("online:stake_sit", args=[table.pk]), {"confirm": "1"})
    assert Seat.objects.filter(table=table, user=viewer).exists()


def test_no_warning_at_a_stake_table_without_anyone_you_blocked(client, make_user):
    viewer = make_user("ana")
    table = services.stake_table_open(user=make_user("olga"), stake=100)
    client.force_login(viewer)
    page = client.get(reverse("online:stake_table", args=[table.pk])).content.decode()
    assert "blocked-warning" not in page
    client.post(reverse("online:stake_sit", args=[table.pk]))
    assert Seat.objects.filter(table=table, user=viewer).exists()


def test_a_player_you_blocked_cannot_sit_at_your_stake_table_even_past_the_page(make_user):
    """The hole: only the page asked, and only about the sitter's own blocks."""
    from economy.selectors import balances
    from online import errors

    blocker, blocked = make_user("ana"), make_user("olga")
    social.block_add(user=blocker, username="olga")
    table = services.stake_table_open(user=blocker, stake=100)
    before = balances(blocked)
    with pytest.raises(errors.NotWelcomeHere) as refused:
        services.stake_table_sit(user=blocked, table_id=table.pk)
    assert "blocked" not in refused.value.message  # the block is not revealed
    assert not Seat.objects.filter(table=table, user=blocked).exists()
    assert not StakeSitting.objects.filter(user=blocked).exists()
    assert balances(blocked) == before  # nothing was charged


def test_the_page_says_why_a_blocked_player_cannot_sit(client, make_user):
    blocker, blocked = make_user("ana"), make_user("olga")
    social.block_add(user=blocker, username="olga")
    table = services.stake_table_open(user=blocker, stake=100)
    client.force_login(blocked)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    response = client.post(reverse("online:stake_sit", args=[table.pk]), follow=True)
    assert "You cannot sit at this table: choose another one." in response.content.decode()
    assert not Seat.objects.filter(table=table, user=blocked).exists()

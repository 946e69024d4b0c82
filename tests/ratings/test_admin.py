"""Staff see a player's rating history and reset it, with a reason."""

from __future__ import annotations

import pytest
from django.urls import reverse

from ratings.models import Rating, RatingReset
from tests.ratings.conftest import finish, online_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated_player(players, clock):
    cast = players(4)
    finish(online_table(cast, clock), winner=0)
    return cast[0]


def test_staff_see_a_players_rating_history(client, staff_user, rated_player):
    client.force_login(staff_user)
    page = client.get(reverse("admin:ratings_rating_change", args=[rated_player.pk]))
    assert page.status_code == 200
    html = page.content.decode()
    row = Rating.objects.get(user=rated_player)
    assert "rating-history" in html and str(row.value) in html
    assert reverse("admin:ratings_rating_reset", args=[rated_player.pk]) in html


def test_a_reset_without_a_reason_is_refused_with_a_clear_message(client, staff_user, rated_player):
    client.force_login(staff_user)
    before = Rating.objects.get(user=rated_player).value
    url = reverse("admin:ratings_rating_reset", args=[rated_player.pk])
    response = client.post(url, {"reason": "   "}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "A rating reset needs a reason" in response.content.decode()
    assert Rating.objects.get(user=rated_player).value == before
    assert not RatingReset.objects.exists()


def test_a_reset_with_a_reason_is_made_and_logged(client, staff_user, rated_player):
    client.force_login(staff_user)
    url = reverse("admin:ratings_rating_reset", args=[rated_player.pk])
    response = client.post(url, {"reason": "Banned for colluding"})
    assert response.status_code == 302
    assert Rating.objects.get(user=rated_player).value == 1500
    reset = RatingReset.objects.get()
    assert (reset.staff, reset.reason) == (staff_user, "Banned for colluding")
    page = client.get(reverse("admin:ratings_rating_change", args=[rated_player.pk]))
    assert "Banned for colluding" in page.content.decode()


def test_staff_without_the_permission_cannot_reset(client, make_user, rated_player):
    helper = make_user("helper", is_staff=True)
    client.force_login(helper)
    url = reverse("admin:ratings_rating_reset", args=[rated_player.pk])
    assert client.post(url, {"reason": "no"}).status_code == 403
    assert not RatingReset.objects.exists()

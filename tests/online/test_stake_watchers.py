"""The stake tables' "Let others watch this table" box (docs/watching.md): ticked by
default, passed to the services as `allow_watchers`, bad values refused."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games.models import Seat, Table
from online import services

pytestmark = pytest.mark.django_db

BAD = ["maybe", "2", "yes please", "\x00", "on1"]


@pytest.fixture
def signed_in(client, player):
    client.force_login(player)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


def forbids(user) -> bool:
    return Seat.objects.get(user=user, live=True).forbids_watchers


@pytest.mark.parametrize(("value", "allowed"), [("1", True), ("on", True), (None, False)])
def test_opening_a_table_passes_the_box(signed_in, player, value, allowed):
    data = {"stake": "100"}
    if value is not None:
        data["allow_watchers"] = value
    response = signed_in.post(reverse("online:stake_open"), data)
    assert response.status_code == 302
    assert forbids(player) is not allowed


@pytest.mark.parametrize(("value", "allowed"), [("1", True), (None, False)])
def test_sitting_passes_the_box(signed_in, player, make_user, value, allowed):
    table = services.stake_table_open(user=make_user("olga"), stake=100)
    data = {} if value is None else {"allow_watchers": value}
    response = signed_in.post(reverse("online:stake_sit", args=[table.pk]), data)
    assert response.status_code == 302
    assert forbids(player) is not allowed


@pytest.mark.parametrize("value", BAD)
def test_a_bad_value_opens_nothing_and_says_why(signed_in, player, value):
    response = signed_in.post(
        reverse("online:stake_open"), {"stake": "100", "allow_watchers": value}
    )
    assert response.status_code == 302 and response["Location"] == reverse("online:stakes")
    assert not Table.objects.exists()
    assert [str(m) for m in get_messages(response.wsgi_request)] == [
        "Tick the box or leave it empty."
    ]


@pytest.mark.parametrize("value", BAD)
def test_a_bad_value_sits_nobody(signed_in, player, make_user, value):
    table = services.stake_table_open(user=make_user("olga"), stake=100)
    response = signed_in.post(
        reverse("online:stake_sit", args=[table.pk]), {"allow_watchers": value}
    )
    assert response.status_code == 302
    assert not Seat.objects.filter(user=player).exists()


def test_the_box_reaches_the_services(signed_in, player, make_user, monkeypatch):
    seen = []
    table = services.stake_table_open(user=make_user("olga"), stake=100)

    def opened(**kwargs):
        seen.append(("open", kwargs["allow_watchers"]))
        return table

    def sat(**kwargs):
        seen.append(("sit", kwargs["allow_watchers"]))
        return table

    monkeypatch.setattr("online.services.stake_table_open", opened)
    monkeypatch.setattr("online.services.stake_table_sit", sat)
    signed_in.post(reverse("online:stake_open"), {"stake": "100", "allow_watchers": "1"})
    signed_in.post(reverse("online:stake_open"), {"stake": "100"})
    signed_in.post(reverse("online:stake_sit", args=[table.pk]), {"allow_watchers": "1"})
    signed_in.post(reverse("online:stake_sit", args=[table.pk]), {"confirm": "1"})
    assert seen == [("open", True), ("open", False), ("sit", True), ("sit", False)]


def test_every_sit_and_open_form_has_the_box_ticked(signed_in, make_user):
    table = services.stake_table_open(user=make_user("olga"), stake=100)
    box = '<input type="checkbox" name="allow_watchers" value="1" checked>'
    lobby = signed_in.get(reverse("online:stakes")).content.decode()
    forms = lobby.count('action="/play/stakes/')
    assert forms >= 2 and lobby.count(box) == forms
    assert "Let others watch this table" in lobby
    page = signed_in.get(reverse("online:stake_table", args=[table.pk])).content.decode()
    assert page.count(box) == 1

"""The partners page, the pair page and the pair leaderboard, with htmx and without,
good inputs and bad (docs/social.md, "Partners")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from social import services
from social.models import PartnerMark, PartnerRequest, Partnership
from tests.social.conftest import befriend

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def pair(player, friend):
    befriend(player, friend)
    request = services.partner_request_send(user=player, username="pablo")
    return services.partner_request_accept(user=friend, request_id=request.pk)


def test_the_partners_pages_need_a_signed_in_player(client):
    response = client.get(reverse("social:partners"))
    assert response.status_code == 302 and "login" in response["Location"]
    response = client.post(reverse("social:partner_request_send"), {"username": "ana"})
    assert response.status_code == 302 and "login" in response["Location"]
    assert not PartnerRequest.objects.exists()


def test_the_forms_take_posts_only(signed_in):
    assert signed_in.get(reverse("social:partner_request_send")).status_code == 405
    assert signed_in.get(reverse("social:partner_mark_set")).status_code == 405
    assert signed_in.post(reverse("social:partners")).status_code == 405


def test_a_partner_request_with_htmx_answers_with_the_region(signed_in, friend, player):
    befriend(player, friend)
    url = reverse("social:partner_request_send")
    response = signed_in.post(url, {"username": "Pablo"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<div id="partners"')
    assert "Partner request sent to pablo." in html and "Waiting for pablo to answer." in html


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"username": "nadie"}, "There is no player with that name."),
        ({"username": "ana"}, "That is you."),
        ({"username": ""}, "Write a player&#x27;s username."),
        ({}, "Write a player&#x27;s username."),
        ({"username": "x" * 151}, "Write a player&#x27;s username."),
        ({"username": "pablo"}, "You may ask only a friend to be your partner."),
    ],
)
def test_a_refused_request_is_said_and_keeps_the_typed_name(signed_in, friend, data, said):
    response = signed_in.post(reverse("social:partner_request_send"), data)
    assert response.status_code == 400
    assert said in response.content.decode()
    response = signed_in.post(reverse("social:partner_request_send"), data, **HTMX)
    assert response.status_code == 200 and said in response.content.decode()


def test_the_partner_accepts_from_the_page_and_the_pair_is_listed(client, player, friend):
    befriend(player, friend)
    request = services.partner_request_send(user=player, username="pablo")
    client.force_login(friend)
    page = client.get(reverse("social:partners")).content.decode()
    assert "ana asks you to be their partner." in page
    url = reverse("social:partner_request_answer", args=[request.pk, "accept"])
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == reverse("social:partners")
    page = client.get(reverse("social:partners")).content.decode()
    assert "You are now partners." in page and 'data-testid="partner-list"' in page


@pytest.mark.parametrize("answer", ["accept", "decline", "cancel"])
def test_answering_an_unknown_request_is_said(signed_in, answer):
    url = reverse("social:partner_request_answer", args=[999_999, answer])
    response = signed_in.post(url, **HTMX)
    assert "There is no such partner request." in response.content.decode()


def test_a_bad_answer_or_id_is_no_page(signed_in):
    assert signed_in.post("/friends/partners/requests/1/steal/").status_code == 404
    assert signed_in.post("/friends/partners/requests/1234567890123/accept/").status_code == 404
    assert signed_in.post("/friends/partners/x/dissolve/").status_code == 404


def test_dissolving_twice_says_so_and_the_pair_page_stays(signed_in, pair):
    url = reverse("social:partnership_dissolve", args=[pair.pk])
    first = signed_in.post(url, **HTMX).content.decode()
    assert "The pair is dissolved" in first and "Former pairs" in first
    second = signed_in.post(url, **HTMX).content.decode()
    assert "You are not partners with this player." in second
    page = signed_in.get(reverse("pair", args=[pair.pk]))
    assert page.status_code == 200 and "dissolved on" in page.content.decode()


def test_someone_else_cannot_dissolve_a_pair(client, pair, other):
    client.force_login(other)
    client.post(reverse("social:partnership_dissolve", args=[pair.pk]))
    assert Partnership.objects.get().standing


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({"username": "pablo", "kind": "hate"}, "choose a mark"),
        ({"username": "pablo"}, "choose a mark"),
        ({"username": "", "kind": "prefer"}, "choose a mark"),
        ({"username": "nadie", "kind": "avoid"}, "There is no player with that name."),
        ({"username": "ana", "kind": "avoid"}, "That is you."),
    ],
)
def test_bad_marks_are_refused(signed_in, friend, data, said):
    response = signed_in.post(reverse("social:partner_mark_set"), data, **HTMX)
    assert response.status_code == 200 and said in response.content.decode()
    assert not PartnerMark.objects.exists()


def test_a_mark_is_set_shown_and_removed(signed_in, friend):
    html = signed_in.post(
        reverse("social:partner_mark_set"), {"username": "PABLO", "kind": "avoid"}, **HTMX
    ).content.decode()
    assert "pablo: Avoid as partner." in html and 'data-testid="partner-marks"' in html
    html = signed_in.post(
        reverse("social:partner_mark_remove"), {"username": "pablo"}, **HTMX
    ).content.decode()
    assert "Mark removed." in html and not PartnerMark.objects.exists()
    html = signed_in.post(
        reverse("social:partner_mark_remove"), {"username": "pablo"}, **HTMX
    ).content.decode()
    assert "You have not marked this player." in html


def test_the_pair_page_shows_the_pair_rating_and_record(client, pair):
    response = client.get(reverse("pair", args=[pair.pk]))
    html = response.content.decode()
    assert response.status_code == 200
    assert "ana and pablo" in html and 'data-testid="pair-rating"' in html and "1500?" in html
    assert "No match together yet." in html


@pytest.mark.parametrize("path", ["/pairs/999999/", "/pairs/0/"])
def test_an_unknown_pair_is_404(client, path):
    assert client.get(path).status_code == 404


def test_the_pair_leaderboard_lists_standing_pairs_only(client, pair, make_user):
    html = client.get(reverse("pair_leaderboard")).content.decode()
    assert "ana and pablo" in html
    services.partnership_dissolve(user=pair.user_low, pair_id=pair.pk)
    html = client.get(reverse("pair_leaderboard")).content.decode()
    assert "No registered pair yet." in html


def test_the_player_page_links_the_pairs_and_the_partners_page(signed_in, pair):
    html = signed_in.get(reverse("player_record", args=["ana"])).content.decode()
    assert reverse("pair", args=[pair.pk]) in html
    assert reverse("social:partners") in html


def test_the_profile_of_a_friend_offers_a_partner_request(signed_in, player, other):
    befriend(player, other)
    html = signed_in.get(reverse("profile", args=["olga"])).content.decode()
    assert "Ask olga to be your partner" in html

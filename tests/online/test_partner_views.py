"""Queueing with a partner from the lobby: the invitation shown in the lobby's
invitations region, its answers, and bad form values (messages, never errors)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from online import services
from online.models import QueueEntry, QueueInvitation
from social import services as social

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english_pages(client):
    """Pages in English, whatever the site's default (Spanish)."""
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


def partners(a, b):
    request = social.friend_request_send(user=a, username=b.username)
    social.friend_request_accept(user=b, request_id=request.pk)
    asked = social.partner_request_send(user=a, username=b.username)
    return social.partner_request_accept(user=b, request_id=asked.pk)


@pytest.fixture
def friend(make_user, player):
    friend = make_user("pablo")
    partners(player, friend)
    return friend


def messages_of(client, url) -> str:
    return client.get(url).content.decode()


def test_the_lobby_offers_queueing_with_a_partner_and_links_the_partners_page(client, player):
    client.force_login(player)
    html = client.get(reverse("games:lobby")).content.decode()
    assert reverse("social:partners") in html and "No partner yet" in html


def test_an_invitation_is_shown_to_the_partner_who_accepts_and_both_wait(client, player, friend):
    client.force_login(player)
    html = client.get(reverse("games:lobby")).content.decode()
    assert 'name="username"' in html and ">pablo</option>" in html
    response = client.post(reverse("online:queue_partner_invite"), {"username": "pablo"})
    assert response.status_code == 302 and response["Location"] == reverse("games:lobby")
    assert "Waiting for pablo to accept" in messages_of(client, reverse("games:lobby"))
    client.force_login(friend)
    region = client.get(reverse("games:lobby_invitations")).content.decode()
    assert "ana asks you to look for an online match together" in region
    assert "No pending invitations." not in region
    invitation = QueueInvitation.objects.get()
    response = client.post(reverse("online:queue_partner_answer", args=[invitation.pk, "accept"]))
    assert response["Location"] == reverse("online:play")
    assert QueueEntry.objects.count() == 2
    assert "You and ana are in the queue together" in messages_of(client, reverse("online:play"))


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ({}, "Choose one of your partners."),
        ({"username": ""}, "Choose one of your partners."),
        ({"username": "x" * 151}, "Choose one of your partners."),
        ({"username": "nadie"}, "You may queue only with one of your registered partners."),
        ({"username": "ana"}, "You may queue only with one of your registered partners."),
    ],
)
def test_bad_invitations_are_said_on_the_lobby(client, player, friend, data, said):
    client.force_login(player)
    response = client.post(reverse("online:queue_partner_invite"), data, follow=True)
    assert response.status_code == 200 and said in response.content.decode()
    assert not QueueInvitation.objects.exists()


def test_a_partner_already_queued_is_said_unavailable(client, player, friend):
    services.queue_join(user=friend)
    client.force_login(player)
    response = client.post(
        reverse("online:queue_partner_invite"), {"username": "pablo"}, follow=True
    )
    assert "Your partner cannot look for a match with you now" in response.content.decode()


@pytest.mark.parametrize("answer", ["accept", "decline", "cancel"])
def test_answering_an_unknown_invitation_is_said(client, player, answer):
    client.force_login(player)
    url = reverse("online:queue_partner_answer", args=[999_999, answer])
    response = client.post(url, follow=True)
    assert "There is no such invitation to queue together." in response.content.decode()


def test_bad_answers_and_gets_are_refused(client, player):
    client.force_login(player)
    assert client.post("/play/online/partner/1/steal/").status_code == 404
    assert client.post("/play/online/partner/1234567890123/accept/").status_code == 404
    assert client.get(reverse("online:queue_partner_invite")).status_code == 405


def test_the_inviter_cancels_and_the_partner_declines(client, player, friend):
    client.force_login(player)
    invitation = services.queue_partner_invite(user=player, username="pablo")
    client.post(reverse("online:queue_partner_answer", args=[invitation.pk, "cancel"]))
    assert not QueueInvitation.objects.exists()
    invitation = services.queue_partner_invite(user=player, username="pablo")
    client.force_login(friend)
    client.post(reverse("online:queue_partner_answer", args=[invitation.pk, "decline"]))
    assert not QueueInvitation.objects.exists() and not QueueEntry.objects.exists()


def test_a_partner_request_is_shown_in_the_lobby(client, player, make_user):
    other = make_user("olga")
    request = social.friend_request_send(user=player, username="olga")
    social.friend_request_accept(user=other, request_id=request.pk)
    social.partner_request_send(user=player, username="olga")
    client.force_login(other)
    region = client.get(reverse("games:lobby_invitations")).content.decode()
    assert "ana asks you to be their partner." in region

"""The friends page and its forms, with htmx and without, good inputs and bad."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services as games
from games.models import Invitation
from social import selectors, services
from social.models import Block, FriendRequest
from tests.social.conftest import befriend

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HTMX = {"HTTP_HX_REQUEST": "true"}


def test_the_friends_page_needs_a_signed_in_player(client):
    response = client.get(reverse("social:friends"))
    assert response.status_code == 302 and "login" in response["Location"]
    response = client.post(reverse("social:request_send"), {"username": "ana"})
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_forms_take_posts_only(signed_in):
    assert signed_in.get(reverse("social:request_send")).status_code == 405
    assert signed_in.post(reverse("social:friends")).status_code == 405


def test_a_request_sent_with_htmx_answers_with_the_region_and_the_notice(signed_in, friend):
    response = signed_in.post(reverse("social:request_send"), {"username": "Pablo"}, **HTMX)
    html = response.content.decode()
    assert response.status_code == 200
    assert html.lstrip().startswith('<div id="friends"') and "<html" not in html
    assert "Friend request sent to pablo." in html
    assert "Waiting for pablo to answer." in html


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"username": "nadie"}, "There is no player with that name."),
        ({"username": "ana"}, "That is you."),
        ({}, "Write a player&#x27;s username."),
        ({"username": "x" * 151}, "Write a player&#x27;s username."),
        ({"username": "<script>alert(1)</script>"}, "There is no player with that name."),
    ],
)
def test_a_bad_request_is_an_error_in_the_region(signed_in, friend, data, message):
    response = signed_in.post(reverse("social:request_send"), data, **HTMX)
    assert response.status_code == 200  # htmx swaps no 4xx: the error is in the region
    assert message in response.content.decode()
    assert "<script>alert" not in response.content.decode()
    assert not FriendRequest.objects.exists()


def test_a_refused_request_names_the_player_typed_and_keeps_the_name_in_the_form(signed_in, friend):
    typed = '<b>nadie</b>"'
    for extra in (HTMX, {}):  # with htmx the region, without the page (no `next`)
        response = signed_in.post(reverse("social:request_send"), {"username": typed}, **extra)
        html = response.content.decode()
        assert response.status_code == (200 if extra else 400)
        escaped = "&lt;b&gt;nadie&lt;/b&gt;&quot;"
        assert f"“{escaped}”: There is no player with that name." in html
        assert (
            f'id="friend-username" name="username" type="text" maxlength="150" '
            f'required value="{escaped}"' in html
        )
        assert 'aria-invalid="true" aria-describedby="social-error"' in html
        assert "<b>nadie" not in html
    # Sent, the form is empty again.
    html = signed_in.post(
        reverse("social:request_send"), {"username": "pablo"}, **HTMX
    ).content.decode()
    assert "Friend request sent to pablo." in html and 'required value=""' in html
    # The page's other refusals name the player too ("That is you.").
    html = signed_in.post(
        reverse("social:request_send"), {"username": "ANA"}, **HTMX
    ).content.decode()
    assert "“ANA”: That is you." in html


def test_in_spanish_the_refusal_names_the_player_in_its_own_quotes(signed_in, friend):
    html = signed_in.post(
        reverse("social:request_send"), {"username": "nadie"}, HTTP_ACCEPT_LANGUAGE="es", **HTMX
    ).content.decode()
    assert "«nadie»: No hay ningún jugador con ese nombre." in html


def test_without_javascript_a_form_goes_back_to_the_page_with_its_message(signed_in, friend):
    response = signed_in.post(reverse("social:request_send"), {"username": "pablo"}, follow=True)
    assert response.redirect_chain[-1][0] == reverse("social:friends")
    assert "Friend request sent to pablo." in response.content.decode()
    response = signed_in.post(reverse("social:request_send"), {"username": "pablo"}, follow=True)
    assert (
        "“pablo”: You have already sent this player a friend request." in response.content.decode()
    )
    # Refused from another page (its `next`), the refusal goes back there as a message.
    response = signed_in.post(
        reverse("social:request_send"), {"username": "pablo", "next": "/u/pablo/"}, follow=True
    )
    assert response.redirect_chain[-1][0] == "/u/pablo/"
    assert (
        "“pablo”: You have already sent this player a friend request." in response.content.decode()
    )


def test_a_next_elsewhere_than_this_site_is_not_followed(signed_in, friend):
    response = signed_in.post(
        reverse("social:block"), {"username": "pablo", "next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("social:friends")
    response = signed_in.post(reverse("social:unblock"), {"username": "pablo", "next": "/u/pablo/"})
    assert response["Location"] == "/u/pablo/"


def test_the_receiver_accepts_on_the_page_and_both_see_the_friend(client, player, friend):
    request = services.friend_request_send(user=player, username="pablo")
    client.force_login(friend)
    page = client.get(reverse("social:friends")).content.decode()
    assert "ana wants to be your friend." in page
    url = reverse("social:request_answer", args=[request.pk, "accept"])
    html = client.post(url, **HTMX).content.decode()
    assert "You are now friends." in html and 'data-testid="friend-list"' in html
    assert selectors.friend_ids(player.pk) == {friend.pk}


@pytest.mark.parametrize("answer", ["accept", "decline", "cancel"])
def test_answering_an_unknown_request_is_a_clear_error(signed_in, answer):
    url = reverse("social:request_answer", args=[999999, answer])
    response = signed_in.post(url, **HTMX)
    assert response.status_code == 200
    assert "There is no such friend request." in response.content.decode()


def test_a_made_up_answer_or_a_huge_id_is_no_page(signed_in):
    assert signed_in.post("/friends/requests/1/maybe/").status_code == 404
    assert signed_in.post("/friends/requests/1234567890123/accept/").status_code == 404


def test_the_page_says_who_is_at_a_table_unless_they_keep_it_to_themselves(
    signed_in, player, friend
):
    befriend(player, friend)
    games.table_create_practice(user=friend, rules="online", bot_level="easy")
    page = signed_in.get(reverse("social:friends")).content.decode()
    assert "at a table · Practice" in page
    services.privacy_update(
        user=friend, requests_from="everyone", show_table=False, talk_hidden=False
    )
    page = signed_in.get(reverse("social:friends")).content.decode()
    assert "at a table" not in page and "pablo" in page


def test_invite_to_my_room_sends_the_rooms_invitation_in_one_click(signed_in, player, friend):
    befriend(player, friend)
    assert "Invite to my room" not in signed_in.get(reverse("social:friends")).content.decode()
    response = signed_in.post(reverse("social:invite"), {"username": "pablo"}, **HTMX)
    assert (
        response.status_code == 200
        and "Create a room with friends first" in response.content.decode()
    )
    room = games.table_create_friends(user=player)
    assert "Invite to my room" in signed_in.get(reverse("social:friends")).content.decode()
    response = signed_in.post(reverse("social:invite"), {"username": "pablo"}, **HTMX)
    assert "pablo is invited to your room." in response.content.decode()
    assert Invitation.objects.filter(table=room, to_user=friend).exists()
    again = signed_in.post(reverse("social:invite"), {"username": "pablo"}, **HTMX)
    assert again.status_code == 200 and "already been invited" in again.content.decode()


def test_only_friends_are_invited_from_the_friends_page(signed_in, player, other):
    games.table_create_friends(user=player)
    response = signed_in.post(reverse("social:invite"), {"username": "olga"}, **HTMX)
    assert response.status_code == 200
    assert "You are not friends with this player." in response.content.decode()
    assert not Invitation.objects.exists()


def test_block_from_the_profile_page_and_unblock(signed_in, player, friend):
    profile = signed_in.get(reverse("profile", args=["pablo"])).content.decode()
    assert "Block pablo" in profile and "Add as a friend" in profile
    response = signed_in.post(
        reverse("social:block"), {"username": "pablo", "next": "/u/pablo/"}, follow=True
    )
    html = response.content.decode()
    assert "pablo is blocked." in html and "Unblock pablo" in html
    assert Block.objects.filter(blocker=player, blocked=friend).exists()
    signed_in.post(reverse("social:unblock"), {"username": "pablo"})
    assert not Block.objects.exists()


def test_blocking_asks_first_on_a_page_that_works_without_javascript(signed_in, player, friend):
    befriend(player, friend)
    # Every Block leads to the confirmation (a GET form), none blocks at once.
    page = signed_in.get(reverse("social:friends")).content.decode()
    assert 'method="post" action="/friends/block/"' not in page
    assert page.count('<form method="get" action="/friends/block/">') == 2  # a row, by name
    profile = signed_in.get(reverse("profile", args=["pablo"])).content.decode()
    assert '<form method="get" action="/friends/block/">' in profile
    # Block is a danger, Remove a secondary: they no longer look the same.
    assert 'class="button-danger" aria-label="Block pablo"' in page
    assert 'class="button-secondary" aria-label="Remove pablo"' in page
    confirm = signed_in.get(reverse("social:block"), {"username": "PABLO", "next": "/u/pablo/"})
    html = confirm.content.decode()
    assert confirm.status_code == 200 and "Block pablo?" in html
    assert '<input type="hidden" name="username" value="pablo">' in html
    assert 'class="button-danger button-danger-solid">Block pablo</button>' in html
    assert '<a class="button button-secondary" href="/u/pablo/">Cancel</a>' in html
    assert not Block.objects.exists()  # asking blocks nobody
    # A `next` elsewhere than this site is not offered; a name that is no player is said.
    away = signed_in.get(
        reverse("social:block"), {"username": "pablo", "next": "https://x.example/"}
    )
    assert 'href="/friends/"' in away.content.decode()
    unknown = signed_in.get(reverse("social:block"), {"username": "<i>nadie</i>"})
    assert unknown.status_code == 404
    assert (
        "“&lt;i&gt;nadie&lt;/i&gt;”: There is no player with that name." in unknown.content.decode()
    )
    # Confirmed: blocked, and back where the player was.
    done = signed_in.post(reverse("social:block"), {"username": "pablo", "next": "/u/pablo/"})
    assert done["Location"] == "/u/pablo/" and Block.objects.filter(blocked=friend).exists()


def test_ones_own_profile_has_no_block_button(signed_in):
    assert "Block ana" not in signed_in.get(reverse("profile", args=["ana"])).content.decode()


def test_the_privacy_form_saves_and_refuses_a_made_up_choice(signed_in, player):
    response = signed_in.post(
        reverse("social:privacy"), {"requests_from": "nobody", "talk_hidden": "on"}, **HTMX
    )
    assert "Settings saved." in response.content.decode()
    saved = selectors.privacy_of(player.pk)
    assert (saved.requests_from, saved.show_table, saved.talk_hidden) == ("nobody", False, True)
    response = signed_in.post(reverse("social:privacy"), {"requests_from": "friends"}, **HTMX)
    assert response.status_code == 200
    assert selectors.privacy_of(player.pk).requests_from == "nobody"

"""Following a friend to their table (`/friends/<username>/watch/`) and the friends
page's "Watch" (docs/watching.md, "Pages")."""

from __future__ import annotations

import pytest
from django.urls import reverse

from games import services as games
from games.models import BotLevel, RuleSetName, Table
from social.models import Privacy
from tests.social.conftest import befriend
from tests.watching import online_table, stake_table

pytestmark = pytest.mark.django_db

HTMX = {"HTTP_HX_REQUEST": "true"}


def follow_url(name: str) -> str:
    return reverse("social:follow", kwargs={"username": name})


def reason_of(response) -> str:
    text = response.content.decode()
    assert 'data-testid="follow-reason"' in text, text[:500]
    return text


def test_a_friend_at_an_online_table_takes_you_there_following_them(
    signed_in, player, friend, make_user
):
    befriend(player, friend)
    table = online_table(make_user, "on", friend)
    response = signed_in.get(follow_url("pablo"))
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[table.pk]) + "?follow=pablo"
    page = signed_in.get(response["Location"])
    assert page.status_code == 200
    assert 'data-follow="pablo"' in page.content.decode()


def test_the_htmx_poll_is_sent_to_the_table_when_the_friend_sits(
    signed_in, player, friend, make_user
):
    befriend(player, friend)
    waiting = signed_in.get(follow_url("pablo"), **HTMX)
    assert waiting.status_code == 200 and 'data-reason="not_playing"' in waiting.content.decode()
    table = online_table(make_user, "on", friend)
    response = signed_in.get(follow_url("pablo"), **HTMX)
    assert response.status_code == 204
    assert response["HX-Redirect"] == reverse("games:table", args=[table.pk]) + "?follow=pablo"


def test_a_friend_not_playing_gives_a_page_that_polls(signed_in, player, friend):
    befriend(player, friend)
    response = signed_in.get(follow_url("pablo"))
    text = reason_of(response)
    assert response.status_code == 200
    assert "is not playing now" in text
    assert f'hx-get="{follow_url("pablo")}"' in text and 'hx-trigger="every 5s"' in text


def test_the_poll_answers_its_region_only(signed_in, player, friend):
    befriend(player, friend)
    text = signed_in.get(follow_url("pablo"), **HTMX).content.decode()
    assert text.lstrip().startswith('<section id="follow"') and "<html" not in text


def test_someone_who_is_not_a_friend_is_not_followed(signed_in, friend, make_user):
    online_table(make_user, "on", friend)
    response = signed_in.get(follow_url("pablo"))
    assert response.status_code == 404
    assert "not one of your friends" in reason_of(response)
    assert "hx-trigger" not in response.content.decode()


@pytest.mark.parametrize(
    "name",
    [
        "nobody",
        "ana",  # yourself
        "x" * 151,
        "x" * 5000,
        "a b",
        "%00",
        "<img src=x onerror=alert(1)>",
        "pablo'--",
        "ñandú",
        "..",
        "\u200b",
    ],
)
def test_bad_usernames_get_the_same_clear_page(signed_in, player, friend, name):
    befriend(player, friend)
    response = signed_in.get(follow_url(name))
    assert response.status_code == 404
    text = reason_of(response)
    assert "not one of your friends" in text and "<img src=x" not in text


@pytest.mark.parametrize("path", ["pa%00blo", "pa%2Fblo", "%2F", "pa%ZZblo", "%C0%AF"])
def test_malformed_addresses_are_never_a_server_error(signed_in, player, friend, path):
    befriend(player, friend)
    response = signed_in.get(f"/friends/{path}/watch/")
    assert response.status_code in (400, 404)


def test_a_name_typed_in_another_case_or_with_spaces_means_the_friend(signed_in, player, friend):
    befriend(player, friend)
    for name in ("PABLO", " pablo "):
        response = signed_in.get(follow_url(name))
        assert response.status_code == 200 and "pablo is not playing now" in reason_of(response)


def test_a_friend_who_keeps_their_table_to_themselves_is_not_followed(
    signed_in, player, friend, make_user
):
    befriend(player, friend)
    Privacy.objects.create(user=friend, show_table=False)
    online_table(make_user, "on", friend)
    response = signed_in.get(follow_url("pablo"))
    assert response.status_code == 403
    assert "keeps where they play to themselves" in reason_of(response)


def test_a_friend_at_a_table_nobody_may_watch_is_not_followed(signed_in, player, friend):
    befriend(player, friend)
    games.table_create_practice(user=friend, rules=RuleSetName.ONLINE, bot_level=BotLevel.EASY)
    response = signed_in.get(follow_url("pablo"))
    assert response.status_code == 403
    assert "at a table nobody may watch" in reason_of(response)


def test_a_friend_at_a_table_that_forbids_watchers_is_not_followed(
    signed_in, player, friend, make_user
):
    befriend(player, friend)
    stake_table(make_user, "st", friend, forbid=True)
    response = signed_in.get(follow_url("pablo"))
    assert response.status_code == 403
    assert "do not let anyone watch it" in reason_of(response)


def test_you_cannot_follow_while_playing_a_match_of_your_own(signed_in, player, friend, make_user):
    befriend(player, friend)
    online_table(make_user, "on", friend)
    games.table_create_practice(user=player, rules=RuleSetName.ONLINE, bot_level=BotLevel.EASY)
    response = signed_in.get(follow_url("pablo"))
    assert response.status_code == 403
    assert "playing a match of your own" in reason_of(response)


def test_a_friend_at_your_own_table_takes_you_to_your_seat(signed_in, player, friend, make_user):
    befriend(player, friend)
    table = online_table(make_user, "on", player, friend)
    response = signed_in.get(follow_url("pablo"))
    assert response["Location"] == reverse("games:table", args=[table.pk])


def test_the_follow_page_needs_a_signed_in_user_and_a_get(client, signed_in):
    response = client.logout() or client.get(follow_url("pablo"))
    assert response.status_code == 302 and "login" in response["Location"]


def test_the_follow_page_takes_no_post(signed_in):
    assert signed_in.post(follow_url("pablo")).status_code == 405


# --- the friends page ------------------------------------------------------------------


def test_the_friends_page_shows_watch_beside_a_friend_at_a_table_you_may_watch(
    signed_in, player, friend, other, make_user
):
    befriend(player, friend)
    befriend(player, other)
    online_table(make_user, "on", friend)
    games.table_create_practice(user=other, rules=RuleSetName.ONLINE, bot_level=BotLevel.EASY)
    text = signed_in.get(reverse("social:friends")).content.decode()
    assert 'data-testid="watch-pablo"' in text and f'href="{follow_url("pablo")}"' in text
    assert 'data-testid="watch-olga"' not in text  # practice: nobody may watch


def test_no_watch_beside_a_friend_who_hides_their_table_or_at_a_forbidding_one(
    signed_in, player, friend, other, make_user
):
    befriend(player, friend)
    befriend(player, other)
    Privacy.objects.create(user=friend, show_table=False)
    online_table(make_user, "on", friend)
    stake_table(make_user, "st", other, forbid=True)
    assert Table.objects.filter(status="playing").count() == 2
    text = signed_in.get(reverse("social:friends")).content.decode()
    assert 'data-testid="watch-pablo"' not in text and 'data-testid="watch-olga"' not in text


def test_no_watch_while_you_play_a_match_of_your_own(signed_in, player, friend, make_user):
    befriend(player, friend)
    online_table(make_user, "on", friend)
    games.table_create_practice(user=player, rules=RuleSetName.ONLINE, bot_level=BotLevel.EASY)
    text = signed_in.get(reverse("social:friends")).content.decode()
    assert 'data-testid="watch-pablo"' not in text

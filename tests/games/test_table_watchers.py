"""The table page for watchers (docs/watching.md): the badge, the count, the watchers'
talk panel, following a friend, the refusals' page, and the room's "open to watch"."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.urls import reverse
from django.utils import translation

from games.frames.renderer_texts import table_strings
from games.models import BotLevel, RuleSetName, Seat, Table
from games.state import rebuild
from games.words.talk_phrases import PHRASES
from tests.games.conftest import live_match
from tests.games.hidden import leaks_in_html
from tests.watching import online_table, stake_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def watcher(client, spectator):
    client.force_login(spectator)
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"
    return client


@pytest.fixture
def watched(make_user):
    return online_table(make_user, "on")


def page(client, table, query: str = "") -> str:
    response = client.get(reverse("games:table", args=[table.pk]) + query)
    assert response.status_code == 200
    return response.content.decode()


def test_a_watcher_sees_the_badge_the_count_and_the_watchers_talk_panel(
    watcher, watched, monkeypatch
):
    monkeypatch.setattr("games.views.watchers_of", lambda ids: dict.fromkeys(ids, 3))
    text = page(watcher, watched)
    assert 'data-testid="watching-badge"' in text
    assert "3 watching" in text
    assert 'data-watcher="1"' in text and 'id="watch-log"' in text
    assert "Say to the other watchers" in text
    for phrase in PHRASES:
        assert f'data-phrase="{phrase}"' in text
    # Nothing of the players' own panel: no free text, no block or report list.
    assert 'id="talk-text"' not in text and 'id="talk-players"' not in text


def test_a_watchers_page_shows_no_card_of_a_hand_in_play(watcher, watched):
    state = rebuild(live_match(watched))
    assert not leaks_in_html(page(watcher, watched), state, None)


def test_a_player_sees_the_count_and_their_own_talk_panel_unchanged(client, watched, monkeypatch):
    client.force_login(Seat.objects.filter(table=watched).first().user)
    monkeypatch.setattr("games.views.watchers_of", lambda ids: dict.fromkeys(ids, 2))
    text = page(client, watched)
    assert 'data-testid="watchers-count"' in text and "watching" in text
    assert 'data-testid="watching-badge"' not in text
    assert 'id="watch-log"' not in text and 'data-watcher="1"' not in text
    assert 'id="talk-players"' in text


def test_the_talk_panel_offers_blocking_only_where_the_site_has_it(client, watched, monkeypatch):
    client.force_login(Seat.objects.filter(table=watched).first().user)
    assert f'data-block-url="{reverse("social:block")}"' in page(client, watched)
    monkeypatch.setattr("games.hooks._links", {})
    text = page(client, watched)
    assert "data-block-url" not in text and 'id="talk-players"' in text


def test_with_nobody_watching_a_players_count_is_hidden(client, watched):
    client.force_login(Seat.objects.filter(table=watched).first().user)
    text = page(client, watched)
    assert '<p class="watch-bar" id="watch-bar" hidden>' in text


def test_the_watcher_count_has_a_text_for_every_count_in_every_language():
    for language in ("en", "es", "fr", "it", "ko", "th"):
        with translation.override(language):
            texts = table_strings()["watching_n"]
        assert len(texts) == settings.WATCHERS_PER_TABLE + 1
        assert all("{n}" in text for text in texts), language
    with translation.override("en"):
        texts = table_strings()["watching_n"]
    assert texts[1] == "{n} watching"


def test_a_watcher_following_a_friend_carries_the_name_to_the_page(watcher, watched):
    text = page(watcher, watched, "?follow=pablo")
    assert 'data-follow="pablo"' in text
    assert f'data-follow-url="{reverse("social:follow", args=["pablo"])}"' in text


@pytest.mark.parametrize("value", ["", "a/b", "x" * 151, "pa\x00blo", "pa\nblo", "\x7f"])
def test_a_follow_name_the_follow_address_cannot_hold_is_ignored(watcher, watched, value):
    from urllib.parse import urlencode

    text = page(watcher, watched, "?" + urlencode({"follow": value}))
    assert "data-follow=" not in text


def test_a_follow_name_is_escaped(watcher, watched):
    text = page(watcher, watched, "?follow=%22%3E%3Cb%3E")
    assert '"><b>' not in text


def test_a_player_never_gets_the_follow_button(client, watched):
    client.force_login(Seat.objects.filter(table=watched).first().user)
    assert "data-follow=" not in page(client, watched, "?follow=pablo")


def test_a_finished_match_offers_a_follower_the_friends_next_table(watcher, watched):
    Table.objects.filter(pk=watched.pk).update(status="finished")
    text = page(watcher, watched, "?follow=pablo")
    assert 'data-testid="follow-next"' in text and "Watch pablo's next table" in text


def test_a_table_that_forbids_watchers_answers_a_page_naming_why(watcher, make_user):
    table = stake_table(make_user, "st", forbid=True)
    response = watcher.get(reverse("games:table", args=[table.pk]))
    assert response.status_code == 403
    text = response.content.decode()
    assert 'data-testid="watch-refusal"' in text and "do not let anyone watch" in text
    board = watcher.get(reverse("games:board", args=[table.pk]))
    assert board.status_code == 403


def test_a_watcher_playing_their_own_match_is_told_so(watcher, spectator, watched):
    from games import services

    services.table_create_practice(
        user=spectator, rules=RuleSetName.ONLINE, bot_level=BotLevel.EASY
    )
    response = watcher.get(reverse("games:table", args=[watched.pk]))
    assert response.status_code == 403
    assert "playing a match of your own" in response.content.decode()


def test_a_watcher_of_a_room_being_filled_gets_no_leave_button(watcher, player):
    from games import services

    room = services.table_create_friends(user=player)
    Table.objects.filter(pk=room.pk).update(open_to_watch=True)
    text = page(watcher, room)
    assert "Waiting for the creator to start the match." in text
    assert reverse("games:leave", args=[room.pk]) not in text.split('id="board"')[1]


def test_a_table_nobody_may_watch_is_still_a_404(watcher, started_room):
    assert watcher.get(reverse("games:table", args=[started_room.pk])).status_code == 404


# --- the room's "open to watch" ----------------------------------------------------------


def settings_post(client, room, data):
    return client.post(reverse("games:settings", args=[room.pk]), data, HTTP_HX_REQUEST="true")


@pytest.mark.parametrize(("value", "expected"), [("on", True), ("1", True), ("", False)])
def test_the_room_settings_open_the_room_to_watchers(client, player, room, value, expected):
    client.force_login(player)
    data = {"rules": "online", "bot_level": "easy"}
    if value:
        data["open_to_watch"] = value
    Table.objects.filter(pk=room.pk).update(open_to_watch=not expected)
    assert settings_post(client, room, data).status_code == 200
    assert Table.objects.get(pk=room.pk).open_to_watch is expected


@pytest.mark.parametrize("value", ["maybe", "2", "on on", "\x00"])
def test_a_bad_open_to_watch_is_a_form_error_and_changes_nothing(client, player, room, value):
    client.force_login(player)
    response = settings_post(
        client, room, {"rules": "classic", "bot_level": "hard", "open_to_watch": value}
    )
    assert response.status_code == 200 and 'role="alert"' in response.content.decode()
    table = Table.objects.get(pk=room.pk)
    assert (table.rules, table.open_to_watch) == (room.rules, False)


def test_the_room_settings_reach_the_service(client, player, room, monkeypatch):
    seen = {}

    def configure(**kwargs):
        seen.update(kwargs)
        return room

    monkeypatch.setattr("games.services.table_configure", configure)
    client.force_login(player)
    settings_post(client, room, {"rules": "online", "bot_level": "easy", "open_to_watch": "on"})
    assert seen["open_to_watch"] is True
    settings_post(client, room, {"rules": "online", "bot_level": "easy"})
    assert seen["open_to_watch"] is False


def test_the_room_shows_its_open_to_watch_box_as_saved(client, player, room):
    client.force_login(player)
    Table.objects.filter(pk=room.pk).update(open_to_watch=True)
    text = page(client, room)
    assert 'name="open_to_watch"' in text
    box = text[text.index('name="open_to_watch"') - 200 : text.index('name="open_to_watch"') + 200]
    assert "checked" in box

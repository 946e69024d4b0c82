""" "A friend started playing" (issue 46, off by default): told to the friends who
switched it on when a match starts, at most once a friend every
NOTIFICATIONS_FRIEND_PLAYING_HOURS, never about a player who hides where they play,
never to a friend in the same match; a failure never stops the match."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services as games
from notifications import kinds
from notifications import services as notifications
from notifications.models import Notification
from social import services
from tests.history.conftest import _game_settings  # noqa: F401 (bots off, caches clear)
from tests.social.conftest import befriend
from tests.threads import run_together

pytestmark = [pytest.mark.postgres]


def wants_it(user, on=True):
    notifications.settings_update(
        user=user,
        kinds_on=[kinds.FRIEND_PLAYING] if on else [],
        quiet_start=None,
        quiet_end=None,
        timezone_name="Europe/Madrid",
        push_per_hour=6,
    )


def told(user):
    return list(
        Notification.objects.filter(user=user, kind=kinds.FRIEND_PLAYING).values_list(
            "params", "link"
        )
    )


@pytest.mark.django_db
def test_a_friend_who_switched_it_on_hears_when_a_match_starts(
    player, friend, other, django_capture_on_commit_callbacks
):
    befriend(player, friend)
    befriend(player, other)
    wants_it(friend)  # olga keeps the default: off
    with django_capture_on_commit_callbacks(execute=True):
        games.table_create_practice(user=player, rules="online", bot_level="easy")
    assert told(friend) == [({"name": "ana", "friend": player.pk}, "/friends/ana/watch/")]
    assert told(other) == [] and told(player) == []


@pytest.mark.django_db
def test_it_is_said_once_a_friend_in_n_hours(player, friend, settings):
    settings.NOTIFICATIONS_FRIEND_PLAYING_HOURS = 6
    befriend(player, friend)
    wants_it(friend)
    start = timezone.now()
    assert services.friends_playing_notify(user_ids=[player.pk], now=start) == 1
    for later in (timedelta(minutes=1), timedelta(hours=5, minutes=59)):
        assert services.friends_playing_notify(user_ids=[player.pk], now=start + later) == 0
    assert len(told(friend)) == 1
    # told_lately reads the rows' own time: move the first one back past the window.
    Notification.objects.filter(user=friend).update(
        created_at=start - timedelta(hours=6, seconds=1)
    )
    assert (
        services.friends_playing_notify(user_ids=[player.pk], now=start + timedelta(hours=6)) == 1
    )
    assert len(told(friend)) == 2


@pytest.mark.django_db
def test_each_friend_is_counted_apart(player, friend, other):
    befriend(player, friend)
    befriend(other, friend)
    wants_it(friend)
    now = timezone.now()
    assert services.friends_playing_notify(user_ids=[player.pk], now=now) == 1
    assert services.friends_playing_notify(user_ids=[other.pk], now=now) == 1
    assert sorted(p["name"] for p, _link in told(friend)) == ["ana", "olga"]


@pytest.mark.django_db
def test_nothing_about_a_player_who_hides_where_they_play(player, friend):
    befriend(player, friend)
    wants_it(friend)
    services.privacy_update(
        user=player, requests_from="everyone", show_table=False, talk_hidden=False
    )
    assert services.friends_playing_notify(user_ids=[player.pk]) == 0
    assert told(friend) == []


@pytest.mark.django_db
def test_not_to_a_friend_in_the_same_match_nor_to_a_stranger(player, friend, other, make_user):
    befriend(player, friend)
    wants_it(friend)
    wants_it(other)  # no friend of ana's
    assert services.friends_playing_notify(user_ids=[player.pk, friend.pk]) == 0
    assert told(friend) == [] and told(other) == []


@pytest.mark.django_db
def test_a_friend_who_switched_it_off_again_or_closed_the_account_hears_nothing(
    player, friend, other
):
    befriend(player, friend)
    befriend(player, other)
    wants_it(friend)
    wants_it(friend, on=False)
    wants_it(other)
    other.is_active = False
    other.save(update_fields=["is_active"])
    assert services.friends_playing_notify(user_ids=[player.pk]) == 0


@pytest.mark.django_db
def test_a_failing_receiver_never_stops_the_match(
    player, friend, monkeypatch, django_capture_on_commit_callbacks, caplog
):
    befriend(player, friend)
    wants_it(friend)

    def broken(**kwargs):
        raise RuntimeError("down")

    monkeypatch.setattr("social.receivers.friends_playing_notify", broken)
    with django_capture_on_commit_callbacks(execute=True):
        table = games.table_create_practice(user=player, rules="online", bot_level="easy")
    table.refresh_from_db()
    assert table.status == "playing"
    assert told(friend) == [] and "match_started" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_two_starts_at_the_same_instant_tell_once(make_user):
    ana, pablo = make_user("ana"), make_user("pablo")
    befriend(ana, pablo)
    wants_it(pablo)
    now = timezone.now()
    results = run_together(2, lambda i: services.friends_playing_notify(user_ids=[ana.pk], now=now))
    assert sorted(results) == [0, 1], results
    assert len(told(pablo)) == 1

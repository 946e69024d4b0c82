"""The list, mark read (one, all; htmx or not), the bell, the settings and push
(un)subscribing: good inputs and bad, another player's notification, no queries."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from notifications import cached, kinds, services
from notifications.models import Notification, NotificationSettings, PushSubscription

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

HTMX = {"HTTP_HX_REQUEST": "true"}


@pytest.fixture
def signed_in(client, player):
    client.force_login(player)
    return client


def _send(user, key, kind=kinds.FRIEND_REQUEST, params=None, link="/friends/"):
    return services.notification_send(
        user=user, kind=kind, params=params or {"name": "pablo"}, link=link, dedup_key=key
    )


def test_the_pages_need_a_signed_in_player(client):
    for name in ("list", "settings", "bell"):
        response = client.get(reverse(f"notifications:{name}"))
        assert response.status_code == 302 and "login" in response["Location"]


def test_the_list_words_each_notification_in_the_readers_language(signed_in, player):
    _send(player, "1")
    page = signed_in.get(reverse("notifications:list"), HTTP_ACCEPT_LANGUAGE="es")
    text = page.content.decode()
    assert "pablo te ha enviado una solicitud de amistad." in text
    assert 'href="/friends/"' in text
    player.language = "en"
    player.save(update_fields=["language"])
    signed_in.cookies.load({"django_language": "en"})
    text = signed_in.get(reverse("notifications:list")).content.decode()
    assert "pablo sent you a friend request." in text


def test_marking_one_read_with_htmx_redraws_the_list(signed_in, player):
    first = _send(player, "1")
    _send(player, "2")
    response = signed_in.post(reverse("notifications:read", args=[first.pk]), **HTMX)
    assert response.status_code == 200
    assert 'id="notifications"' in response.content.decode()
    first.refresh_from_db()
    assert first.read_at is not None
    assert Notification.objects.filter(read_at__isnull=True).count() == 1


def test_marking_all_read_without_javascript_comes_back_to_the_list(signed_in, player):
    _send(player, "1")
    _send(player, "2")
    response = signed_in.post(reverse("notifications:read_all"))
    assert response.status_code == 302
    assert not Notification.objects.filter(read_at__isnull=True).exists()


@pytest.mark.parametrize("bad", ["abc", "-1", "0", "99999999", "1e3", "9" * 40, "%20"])
def test_bad_ids_in_the_mark_read_url_are_not_found(signed_in, player, bad):
    _send(player, "1")
    response = signed_in.post(f"/notifications/{bad}/read/")
    assert response.status_code == 404


def test_another_players_notification_is_not_found(signed_in, stranger):
    theirs = _send(stranger, "1")
    response = signed_in.post(reverse("notifications:read", args=[theirs.pk]), **HTMX)
    assert response.status_code == 404
    theirs.refresh_from_db()
    assert theirs.read_at is None


def test_mark_read_takes_posts_only(signed_in, player):
    mine = _send(player, "1")
    assert signed_in.get(reverse("notifications:read", args=[mine.pk])).status_code == 405
    assert signed_in.get(reverse("notifications:read_all")).status_code == 405


def test_a_notification_whose_table_is_gone_still_reads_and_links_to_the_lobby(signed_in, player):
    _send(
        player,
        "room",
        kind=kinds.ROOM_INVITATION,
        params={"name": "pablo", "table": 987654},
        link=reverse("games:lobby"),
    )
    text = signed_in.get(reverse("notifications:list")).content.decode()
    assert "pablo te ha invitado a su sala." in text
    assert signed_in.get(reverse("games:lobby")).status_code == 200


def test_a_notification_of_an_unknown_kind_reads_as_a_plain_line(signed_in, player):
    Notification.objects.create(user=player, kind="retired", params={}, dedup_key="x")
    page = signed_in.get(reverse("notifications:list"))
    assert "Tienes una notificación." in page.content.decode()


def test_the_bell_adds_no_query_to_a_page_once_its_count_is_cached(signed_in, player):
    _send(player, "1")  # the send caches the count after commit
    assert cached.cached_unread_count(player.pk) == 1
    url = reverse("how_to_play")
    signed_in.get(url)
    with CaptureQueriesContext(connection) as with_bell:
        page = signed_in.get(url)
    text = page.content.decode()
    assert 'id="nav-bell"' in text and "Notificaciones, 1 sin leer" in text
    cache.delete(cached.count_key(player.pk))
    with CaptureQueriesContext(connection) as without_count:
        page = signed_in.get(url)
    # Not cached: the same queries, and the bell asks for its count over HTTP.
    assert len(without_count) == len(with_bell)
    assert 'data-count-url="/notifications/count/"' in page.content.decode()
    assert "1 sin leer" in signed_in.get(reverse("notifications:bell")).content.decode()
    assert not any("notifications_notification" in q["sql"] for q in with_bell.captured_queries)


def test_the_settings_switch_kinds_off_and_set_quiet_hours(signed_in, player):
    response = signed_in.post(
        reverse("notifications:settings"),
        {
            "kinds_on": [kinds.ROOM_INVITATION, kinds.FRIEND_PLAYING],
            "quiet_start": "22:00",
            "quiet_end": "08:00",
            "timezone": "Asia/Seoul",
            "push_per_hour": "3",
        },
    )
    assert response.status_code == 302
    row = NotificationSettings.objects.get(user=player)
    assert row.kinds[kinds.FRIEND_PLAYING] is True and row.kinds[kinds.FRIEND_REQUEST] is False
    assert row.timezone == "Asia/Seoul" and row.push_per_hour == 3
    assert _send(player, "x") is None


@pytest.mark.parametrize(
    "bad",
    [
        {"kinds_on": ["nonsense"], "timezone": "Europe/Madrid", "push_per_hour": "3"},
        {"timezone": "Mars/Olympus", "push_per_hour": "3"},
        {"timezone": "Europe/Madrid", "push_per_hour": "-1"},
        {"timezone": "Europe/Madrid", "push_per_hour": "1000"},
        {"timezone": "Europe/Madrid", "push_per_hour": "3", "quiet_start": "25:99"},
    ],
)
def test_bad_settings_are_refused_and_nothing_is_saved(signed_in, player, bad):
    response = signed_in.post(reverse("notifications:settings"), bad)
    assert response.status_code == 200
    assert not NotificationSettings.objects.exists()


def test_a_browser_subscribes_and_unsubscribes(signed_in, player):
    body = {"endpoint": "https://push.example/abc", "keys": {"p256dh": "BKey", "auth": "secret"}}
    url = reverse("notifications:push_subscribe")
    assert signed_in.post(url, body, content_type="application/json").status_code == 201
    assert signed_in.post(url, body, content_type="application/json").status_code == 201
    assert PushSubscription.objects.get().user == player
    response = signed_in.post(
        reverse("notifications:push_unsubscribe"),
        {"endpoint": body["endpoint"]},
        content_type="application/json",
    )
    assert response.status_code == 200
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "bad",
    [
        b"not json",
        b"[]",
        b"{}",
        b'{"endpoint": "javascript:alert(1)", "keys": {"p256dh": "a", "auth": "b"}}',
        b'{"endpoint": "https://x", "keys": {"p256dh": "", "auth": "b"}}',
        b'{"endpoint": "https://x", "keys": "nope"}',
    ],
)
def test_a_bad_subscription_is_refused(signed_in, bad):
    response = signed_in.post(
        reverse("notifications:push_subscribe"), bad, content_type="application/json"
    )
    assert response.status_code == 400
    assert not PushSubscription.objects.exists()


def test_the_bell_says_how_often_it_reads_its_cached_count(signed_in, player, settings):
    settings.NOTIFICATIONS_BELL_POLL_SECONDS = 45
    _send(player, "1")
    text = signed_in.get(reverse("how_to_play")).content.decode()
    assert 'data-poll-url="/notifications/unread/" data-poll="45"' in text
    cache.delete(cached.count_key(player.pk))  # the bell without a count says it too
    assert 'data-poll="45"' in signed_in.get(reverse("how_to_play")).content.decode()


def test_the_unread_count_comes_from_the_cache_without_a_notifications_query(signed_in, player):
    _send(player, "1")
    _send(player, "2")
    with CaptureQueriesContext(connection) as cached_read:
        response = signed_in.get(reverse("notifications:unread"))
    assert response.json() == {"unread": 2} and response["Cache-Control"] == "no-store"
    assert not any("notifications_notification" in q["sql"] for q in cached_read.captured_queries)
    # Not cached (expired, a fresh cache): counted once, then cached again.
    cache.delete(cached.count_key(player.pk))
    with CaptureQueriesContext(connection) as counted:
        assert signed_in.get(reverse("notifications:unread")).json() == {"unread": 2}
    assert sum("notifications_notification" in q["sql"] for q in counted.captured_queries) == 1
    assert cached.cached_unread_count(player.pk) == 2
    services.notifications_read_all(user=player)
    assert signed_in.get(reverse("notifications:unread")).json() == {"unread": 0}


def test_the_unread_count_refuses_a_signed_out_visitor_and_posts(client, signed_in):
    assert signed_in.post(reverse("notifications:unread")).status_code == 405
    client.logout()
    response = client.get(reverse("notifications:unread"))
    assert response.status_code == 401 and response.json() == {"unread": None}

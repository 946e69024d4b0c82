"""notification_send and its readers: one row per dedup key, even from threads at
once; switches; read one or all; deleted users; the wired events."""

from __future__ import annotations

import pytest
from django.db import transaction
from django.urls import reverse

from notifications import cached, errors, kinds, services
from notifications.models import Notification, NotificationSettings
from tests.notifications.conftest import bare_user
from tests.threads import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _send(user, key="k1", kind=kinds.FRIEND_REQUEST):
    return services.notification_send(
        user=user, kind=kind, params={"name": "pablo"}, link="/friends/", dedup_key=key
    )


def test_a_notification_is_stored_with_its_params_never_its_sentence(player):
    sent = _send(player)
    assert sent is not None
    row = Notification.objects.get()
    assert row.params == {"name": "pablo"}
    assert kinds.sentence(row.kind, row.params) == "pablo te ha enviado una solicitud de amistad."


def test_two_events_for_one_notification_at_once_make_one_row(player):
    def work(_: int):
        with transaction.atomic():
            return _send(player, key="same")

    results = run_together(6, work)
    assert sum(1 for r in results if isinstance(r, Notification)) == 1
    assert all(r is None or isinstance(r, Notification) for r in results)
    assert Notification.objects.filter(user=player).count() == 1


def test_a_kind_switched_off_sends_nothing_and_the_optional_kind_is_off_by_default(player):
    assert _send(player, key="a", kind=kinds.FRIEND_PLAYING) is None
    NotificationSettings.objects.create(user=player, kinds={kinds.FRIEND_REQUEST: False})
    assert _send(player, key="b") is None
    assert not Notification.objects.exists()


def test_an_unknown_kind_is_refused(player):
    with pytest.raises(errors.UnknownKind):
        _send(player, kind="nonsense")


def test_the_unread_count_is_cached_after_commit_and_follows_reads(player):
    first = _send(player, key="1")
    _send(player, key="2")
    assert cached.cached_unread_count(player.pk) == 2
    services.notification_read(user=player, notification_id=first.pk)
    assert cached.cached_unread_count(player.pk) == 1
    assert services.notifications_read_all(user=player) == 1
    assert cached.cached_unread_count(player.pk) == 0


def test_another_users_notification_cannot_be_marked_read(player, stranger):
    mine = _send(player)
    with pytest.raises(errors.NotificationNotFound):
        services.notification_read(user=stranger, notification_id=mine.pk)


def test_a_deleted_users_notifications_go_with_them(player):
    gone = bare_user("gone")
    _send(gone)
    _send(player)
    gone.delete()
    assert list(Notification.objects.values_list("user_id", flat=True)) == [player.pk]


def test_a_notification_about_a_deleted_player_still_reads(player):
    sender = bare_user("pablo")
    _send(player)
    sender.delete()
    row = Notification.objects.get()
    assert "pablo" in kinds.sentence(row.kind, row.params)


def test_the_bulk_send_creates_each_once_and_skips_switched_off_players(make_user):
    users = [make_user(f"u{i}") for i in range(5)]
    NotificationSettings.objects.create(user=users[0], kinds={kinds.LEAGUE_RESULT: False})
    items = [
        services.Outgoing(u.pk, kinds.LEAGUE_RESULT, {"division": 2, "movement": 1}, "/", "w1")
        for u in users
    ]
    with transaction.atomic():
        assert services.notifications_send_many(items) == 4
    with transaction.atomic():
        services.notifications_send_many(items)
    assert Notification.objects.count() == 4
    assert cached.cached_unread_count(users[1].pk) == 1


def test_a_friend_request_and_its_acceptance_notify(player, stranger):
    from social import services as social

    request = social.friend_request_send(user=player, username="zoe")
    assert Notification.objects.get(user=stranger).kind == kinds.FRIEND_REQUEST
    social.friend_request_accept(user=stranger, request_id=request.pk)
    accepted = Notification.objects.get(user=player)
    assert accepted.kind == kinds.FRIEND_ACCEPTED
    assert accepted.link == reverse("profile", kwargs={"username": "zoe"})


def test_a_closed_report_tells_the_reporter(player, stranger, staff_user):
    from accounts import services as accounts

    report = accounts.report_create(reporter=player, reported=stranger, reason="abuse", text="x")
    accounts.report_close(report=report, staff_user=staff_user, note="warned")
    row = Notification.objects.get(user=player)
    assert row.kind == kinds.REPORT_HANDLED
    assert row.params == {"name": "zoe"}


@pytest.mark.parametrize(
    ("params", "english"),
    [
        (
            {"division": 3, "movement": 1, "prize": 1},
            "promoted to Gold. You won a prize of 1 coin.",
        ),
        ({"division": 1, "movement": -1, "prize": 0}, "relegated to Bronze."),
        (
            {"division": 2, "movement": 0, "prize": 250},
            "stay in Silver. You won a prize of 250 coins.",
        ),
    ],
)
def test_the_league_sentence_says_the_move_and_the_prize_with_plurals(params, english):
    from django.utils import translation

    with translation.override("en"):
        assert kinds.sentence(kinds.LEAGUE_RESULT, params).endswith(english)

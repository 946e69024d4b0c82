"""Web Push end to end against a fake push service on loopback: the payload is
decrypted (aes128gcm, with the subscription's private key the test made) and the
VAPID JWT's signature checked; expired subscriptions go; quiet hours and the
hourly cap hold; VAPID keys are made once and kept."""

from __future__ import annotations

import base64
import json
import os
import secrets
import time as clock
from datetime import UTC, datetime, time

import http_ece
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.cache import cache

from notifications import kinds, push, services, tasks
from notifications.models import NotificationSettings, PushSubscription
from tests.notifications.fake_push import FakePushService, verified_vapid_claims

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@pytest.fixture(autouse=True)
def vapid_key_file(settings, tmp_path):
    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_KEY_FILE = str(tmp_path / "vapid.pem")
    settings.VAPID_SUBJECT = "mailto:ops@cuatrola.example"
    push.vapid.cache_clear()
    cache.clear()
    yield
    push.vapid.cache_clear()


@pytest.fixture
def browser_keys():
    private = ec.generate_private_key(ec.SECP256R1())
    public = private.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return private, b64url(public), secrets.token_bytes(16)


def _subscribe(user, origin, browser_keys, name="a"):
    _, p256dh, auth = browser_keys
    return services.push_subscribe(
        user=user, endpoint=f"{origin}/push/{name}", p256dh=p256dh, auth=b64url(auth)
    )


def _send(user, key="k"):
    return services.notification_send(
        user=user,
        kind=kinds.FRIEND_REQUEST,
        params={"name": "pablo"},
        link="/friends/",
        dedup_key=key,
    )


def test_a_push_reaches_the_fake_service_encrypted_and_signed(player, browser_keys):
    private, _, auth = browser_keys
    with FakePushService() as service:
        _subscribe(player, service.origin, browser_keys)
        _send(player)
    assert len(service.received) == 1
    got = service.received[0]
    assert got["path"] == "/push/a"
    assert got["headers"]["content-encoding"] == "aes128gcm"
    assert int(got["headers"]["ttl"]) > 0
    plain = http_ece.decrypt(
        got["body"], private_key=private, auth_secret=auth, version="aes128gcm"
    )
    data = json.loads(plain)
    assert data["body"] == "pablo te ha enviado una solicitud de amistad."
    assert data["url"] == "/friends/"
    assert data["title"] == "Cuatrola Online"
    body, key = verified_vapid_claims(got["headers"])  # ES256, raises if the signature is bad
    assert key == push.public_key()
    assert body["aud"] == service.origin
    assert body["sub"] == "mailto:ops@cuatrola.example"
    assert body["exp"] > clock.time()


def test_the_push_speaks_the_players_language(player, browser_keys):
    private, _, auth = browser_keys
    player.language = "ko"
    player.save(update_fields=["language"])
    with FakePushService() as service:
        _subscribe(player, service.origin, browser_keys)
        _send(player)
    plain = http_ece.decrypt(
        service.received[0]["body"], private_key=private, auth_secret=auth, version="aes128gcm"
    )
    assert json.loads(plain)["body"] == "pablo님이 친구 요청을 보냈습니다."


@pytest.mark.parametrize("status", [404, 410])
def test_a_subscription_the_push_service_says_is_gone_is_deleted(player, browser_keys, status):
    with FakePushService() as service:
        service.status = status
        _subscribe(player, service.origin, browser_keys)
        _send(player)
    assert len(service.received) == 1
    assert not PushSubscription.objects.exists()


def test_a_push_service_error_keeps_the_subscription(player, browser_keys):
    with FakePushService() as service:
        service.status = 500
        _subscribe(player, service.origin, browser_keys)
        _send(player)
    assert PushSubscription.objects.count() == 1


def test_no_push_in_quiet_hours_and_none_over_the_hourly_cap(player, browser_keys):
    now = datetime.now(UTC)
    row = NotificationSettings.objects.create(
        user=player,
        timezone="UTC",
        quiet_start=time((now.hour - 1) % 24),
        quiet_end=time((now.hour + 2) % 24),
        push_per_hour=2,
    )
    with FakePushService() as service:
        _subscribe(player, service.origin, browser_keys)
        _send(player, "quiet")
        assert service.received == []
        row.quiet_start = row.quiet_end = None
        row.save()
        for key in ("1", "2", "3", "4"):
            _send(player, key)
    assert len(service.received) == 2


def test_quiet_hours_wrap_midnight_in_the_players_time_zone():
    row = NotificationSettings(quiet_start=time(22), quiet_end=time(8), timezone="Asia/Seoul")
    assert push.in_quiet_hours(row, datetime(2026, 1, 1, 14, 30, tzinfo=UTC))  # 23:30 Seoul
    assert push.in_quiet_hours(row, datetime(2026, 1, 1, 22, 0, tzinfo=UTC))  # 07:00
    assert not push.in_quiet_hours(row, datetime(2026, 1, 1, 3, 0, tzinfo=UTC))  # 12:00
    row.timezone = "Not/AZone"  # the default zone, no error
    assert push.in_quiet_hours(row, datetime(2026, 1, 1, 22, 0, tzinfo=UTC)) in (True, False)


def test_every_browser_of_the_player_gets_the_push_and_nobody_elses(player, stranger, make_user):
    with FakePushService() as service:
        a = ec.generate_private_key(ec.SECP256R1())
        for name, user in (("one", player), ("two", player), ("three", stranger)):
            pub = a.public_key().public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
            services.push_subscribe(
                user=user,
                endpoint=f"{service.origin}/push/{name}",
                p256dh=b64url(pub),
                auth=b64url(secrets.token_bytes(16)),
            )
        _send(player)
    assert sorted(r["path"] for r in service.received) == ["/push/one", "/push/two"]


def test_a_player_without_a_subscription_gets_no_push_and_no_error(player):
    assert tasks.push_send([_send(player).pk]) == {"sent": 0, "skipped": 1, "dropped": 0}


def test_the_vapid_key_is_made_once_and_kept(settings):
    first = push.public_key()
    path = settings.VAPID_KEY_FILE
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"
    push.vapid.cache_clear()
    assert push.public_key() == first
    assert len(unb64url(first)) == 65


def test_vapid_keys_from_the_environment_win(settings, tmp_path):
    from py_vapid import Vapid01

    key = Vapid01()
    key.generate_keys()
    settings.VAPID_PRIVATE_KEY = key.private_pem().decode()
    push.vapid.cache_clear()
    raw = key.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    assert push.public_key() == b64url(raw)
    assert not os.path.exists(settings.VAPID_KEY_FILE)

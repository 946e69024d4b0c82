"""Every sign-in is recorded with its network and device, hashed; the device cookie is
set once and kept (docs/moderation.md, "Linked accounts")."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.contrib.auth import login
from django.contrib.auth.models import AnonymousUser
from django.contrib.sessions.middleware import SessionMiddleware
from django.http import HttpResponse

from accounts.links import device_key, network_key, network_of
from accounts.models import SignIn
from accounts.services import user_ban

LOGIN_URL = "/accounts/login/"
SIGNUP_URL = "/accounts/signup/"
COOKIE = settings.DEVICE_COOKIE_NAME

pytestmark = pytest.mark.django_db


def log_in(client, password, login="ana", **headers):
    return client.post(LOGIN_URL, {"login": login, "password": password}, **headers)


def test_a_log_in_records_the_network_and_the_device_hashed(client, player, password):
    response = log_in(client, password, REMOTE_ADDR="198.51.100.7")
    assert response.status_code == 302
    sign_in = SignIn.objects.get(user=player)
    device_id = response.cookies[COOKIE].value
    assert sign_in.network == network_key("198.51.100.7")
    assert sign_in.device == device_key(device_id)
    stored = " ".join(str(v) for v in SignIn.objects.values_list().get(pk=sign_in.pk))
    assert "198.51.100.7" not in stored and device_id not in stored
    assert len(sign_in.network) == len(sign_in.device) == 64


def test_the_device_cookie_is_first_party_http_only_lax_and_long_lived(client, player, password):
    cookie = log_in(client, password).cookies[COOKIE]
    assert cookie["httponly"] and cookie["samesite"] == "Lax" and cookie["path"] == "/"
    assert not cookie["domain"]  # this host only
    assert int(cookie["max-age"]) == settings.DEVICE_COOKIE_DAYS * 86400
    assert not cookie["secure"]  # the tests run over plain HTTP


def test_under_https_the_device_cookie_is_secure(client, player, password, settings):
    settings.SESSION_COOKIE_SECURE = True
    assert log_in(client, password).cookies[COOKIE]["secure"]


def test_the_device_cookie_is_set_once_and_every_later_sign_in_reuses_it(client, player, password):
    first = log_in(client, password).cookies[COOKIE].value
    client.post("/accounts/logout/")
    again = log_in(client, password)
    assert again.cookies[COOKIE].value == first  # the same id, its expiry renewed
    devices = set(SignIn.objects.filter(user=player).values_list("device", flat=True))
    assert devices == {device_key(first)} and SignIn.objects.filter(user=player).count() == 2


def test_pages_other_than_a_sign_in_set_no_device_cookie(client, player):
    assert COOKIE not in client.get("/").cookies
    client.force_login(player)
    assert COOKIE not in client.get("/").cookies


@pytest.mark.parametrize("forged", ["", "short", "x" * 33, "a" * 31 + "!", "ñ" * 32])
def test_a_malformed_device_cookie_is_replaced(client, player, password, forged):
    client.cookies[COOKIE] = forged
    made = log_in(client, password).cookies[COOKIE].value
    assert made != forged and len(made) == 32
    assert SignIn.objects.get(user=player).device == device_key(made)


def test_the_sign_in_after_a_sign_up_is_recorded(client, password):
    response = client.post(
        SIGNUP_URL,
        {
            "username": "nuevo",
            "email": "nuevo@example.com",
            "password1": password,
            "password2": password,
        },
        REMOTE_ADDR="2001:db8::1",
    )
    assert response.status_code == 302
    sign_in = SignIn.objects.get(user__username="nuevo")
    assert sign_in.network == network_key("2001:db8::ffff")  # the same /64
    assert sign_in.device == device_key(response.cookies[COOKIE].value)


def test_a_failed_or_banned_log_in_records_nothing(client, player, password, moderator):
    log_in(client, "wrong-password")
    user_ban(user=player, staff_user=moderator, reason="abuse")
    assert log_in(client, password).status_code == 403
    assert not SignIn.objects.exists()
    assert COOKIE not in client.cookies


def test_behind_the_proxy_the_network_is_the_client_address_the_proxy_wrote(
    client, player, password, settings
):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    log_in(client, password, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR="1.2.3.4, 203.0.113.9")
    assert SignIn.objects.get().network == network_key("203.0.113.9")


@pytest.mark.parametrize(
    ("trusted", "headers", "network"),
    [
        (1, {"HTTP_X_FORWARDED_FOR": "not an address"}, "10.0.0.2"),
        (2, {"HTTP_X_FORWARDED_FOR": "203.0.113.9"}, "10.0.0.2"),  # shorter than the proxies
        (1, {"HTTP_X_FORWARDED_FOR": ",,,"}, "10.0.0.2"),
        (1, {"HTTP_X_FORWARDED_FOR": "x" * 5000}, "10.0.0.2"),
        (1, {}, "10.0.0.2"),
        (0, {"REMOTE_ADDR": ""}, None),
        (0, {"REMOTE_ADDR": "unix:/run/daphne.sock"}, None),
    ],
)
def test_bad_or_absent_address_headers_never_break_the_sign_in(
    rf, player, settings, trusted, headers, network
):
    """Django's `login()` with whatever headers (allauth's own limits refuse some of
    these requests before: the recording must never be what breaks a sign-in)."""
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = trusted
    request = rf.post(LOGIN_URL, **{"REMOTE_ADDR": "10.0.0.2", **headers})
    SessionMiddleware(lambda r: HttpResponse()).process_request(request)
    request.user = AnonymousUser()
    login(request, player, backend="django.contrib.auth.backends.ModelBackend")
    assert request.user == player
    assert SignIn.objects.get().network == (network_key(network) if network else "")


def test_a_comma_only_forwarded_header_signs_in_from_the_peers_network(
    client, player, password, settings
):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    response = log_in(client, password, REMOTE_ADDR="10.0.0.2", HTTP_X_FORWARDED_FOR=",,,")
    assert response.status_code == 302
    assert SignIn.objects.get().network == network_key("10.0.0.2")


def test_a_sign_in_without_a_request_address_records_the_device_alone(client, player):
    client.force_login(player)  # Django's test log-in: a bare request, no address
    sign_in = SignIn.objects.get(user=player)
    assert sign_in.network == "" and len(sign_in.device) == 64


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        ("2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff", True),  # one /64
        ("2001:db8:1:2::1", "2001:db8:1:3::1", False),
        ("::ffff:198.51.100.7", "198.51.100.7", True),  # IPv4-mapped
        ("198.51.100.7", "198.51.100.8", False),  # IPv4: the whole address
        (" 198.51.100.7 ", "198.51.100.7", True),
    ],
)
def test_ipv6_addresses_count_by_their_64_and_ipv4_by_the_whole_address(a, b, same):
    assert (network_key(a) == network_key(b)) is same
    assert network_key(a) != ""


@pytest.mark.parametrize("bad", [None, "", "example.com", "300.1.1.1", "1.2.3.4/24", "x" * 100])
def test_what_is_not_an_address_has_no_network(bad):
    assert network_of(bad) is None and network_key(bad) == ""


def test_the_stored_hashes_depend_on_the_secret(settings):
    before = network_key("198.51.100.7"), device_key("a" * 32)
    settings.LINKED_ACCOUNTS_SECRET = "another-secret-of-at-least-32-characters"
    assert network_key("198.51.100.7") != before[0] and device_key("a" * 32) != before[1]

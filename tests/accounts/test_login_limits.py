"""Log-in limits an attacker cannot sidestep: the admin's log-in page, and per-address
limits keyed on the client address the trusted proxies saw (TRUSTED_PROXY_COUNT)."""

from __future__ import annotations

import logging

import pytest

LOGIN_URL = "/accounts/login/"
SIGNUP_URL = "/accounts/signup/"
PROXY = "10.0.0.2"  # the deployment's own reverse proxy
CLIENT = "203.0.113.9"  # the attacker, as the proxy saw them

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _hourly_windows(settings):
    """allauth's limits per hour rather than per minute: a loaded machine that takes
    over a minute for these requests must not see a window end mid-test."""
    settings.ACCOUNT_RATE_LIMITS = {
        "login": "30/h/ip",
        "login_failed": "10/h/ip,5/h/key",
        "signup": "20/h/ip",
    }


def _too_many(response) -> bool:
    if response.status_code == 429:
        return True
    form = response.context and response.context.get("form")
    return bool(form) and any("Demasiados" in e for e in form.non_field_errors())


def _spoofed(index: int) -> str:
    """What the attacker's request carries once the proxy has appended their address."""
    return f"198.51.100.{index % 250}, {CLIENT}"


def test_the_admin_log_in_page_never_checks_a_password_itself(client, staff_user, password):
    response = client.post(
        "/admin/login/?next=/admin/", {"username": "staffer", "password": password}
    )
    assert response.status_code == 302
    assert response["Location"].startswith(LOGIN_URL)
    assert "_auth_user_id" not in client.session


def test_thirty_wrong_admin_passwords_lock_the_account_and_are_logged(
    client, staff_user, password, caplog
):
    caplog.set_level(logging.WARNING, logger="cuatrola.security")
    for attempt in range(30):
        client.post(f"{LOGIN_URL}?next=/admin/", {"login": "staffer", "password": f"x{attempt}"})
    response = client.post(f"{LOGIN_URL}?next=/admin/", {"login": "staffer", "password": password})
    assert _too_many(response)
    assert "_auth_user_id" not in client.session
    locked = [r for r in caplog.records if r.name == "cuatrola.security"]
    assert locked and "staffer" in locked[0].getMessage()
    assert "127.0.0.1" in locked[0].getMessage()


def test_the_admin_opens_after_a_good_log_in(client, staff_user, password):
    response = client.post(f"{LOGIN_URL}?next=/admin/", {"login": "staffer", "password": password})
    assert response["Location"] == "/admin/"
    assert client.get("/admin/").status_code == 200


@pytest.mark.parametrize("trusted", [0, 1])
def test_a_spoofed_forwarded_for_does_not_escape_the_failed_log_in_limit(
    client, make_user, settings, trusted
):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = trusted
    for index in range(12):
        make_user(f"victim{index}")
    answers = [
        client.post(
            LOGIN_URL,
            {"login": f"victim{index}", "password": "wrong"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR=_spoofed(index),
        )
        for index in range(12)
    ]
    assert not any(_too_many(a) for a in answers[:10])
    assert all(_too_many(a) for a in answers[10:])


def test_behind_one_trusted_proxy_each_client_has_its_own_limit(client, make_user, settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    for index in range(11):
        make_user(f"victim{index}")
    for index in range(10):
        client.post(
            LOGIN_URL,
            {"login": f"victim{index}", "password": "wrong"},
            REMOTE_ADDR=PROXY,
            HTTP_X_FORWARDED_FOR=CLIENT,
        )
    neighbour = client.post(
        LOGIN_URL,
        {"login": "victim10", "password": "wrong"},
        REMOTE_ADDR=PROXY,
        HTTP_X_FORWARDED_FOR="192.0.2.77",
    )
    assert not _too_many(neighbour)


def test_a_spoofed_forwarded_for_does_not_escape_the_sign_up_limit(client, settings):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    answers = []
    for index in range(21):
        answers.append(
            client.post(
                SIGNUP_URL,
                {
                    "username": f"farm{index}",
                    "email": f"farm{index}@example.com",
                    "password1": "a-Long-and-unusual-passphrase-42",
                    "password2": "a-Long-and-unusual-passphrase-42",
                },
                REMOTE_ADDR=PROXY,
                HTTP_X_FORWARDED_FOR=_spoofed(index),
            )
        )
        client.logout()
    assert not any(_too_many(a) for a in answers[:20])
    assert answers[20].status_code == 429
    assert "Demasiados intentos" in answers[20].content.decode()

from datetime import timedelta

import pytest
from django.utils import formats, timezone

from accounts.services import user_ban, user_unban

LOGIN_URL = "/accounts/login/"


@pytest.mark.django_db
def test_a_banned_login_is_refused_with_the_end_date_shown(client, player, moderator, password):
    until = timezone.now() + timedelta(days=3)
    user_ban(user=player, staff_user=moderator, reason="abuse", until=until)
    response = client.post(LOGIN_URL, {"login": "ana", "password": password})
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session
    shown = formats.date_format(timezone.localtime(until), "DATETIME_FORMAT")
    body = response.content.decode()
    assert shown in body
    assert "Tu cuenta está suspendida" in body


@pytest.mark.django_db
def test_a_login_refused_for_a_ban_without_end_says_so(client, player, moderator, password):
    user_ban(user=player, staff_user=moderator, reason="cheating")
    response = client.post(LOGIN_URL, {"login": "ana@example.com", "password": password})
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session
    assert "no tiene fecha de fin" in response.content.decode()


@pytest.mark.django_db
def test_a_lapsed_ban_lets_the_user_log_in_again(client, player, moderator, password, clock):
    until = clock.now + timedelta(hours=1)
    user_ban(user=player, staff_user=moderator, reason="a cooling-off hour", until=until)
    clock.now = until
    response = client.post(LOGIN_URL, {"login": "ana", "password": password})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == player.pk


@pytest.mark.django_db
def test_an_unbanned_user_logs_in(client, player, moderator, password):
    user_ban(user=player, staff_user=moderator, reason="abuse")
    user_unban(user=player, staff_user=moderator, reason="appeal")
    response = client.post(LOGIN_URL, {"login": "ana", "password": password})
    assert response.status_code == 302


@pytest.mark.django_db
def test_the_wrong_password_of_a_banned_user_reveals_nothing(client, player, moderator):
    user_ban(user=player, staff_user=moderator, reason="abuse")
    response = client.post(LOGIN_URL, {"login": "ana", "password": "not-the-password"})
    assert response.status_code == 200
    assert "suspendida" not in response.content.decode()

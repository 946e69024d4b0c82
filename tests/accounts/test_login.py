import pytest
from django.core import mail

LOGIN_URL = "/accounts/login/"


@pytest.mark.django_db
@pytest.mark.parametrize("login", ["ana", "ANA", "ana@example.com", "Ana@Example.com"])
def test_a_user_logs_in_with_username_or_email(client, player, password, login):
    response = client.post(LOGIN_URL, {"login": login, "password": password})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == player.pk


@pytest.mark.django_db
def test_a_wrong_password_gives_a_clear_message_and_no_session(client, player):
    response = client.post(LOGIN_URL, {"login": "ana", "password": "wrong-password"})
    assert response.status_code == 200
    assert "_auth_user_id" not in client.session
    errors = " ".join(response.context["form"].non_field_errors())
    assert errors  # allauth explains that the login or the password is wrong


@pytest.mark.django_db
def test_repeated_wrong_logins_are_rate_limited_even_with_the_right_password(
    client, player, password
):
    for attempt in range(6):
        client.post(LOGIN_URL, {"login": "ana", "password": f"wrong-{attempt}"})
    response = client.post(LOGIN_URL, {"login": "ana", "password": password})
    assert "_auth_user_id" not in client.session
    errors = " ".join(response.context["form"].non_field_errors())
    assert "Demasiados" in errors or "Too many" in errors


@pytest.mark.django_db
def test_logout_ends_the_session(client, player):
    client.force_login(player)
    response = client.post("/accounts/logout/")
    assert response.status_code == 302
    assert "_auth_user_id" not in client.session


@pytest.mark.django_db
def test_a_logged_in_user_changes_their_password(client, player, password):
    client.force_login(player)
    response = client.post(
        "/accounts/password/change/",
        {
            "oldpassword": password,
            "password1": "another-Long-passphrase-77",
            "password2": "another-Long-passphrase-77",
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.check_password("another-Long-passphrase-77")


@pytest.mark.django_db
def test_a_wrong_old_password_does_not_change_the_password(client, player, password):
    client.force_login(player)
    response = client.post(
        "/accounts/password/change/",
        {"oldpassword": "nope", "password1": "x-Long-pass-99", "password2": "x-Long-pass-99"},
    )
    assert response.status_code == 200
    player.refresh_from_db()
    assert player.check_password(password)


@pytest.mark.django_db
def test_a_password_reset_sends_an_email(client, player):
    response = client.post("/accounts/password/reset/", {"email": "ana@example.com"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert "ana@example.com" in mail.outbox[0].to
    assert "Cuatrola Online" in mail.outbox[0].subject

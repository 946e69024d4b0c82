from datetime import timedelta

import pytest

from accounts.services import user_ban


@pytest.mark.django_db
def test_an_open_session_of_a_banned_user_stops_working(client, player, moderator):
    client.force_login(player)
    assert client.get("/u/ana/").status_code == 200
    user_ban(user=player, staff_user=moderator, reason="abuse")
    response = client.get("/u/ana/")
    assert response.status_code == 403
    assert "_auth_user_id" not in client.session
    # Logged out for good: the next page is seen as an anonymous visitor.
    assert client.get("/").wsgi_request.user.is_anonymous


@pytest.mark.django_db
def test_a_session_survives_a_ban_that_has_lapsed(client, player, moderator, clock):
    client.force_login(player)
    until = clock.now + timedelta(minutes=10)
    user_ban(user=player, staff_user=moderator, reason="cool off", until=until)
    clock.now = until
    assert client.get("/u/ana/").status_code == 200
    assert int(client.session["_auth_user_id"]) == player.pk


@pytest.mark.django_db
def test_other_users_sessions_are_untouched(client, player, stranger, moderator):
    client.force_login(stranger)
    user_ban(user=player, staff_user=moderator, reason="abuse")
    assert client.get("/u/ana/").status_code == 200

import pytest
from django.utils import timezone


@pytest.mark.django_db
def test_a_profile_shows_the_username_and_join_date(client, player):
    response = client.get("/u/ana/")
    assert response.status_code == 200
    body = response.content.decode()
    assert "ana" in body
    # Shown on the site's clock, which may be on another day than UTC.
    assert timezone.localtime(player.date_joined).strftime("%Y-%m-%d") in body


@pytest.mark.django_db
def test_a_profile_is_found_in_any_letter_case(client, player):
    assert client.get("/u/ANA/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize("url", ["/u/nobody/", "/u/%00/", "/u/" + "x" * 300 + "/"])
def test_an_unknown_profile_is_a_404(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert b"error-page" in response.content


@pytest.mark.django_db
def test_an_inactive_users_profile_is_hidden(client, make_user):
    make_user("gone", is_active=False)
    assert client.get("/u/gone/").status_code == 404

import pytest

from accounts.models import User


@pytest.mark.django_db
def test_the_site_speaks_spanish_by_default(client):
    response = client.get("/")
    assert response.status_code == 200
    assert '<html lang="es">' in response.content.decode()
    assert "Juega a la Cuatrola en línea" in response.content.decode()


@pytest.mark.django_db
def test_a_visitor_switches_to_english_from_any_page(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/accounts/login/"})
    assert response.status_code == 302
    assert response["Location"] == "/accounts/login/"
    page = client.get("/").content.decode()
    assert '<html lang="en">' in page
    assert "Play Cuatrola online" in page


@pytest.mark.django_db
def test_every_page_offers_the_language_switch(client, player):
    for url in ["/", "/accounts/login/", "/accounts/signup/", "/u/ana/", "/no-such-page/"]:
        assert 'action="/i18n/setlang/"' in client.get(url).content.decode(), url


@pytest.mark.django_db
def test_a_logged_in_users_choice_is_remembered_in_a_new_session(client, player, password):
    client.force_login(player)
    client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    player.refresh_from_db()
    assert player.language == "en"

    client.logout()
    client.cookies.clear()
    client.post("/accounts/login/", {"login": "ana", "password": password})
    assert '<html lang="en">' in client.get("/").content.decode()


@pytest.mark.django_db
def test_an_unknown_language_changes_nothing(client, player):
    client.force_login(player)
    response = client.post("/i18n/setlang/", {"language": "xx", "next": "/"})
    assert response.status_code == 302
    assert User.objects.get(pk=player.pk).language == ""
    assert '<html lang="es">' in client.get("/").content.decode()


@pytest.mark.django_db
def test_an_offsite_next_url_is_not_followed(client):
    response = client.post("/i18n/setlang/", {"language": "en", "next": "https://evil.example/"})
    assert response.status_code == 302
    assert "evil.example" not in response["Location"]


@pytest.mark.django_db
def test_the_language_switch_refuses_get(client):
    assert client.get("/i18n/setlang/").status_code == 405

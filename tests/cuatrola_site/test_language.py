import json

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


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("header", "lang", "text"),
    [
        ("fr-FR,fr;q=0.9,en;q=0.8", "fr", "Jouez à la Cuatrola en ligne"),
        ("it-IT,it;q=0.9", "it", "Gioca a Cuatrola online"),
        ("ko-KR,ko;q=0.9,en-US;q=0.8", "ko", "온라인으로 Cuatrola를 즐기세요"),
        ("th-TH,th;q=0.9", "th", "เล่น Cuatrola ออนไลน์"),
        ("de-DE,de;q=0.9", "es", "Juega a la Cuatrola en línea"),
    ],
)
def test_a_first_visit_speaks_the_browsers_language(client, header, lang, text):
    page = client.get("/", headers={"accept-language": header}).content.decode()
    assert f'<html lang="{lang}">' in page
    assert text in page


@pytest.mark.django_db
def test_the_saved_choice_beats_the_browsers_language(client, player):
    player.language = "th"
    player.save(update_fields=["language"])
    client.force_login(player)
    page = client.get("/", headers={"accept-language": "fr"}).content.decode()
    assert '<html lang="th">' in page


@pytest.mark.django_db
def test_the_javascript_catalogue_speaks_the_pages_language(client):
    client.post("/i18n/setlang/", {"language": "ko", "next": "/"})
    page = client.get("/").content.decode()
    assert '/jsi18n/?lang=ko"' in page
    catalogue = client.get("/jsi18n/?lang=ko").content.decode()
    assert json.dumps("연결이 끊겼습니다")[1:-1] in catalogue

import pytest


@pytest.mark.django_db
def test_the_home_page_is_served(client):
    response = client.get("/")
    assert response.status_code == 200
    assert b"Cuatrola Online" in response.content


@pytest.mark.django_db
def test_an_unknown_url_gets_the_styled_404_page(client):
    response = client.get("/no/such/page/")
    assert response.status_code == 404
    assert b'class="error-page"' in response.content
    assert b"css/site.css" in response.content


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "title"),
    # French: Django's admin catalogue, listed before ours, says it its own way.
    [("es", "Página no encontrada"), ("fr", "Page non trouvée"), ("th", "ไม่พบหน้านี้")],
)
def test_the_404_page_speaks_the_visitors_language(client, language, title):
    response = client.get("/no/such/page/", headers={"accept-language": language})
    page = response.content.decode()
    assert response.status_code == 404
    assert f'<html lang="{language}">' in page
    assert f"<title>{title} · Cuatrola Online</title>" in page


@pytest.mark.django_db
def test_a_form_sent_without_its_csrf_token_gets_a_styled_page_in_the_visitors_language():
    from django.test import Client

    client = Client(enforce_csrf_checks=True)
    response = client.post("/i18n/setlang/", {"language": "en"}, headers={"accept-language": "it"})
    page = response.content.decode()
    assert response.status_code == 403
    assert 'class="error-page"' in page
    assert "Questo modulo è scaduto" in page


@pytest.mark.django_db
def test_a_bad_request_and_a_refusal_get_styled_pages(rf):
    from django.core.exceptions import PermissionDenied

    from cuatrola_site import views

    request = rf.get("/", headers={"accept-language": "ko"})
    from django.contrib.auth.models import AnonymousUser

    request.user = AnonymousUser()
    assert views.bad_request(request).status_code == 400
    refused = views.permission_denied(request, PermissionDenied())
    assert refused.status_code == 403
    assert b'class="error-page"' in refused.content


def test_the_500_page_stands_alone_in_the_active_language():
    from django.utils import translation

    from cuatrola_site import views

    with translation.override("fr"):
        response = views.server_error(None)
    page = response.content.decode()
    assert response.status_code == 500
    assert '<html lang="fr">' in page
    assert "Un problème est survenu" in page


@pytest.mark.django_db
def test_the_favicon_is_served(client):
    response = client.get("/favicon.ico")
    assert response.status_code == 301
    assert response["Location"].endswith(".svg")
    assert b"<svg" in b"".join(client.get(response["Location"]).streaming_content)

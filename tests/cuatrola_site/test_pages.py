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

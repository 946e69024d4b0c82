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


@pytest.mark.django_db
def test_the_navigations_name_opens_a_profile_with_the_players_figures_and_their_page(
    client, player, stranger
):
    from tests.history.conftest import store_finished

    store_finished([player, stranger, None, None], 3)  # won
    store_finished([player, stranger, None, None], 1, winner=1, abandoned=(0,))
    client.force_login(player)
    home = client.get("/").content.decode()
    assert '<a href="/u/ana/">ana</a>' in home  # the navigation's name
    body = client.get("/u/ana/").content.decode()
    summary = body.split('data-testid="player-summary"', 1)[1].split("</dl>", 1)[0]
    assert "<dt>Partidas jugadas</dt><dd>4</dd>" in summary
    assert "<dd>3 (75%)</dd>" in summary
    assert (
        '<dt>Reputación</dt><dd data-testid="summary-reputation">75% terminadas · 75% sin '
        "turnos agotados</dd>"
    ) in summary
    assert '<a href="/u/ana/record/">' in body
    # Anyone's profile shows the same, public figures.
    other = client.get("/u/zoe/").content.decode()
    assert '<a href="/u/zoe/record/">' in other and "<dd>4</dd>" in other

import pytest

from tests.history.conftest import store_finished, store_record
from tests.history.handbuilt import RECORD


@pytest.mark.django_db
def test_the_profile_links_to_the_public_record(client, player):
    assert "/u/ana/record/" in client.get("/u/ana/").content.decode()


@pytest.mark.django_db
def test_the_public_record_counts_wins_losses_modes_and_completion(client, player, stranger):
    store_finished([player, stranger, None, None], 2, mode="online")
    store_finished([player, stranger, None, None], 1, mode="online", abandoned=(0,))
    store_finished([None, player, None, stranger], 1, mode="friends")  # seat 1: a loss
    response = client.get("/u/ana/record/")
    assert response.status_code == 200
    record = response.context["record"]
    assert (record.played, record.won, record.losses, record.abandoned) == (4, 2, 2, 1)
    assert response.context["reputation"].percent == 75
    assert response.context["reputation"].on_time_percent == 75
    body = response.content.decode()
    assert "75% de 4 partidas terminadas, 75% sin turnos agotados" in body
    assert [(r.label, r.played) for r in response.context["stats"].by_mode][2] == ("En línea", 3)


@pytest.mark.django_db
def test_a_player_without_matches_has_no_reputation(client, stranger):
    response = client.get("/u/zoe/record/")
    assert response.context["reputation"].percent is None
    assert response.context["reputation"].on_time_percent is None


@pytest.mark.django_db
def test_the_player_page_shows_both_figures_of_the_reputation(client, player, stranger):
    store_finished([player, stranger, None, None], 3, mode="online")
    store_finished([player, stranger, None, None], 1, mode="online", late=(0,))
    body = client.get("/u/ana/record/").content.decode()
    assert "100% de 4 partidas terminadas, 75% sin turnos agotados" in body
    assert 'data-testid="on-time-tile"><span class="tile-value">75%' in body


@pytest.mark.django_db
def test_the_record_of_an_unknown_player_is_a_404(client):
    assert client.get("/u/nobody/record/").status_code == 404


@pytest.mark.django_db
def test_the_player_page_draws_its_charts_as_svg_with_a_table_beside_each(
    client, player, stranger, make_user
):
    store_record([player, stranger, make_user("carlos"), None], RECORD, mode="online")
    store_finished([player, stranger, None, None], 2, mode="online")
    store_finished([player, stranger, None, None], 1, mode="friends", winner=1)
    body = client.get("/u/ana/record/").content.decode()
    for testid in ("chart-modes", "chart-months", "chart-contracts"):
        assert f'data-testid="{testid}"' in body
    assert body.count('role="img"') == 3
    assert body.count('<details class="chart-table"') == 3
    assert "Resultados por modo: las cifras en una tabla" in body
    assert '<th scope="row">En línea</th><td>3</td><td>2</td><td>1</td><td>0</td>' in body
    assert '<th scope="row">Quintola</th><td>0</td><td>0</td><td>0</td><td>—</td>' in body
    assert '<th scope="row">Solo</th><td>1</td><td>1</td><td>0</td><td>0</td>' in body


@pytest.mark.django_db
def test_coins_and_xp_are_on_the_owners_page_only(client, player, stranger):
    from economy.services import Placement, match_reward

    match = store_finished([player, stranger, None, None], 1)[0]
    match_reward(match_id=match.pk, label="online", placements=[Placement(user=player, place=1)])
    client.force_login(player)
    own = client.get("/u/ana/record/").content.decode()
    assert 'data-testid="chart-coins"' in own and 'data-testid="chart-xp"' in own
    others = client.get("/u/zoe/record/").content.decode()
    assert "chart-coins" not in others and "chart-xp" not in others
    client.logout()
    anonymous = client.get("/u/ana/record/").content.decode()
    assert "chart-coins" not in anonymous
    assert 'data-testid="chart-modes"' in anonymous


@pytest.mark.django_db
def test_the_player_page_works_in_english_too(client, player, stranger):
    store_finished([player, stranger, None, None], 2)
    body = client.get("/u/ana/record/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Results by mode: the figures as a table" in body
    assert "Contracts bid, played and made" in body

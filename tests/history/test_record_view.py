import pytest

from tests.history.conftest import store_finished


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
    assert response.context["reliability"].percent == 75
    assert [(r.label, r.played) for r in response.context["stats"].by_mode][2] == ("En línea", 3)


@pytest.mark.django_db
def test_a_player_without_matches_has_no_reliability(client, stranger):
    response = client.get("/u/zoe/record/")
    assert response.context["reliability"].percent is None


@pytest.mark.django_db
def test_the_record_of_an_unknown_player_is_a_404(client):
    assert client.get("/u/nobody/record/").status_code == 404

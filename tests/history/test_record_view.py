import pytest

from games.models import MatchSeat
from tests.history.conftest import store_finished


@pytest.mark.django_db
def test_the_profile_links_to_the_public_record(client, player):
    assert "/u/ana/record/" in client.get("/u/ana/").content.decode()


@pytest.mark.django_db
def test_the_public_record_counts_wins_losses_modes_and_completion(client, player, stranger):
    won = store_finished([player, stranger, None, None], 3, mode="online")
    store_finished([None, player, None, stranger], 1, mode="friends")  # seat 1: a loss
    MatchSeat.objects.filter(match=won[0], user=player).update(abandoned=True, won=False)
    response = client.get("/u/ana/record/")
    assert response.status_code == 200
    record = response.context["record"]
    assert (record.played, record.wins, record.losses, record.abandoned) == (4, 2, 2, 1)
    assert record.completion_rate == 75
    assert ("En línea", 3) in [(str(label), n) for label, n in record.per_mode]


@pytest.mark.django_db
def test_a_player_without_matches_has_no_completion_rate(client, stranger):
    response = client.get("/u/zoe/record/")
    assert response.context["record"].completion_rate is None


@pytest.mark.django_db
def test_the_record_of_an_unknown_player_is_a_404(client):
    assert client.get("/u/nobody/record/").status_code == 404

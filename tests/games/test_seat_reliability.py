import pytest

from games import services
from games.models import Seat
from games.sockets.live_frames import table_info
from tests.history.conftest import store_finished


@pytest.mark.django_db
def test_a_player_sits_with_the_reliability_of_their_finished_matches(client, player, stranger):
    store_finished([player, stranger, None, None], 2)
    store_finished([player, stranger, None, None], 1, abandoned=(0,))
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    seat = Seat.objects.get(table=table, user=player)
    assert seat.reliability == 66  # 2 of 3 finished, rounded down
    info = table_info(table, list(table.seats.select_related("user")), None)
    assert [s["reliability"] for s in info["seats"]] == [66, None, None, None]
    client.force_login(player)
    body = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'data-reliability="66"' in body
    assert "(fiabilidad 66%)" in body


@pytest.mark.django_db
def test_a_newcomer_sits_without_a_reliability_figure(client, player):
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    assert Seat.objects.get(table=table, user=player).reliability is None
    client.force_login(player)
    assert "data-reliability" not in client.get(f"/tables/{table.pk}/").content.decode()

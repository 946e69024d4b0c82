import pytest

from games import services
from games.frames.live import table_info
from games.models import Seat
from tests.history.conftest import store_finished


@pytest.mark.django_db
def test_a_player_sits_with_the_reputation_of_their_finished_matches(client, player, stranger):
    store_finished([player, stranger, None, None], 1)
    store_finished([player, stranger, None, None], 1, late=(0,))
    store_finished([player, stranger, None, None], 1, abandoned=(0,))
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    seat = Seat.objects.get(table=table, user=player)
    # 2 of 3 finished, 1 of 3 without a turn timed out, rounded down.
    assert (seat.reliability, seat.on_time) == (66, 33)
    info = table_info(table, list(table.seats.select_related("user")), None)
    assert [s["reliability"] for s in info["seats"]] == [66, None, None, None]
    assert [s["on_time"] for s in info["seats"]] == [33, None, None, None]
    client.force_login(player)
    body = client.get(f"/tables/{table.pk}/").content.decode()
    assert 'data-reliability="66" data-on-time="33"' in body
    # The two figures are read out, and a legend under the table says what they are.
    assert "(reputación: 66% de partidas terminadas, 33% sin turnos agotados)" in body
    assert 'class="reliability reliability-low"' in body
    assert (
        '<p class="legend-line reputation-legend"><span class="legend-mark reliability-mark" '
        'aria-hidden="true">&#10003;</span> Junto a cada nombre:'
    ) in body
    # The badge starts with the legend's sign (✓), so it reads without a tooltip.
    assert '<span aria-hidden="true">&#10003;&#8201;66%' in body
    assert "rating-legend" not in body  # a practice table shows no rating


@pytest.mark.django_db
def test_the_badge_is_marked_low_under_the_setting(client, player, stranger, settings):
    store_finished([player, stranger, None, None], 9)
    store_finished([player, stranger, None, None], 1, late=(0,))
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    client.force_login(player)
    assert 'class="reliability"' in client.get(f"/tables/{table.pk}/").content.decode()
    settings.REPUTATION_LOW_PERCENT = 91  # 90% on time is under it now
    assert (
        'class="reliability reliability-low"' in client.get(f"/tables/{table.pk}/").content.decode()
    )


@pytest.mark.django_db
def test_a_newcomer_sits_without_a_reliability_figure(client, player):
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    seat = Seat.objects.get(table=table, user=player)
    assert (seat.reliability, seat.on_time) == (None, None)
    client.force_login(player)
    body = client.get(f"/tables/{table.pk}/").content.decode()
    assert "data-reliability" not in body and "reputation-legend" not in body

"""The online pages: queue, stake lobby, stake table; bad inputs give messages, not errors."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from games import services as games
from games.models import RuleSetName, Seat, Table
from online import services
from online.models import QueueEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client, player):
    client.force_login(player)
    return client


def test_the_pages_need_a_signed_in_player(client):
    for name in ("online:play", "online:stakes"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and "/login" in response["Location"]
    assert client.post(reverse("online:queue_join")).status_code == 302
    assert not QueueEntry.objects.exists()


def test_play_online_puts_the_player_in_the_queue_and_shows_the_wait(signed_in, player):
    response = signed_in.post(reverse("online:queue_join"), follow=True)
    assert QueueEntry.objects.filter(user=player).exists()
    assert response.status_code == 200
    assert b'data-testid="queue-waiting"' in response.content
    assert b'hx-trigger="every 1s"' in response.content


def test_the_queue_polls_at_the_period_the_setting_gives(signed_in, player, settings):
    settings.ONLINE_POLL_SECONDS = 3
    services.queue_join(user=player)
    response = signed_in.get(reverse("online:play"))
    assert b'hx-trigger="every 3s"' in response.content


def test_the_htmx_poll_returns_the_queue_region_only(signed_in, player):
    services.queue_join(user=player)
    response = signed_in.get(reverse("online:play"), headers={"HX-Request": "true"})
    assert response.status_code == 200
    assert response.content.lstrip().startswith(b"<section")
    assert b"<html" not in response.content


def test_the_poll_of_a_seated_player_redirects_out_of_the_queue_page(signed_in, player, settings):
    games.table_create_practice(user=player, rules=RuleSetName.ONLINE, bot_level="easy")
    response = signed_in.get(reverse("online:play"), headers={"HX-Request": "true"})
    assert response.status_code in (200, 204)
    assert b'data-testid="queue-seated"' in response.content or "HX-Redirect" in response


def test_leaving_the_queue(signed_in, player):
    services.queue_join(user=player)
    response = signed_in.post(reverse("online:queue_leave"), follow=True)
    assert not QueueEntry.objects.exists()
    assert "Has salido de la cola." in response.content.decode()


def test_queueing_while_seated_shows_a_clear_message(signed_in, player):
    games.table_create_practice(user=player, rules=RuleSetName.ONLINE, bot_level="easy")
    response = signed_in.post(reverse("online:queue_join"), follow=True)
    assert "Ya estás en una mesa en juego" in response.content.decode()
    assert not QueueEntry.objects.exists()


def test_the_stake_lobby_lists_open_tables_by_stake_with_free_seats(signed_in, make_user):
    opener = make_user("olga")
    table = services.stake_table_open(user=opener, stake=500)
    response = signed_in.get(reverse("online:stakes"))
    text = response.content.decode()
    assert f'data-testid="stake-table-{table.pk}"' in text
    assert "asientos libres: 3" in text and "olga" in text
    for amount in (100, 250, 500, 1000):
        assert f'value="{amount}"' in text


def test_opening_and_sitting_and_leaving_through_the_pages(signed_in, player, make_user):
    response = signed_in.post(reverse("online:stake_open"), {"stake": "100"})
    table = Table.objects.get()
    assert response["Location"] == reverse("online:stake_table", args=[table.pk])
    page = signed_in.get(response["Location"]).content.decode()
    assert "Levantarme y recuperar mi apuesta" in page
    response = signed_in.post(reverse("online:stake_leave", args=[table.pk]), follow=True)
    assert "se te ha devuelto la apuesta" in response.content.decode()
    assert not Seat.objects.filter(user=player, live=True).exists()


@pytest.mark.parametrize("stake", ["", "7", "abc", "100.5", "1e3"])
def test_an_unknown_stake_amount_is_a_message(signed_in, stake):
    response = signed_in.post(reverse("online:stake_open"), {"stake": stake}, follow=True)
    assert response.status_code == 200
    assert "No hay mesas con apuesta de esa cantidad." in response.content.decode()
    assert not Table.objects.exists()


def test_bad_table_ids_in_urls_are_not_found_or_refused(signed_in):
    assert signed_in.get("/play/stakes/999999/").status_code == 404
    assert signed_in.get("/play/stakes/abc/").status_code == 404
    assert signed_in.get("/play/stakes/" + "9" * 30 + "/").status_code == 404
    response = signed_in.post("/play/stakes/999999/sit/", follow=True)
    assert "Esa mesa con apuesta no existe." in response.content.decode()
    response = signed_in.post("/play/stakes/999999/leave/", follow=True)
    assert "Esa mesa con apuesta no existe." in response.content.decode()


def test_leaving_a_table_you_are_not_at_is_a_message(signed_in, make_user):
    table = services.stake_table_open(user=make_user("olga"), stake=100)
    response = signed_in.post(reverse("online:stake_leave", args=[table.pk]), follow=True)
    assert "No estás sentado en esta mesa." in response.content.decode()


def test_a_get_cannot_change_anything(signed_in):
    assert signed_in.get(reverse("online:queue_join")).status_code == 405
    assert signed_in.get(reverse("online:stake_open")).status_code == 405


def test_the_queue_page_shows_how_many_wait_and_for_how_long(signed_in, player, make_user):
    from datetime import timedelta

    from django.utils import timezone

    services.queue_join(user=player, now=timezone.now() - timedelta(seconds=7))
    services.queue_join(user=make_user("olga"))
    text = signed_in.get(reverse("online:play"), headers={"HX-Request": "true"}).content.decode()
    assert "Jugadores esperando: 2." in text
    assert re.search(r"Llevas (7|8) s esperando\.", text)


def test_the_stake_lobby_poll_returns_its_region_only(signed_in, make_user):
    services.stake_table_open(user=make_user("olga"), stake=1000)
    response = signed_in.get(reverse("online:stakes"), headers={"HX-Request": "true"})
    text = response.content.decode()
    assert text.lstrip().startswith('<div id="stake-tables"')
    assert "<html" not in text and "olga" in text


def test_a_player_seated_by_someone_elses_join_is_sent_to_the_table(signed_in, player, make_user):
    services.queue_join(user=player)
    for name in ("olga", "pia", "quim"):
        services.queue_join(user=make_user(name))
    services.queue_match()  # the pass after the last join seats all four
    table_id = Seat.objects.get(user=player, live=True).table_id
    response = signed_in.get(reverse("online:play"))
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[table_id])


def test_a_player_seated_between_the_pages_two_reads_is_not_left_behind(
    signed_in, player, make_user, monkeypatch
):
    """The play page reads the player's place in the queue, then their seat. A
    matchmaking pass that seats them in between (it leaves the queue and sits in one
    commit) leaves the page polling on, never showing the lobby as if they had neither."""
    from online import selectors

    services.queue_join(user=player)
    for name in ("olga", "pia", "quim"):
        services.queue_join(user=make_user(name))
    # Sat down in the instant between this page's two reads.
    monkeypatch.setattr(selectors, "queue_status", _then_matched(selectors.queue_status))
    monkeypatch.setattr(selectors, "live_table_id", _then_matched(selectors.live_table_id))

    text = signed_in.get(reverse("online:play")).content.decode()
    assert 'data-testid="queue-waiting"' in text and "hx-trigger" in text
    poll = signed_in.get(reverse("online:play"), headers={"HX-Request": "true"})
    table_id = Seat.objects.get(user=player, live=True).table_id
    assert poll["HX-Redirect"] == reverse("games:table", args=[table_id])


def _then_matched(read):
    """`read`, followed (once, on the first of the two reads) by a matchmaking pass."""

    def read_then_matched(**kwargs):
        result = read(**kwargs)
        if not Seat.objects.filter(live=True).exists():
            services.queue_match()
        return result

    return read_then_matched


def _click_find_a_match(client) -> str | None:
    """Follows the pages after "Find a match": the table's URL when they lead there,
    "polling" for a queue page that keeps polling, None for a page that would leave
    the player behind."""
    response = client.post(reverse("online:queue_join"))
    while response.status_code == 302:
        location = response["Location"]
        if re.search(r"/tables/\d+/$", location):
            return location
        response = client.get(location)
    text = response.content.decode()
    if 'data-testid="queue-waiting"' in text and "hx-trigger" in text:
        return "polling"
    return None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_twenty_rounds_of_four_concurrent_joins_take_every_page_to_its_table(make_user):
    from django.test import Client

    from tests.threads import run_together

    for round_no in range(20):
        cast = [make_user(f"r{round_no:02d}p{i}") for i in range(4)]
        clients = []
        for user in cast:
            client = Client()
            client.force_login(user)
            clients.append(client)
        pages = run_together(4, lambda i, clients=clients: _click_find_a_match(clients[i]))
        tables = {Seat.objects.get(user=u, live=True).table_id for u in cast}
        assert len(tables) == 1, f"round {round_no}: not one table"
        expected = reverse("games:table", args=[tables.pop()])
        for client, page in zip(clients, pages, strict=True):
            if page == "polling":  # the page's next poll, now that all four have joined
                poll = client.get(reverse("online:play"), headers={"HX-Request": "true"})
                page = poll.get("HX-Redirect")
            assert page == expected, f"round {round_no}: {pages}"


def test_a_seated_players_stake_table_page_follows_the_seat_to_the_table(
    signed_in, player, make_user
):
    table = services.stake_table_open(user=player, stake=100)
    for name in ("olga", "pia", "quim"):
        services.stake_table_sit(user=make_user(name), table_id=table.pk)
    response = signed_in.get(reverse("online:stake_table", args=[table.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("games:table", args=[table.pk])

"""Lobby and table pages: forms, partials, bad inputs, and no hidden card in HTML."""

from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse

from games import errors, services
from games.models import Invitation, Table
from games.state import rebuild
from tests.games.conftest import drive_bots, live_match
from tests.games.hidden import leaks_in_html

pytestmark = pytest.mark.django_db


@pytest.fixture
def client_for(client, password):
    def login(user):
        client.force_login(user)
        return client

    return login


def test_the_lobby_needs_a_login(client):
    response = client.get(reverse("games:lobby"))
    assert response.status_code == 302


def test_the_lobby_offers_practice_and_rooms(client_for, player):
    response = client_for(player).get(reverse("games:lobby"))
    assert response.status_code == 200
    body = response.content.decode()
    assert reverse("games:practice_create") in body and reverse("games:room_create") in body


def test_starting_practice_leads_to_the_table_with_the_own_hand_as_buttons(client_for, player):
    client = client_for(player)
    response = client.post(
        reverse("games:practice_create"), {"rules": "online", "bot_level": "easy"}
    )
    table = Table.objects.get()
    assert response.status_code == 302 and response.url == reverse("games:table", args=[table.pk])
    page = client.get(response.url)
    assert page.status_code == 200
    state = rebuild(live_match(table))
    html = page.content.decode()
    for code in state.hand.hand_of(0):
        assert f'data-card="{code}"' in html
    assert not leaks_in_html(html, state, 0)
    # the lobby now points back to the table
    assert (
        reverse("games:table", args=[table.pk])
        in client.get(reverse("games:lobby")).content.decode()
    )


def test_bad_practice_forms_are_refused_with_the_lobby(client_for, player):
    response = client_for(player).post(
        reverse("games:practice_create"), {"rules": "poker", "bot_level": "easy"}
    )
    assert response.status_code == 400 and not Table.objects.exists()


def test_bad_room_forms_are_refused_with_the_lobby(client_for, player):
    response = client_for(player).post(reverse("games:room_create"), {"rules": "poker"})
    assert response.status_code == 400 and not Table.objects.exists()
    assert 'name="rules"' in response.content.decode()


def test_a_second_table_is_refused_with_the_reason_and_nothing_created(client_for, player):
    client = client_for(player)
    client.post(reverse("games:room_create"), {"rules": "online"})
    assert Table.objects.count() == 1
    for url, data in (
        (reverse("games:room_create"), {"rules": "classic"}),
        (reverse("games:practice_create"), {"rules": "online", "bot_level": "easy"}),
    ):
        response = client.post(url, data)
        assert response.status_code == 400
        assert str(errors.AlreadyAtTable().message) in response.content.decode()
    assert Table.objects.count() == 1


def test_unknown_tables_and_strangers_get_404(client_for, started_room, stranger):
    client = client_for(stranger)
    for url in (
        reverse("games:table", args=[started_room.pk]),
        reverse("games:table", args=[99999]),
        reverse("games:board", args=[99999]),
    ):
        assert client.get(url).status_code == 404
    for name in ("play", "invite", "start", "leave", "again", "settings", "seats"):
        assert client.post(reverse(f"games:{name}", args=[99999])).status_code in (404, 302)


@pytest.mark.parametrize(
    ("name", "data", "refusal"),
    [
        ("start", {}, errors.NotOwner),
        ("seats", {"op": "bot", "position": "3"}, errors.NotOwner),
        ("seats", {"op": "dance", "position": "3"}, errors.InvalidSeat),
        ("settings", {"rules": "classic", "bot_level": "hard"}, errors.NotOwner),
        ("play", {"action": "pass", "version": "0"}, errors.MatchNotLive),
    ],
)
def test_a_refused_room_action_redraws_the_board_with_its_reason(
    client_for, room, partner, name, data, refusal
):
    """A guest may not run the owner's room; nothing changes and the board says why."""
    before = list(room.seats.values_list("position", "kind", "user_id"))
    response = client_for(partner).post(
        reverse(f"games:{name}", args=[room.pk]), data, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert str(refusal().message) in response.content.decode()
    assert 'role="alert"' in response.content.decode()
    table = Table.objects.get(pk=room.pk)
    assert (table.status, table.rules) == (room.status, room.rules)
    assert list(table.seats.values_list("position", "kind", "user_id")) == before


def test_leaving_or_replaying_a_table_you_are_not_at_is_explained(
    client_for, started_room, make_user
):
    outsider = make_user("otro")
    client = client_for(outsider)
    for name, refusal in (("leave", errors.NotSeated), ("again", errors.NotSeated)):
        response = client.post(reverse(f"games:{name}", args=[started_room.pk]))
        assert response.status_code == 302  # without htmx: back to the page, with a message
        assert response["Location"] == reverse("games:table", args=[started_room.pk])
        notes = [str(m) for m in get_messages(response.wsgi_request)]
        assert notes[-1] == str(refusal().message)
    assert Table.objects.filter(owner=outsider).count() == 0


def test_an_unknown_invitee_is_explained_in_the_room(client_for, player):
    table = services.table_create_friends(user=player)
    response = client_for(player).post(
        reverse("games:invite", args=[table.pk]), {"username": "nadie"}, HTTP_HX_REQUEST="true"
    )
    assert response.status_code == 200
    assert "nadie" in response.content.decode()
    assert "No hay ningún jugador activo" in response.content.decode()
    assert not Invitation.objects.exists()


def test_an_invitation_shows_in_the_invitees_lobby_and_can_be_accepted(client_for, player, partner):
    table = services.table_create_friends(user=player)
    invitation = services.invitation_create(user=player, table_id=table.pk, username="pablo")
    client = client_for(partner)
    fragment = client.get(reverse("games:lobby_invitations")).content.decode()
    assert "ana" in fragment
    response = client.post(reverse("games:invitation_answer", args=[invitation.pk, "accept"]))
    assert response.status_code == 302
    assert table.seats.get(position=1).user == partner
    assert (
        client.post(reverse("games:invitation_answer", args=[invitation.pk, "maybe"])).status_code
        == 404
    )


def test_a_play_form_with_a_stale_version_changes_nothing(client_for, started_room, player):
    drive_bots(started_room)
    match = live_match(started_room)
    response = client_for(player).post(
        reverse("games:play", args=[started_room.pk]),
        {"action": "pass", "version": "nope"},
        HTTP_HX_REQUEST="true",
    )
    assert response.status_code == 200
    assert live_match(started_room).version == match.version


def test_board_fragments_never_show_a_hidden_card_during_a_match(
    client_for, django_user_model, player, partner, opponent, room
):
    """Every seat's board fragment after every move of a whole match."""
    services.match_start(user=player, table_id=room.pk, seed=11)
    users = {0: player, 1: opponent, 2: partner}
    clients = {}
    from django.test import Client

    for seat, user in users.items():
        clients[seat] = Client()
        clients[seat].force_login(user)
    url = reverse("games:board", args=[room.pk])
    while True:
        drive_bots(room)
        match = room.matches.order_by("-pk").first()
        state = rebuild(match)
        if state.is_over:
            break
        for seat, client in clients.items():
            html = client.get(url).content.decode()
            assert not leaks_in_html(html, state, seat), (seat, match.version)
        services.match_play(
            user=users[state.to_play],
            table_id=room.pk,
            action=state.legal_actions()[-1],
            version=match.version,
        )
    final = clients[0].get(url).content.decode()
    assert reverse("games:again", args=[room.pk]) in final


def test_the_end_of_match_box_shows_each_players_coins_and_xp(
    client, player, partner, opponent, started_room
):
    from games.models import MatchSeat
    from tests.games.conftest import play_out

    match = play_out(started_room, [player, opponent, partner, None])
    winners = MatchSeat.objects.filter(match=match, place__in=(1, 2)).exclude(user=None)
    client.force_login(player)
    body = client.get(f"/tables/{started_room.pk}/").content.decode()
    for seat in winners:
        coins, xp = (30, 20) if seat.place == 1 else (20, 15)  # friends: half the online rate
        assert f"{seat.user.username}: " in body
        line = body.split(f"{seat.user.username}: ", 1)[1].split("</li>", 1)[0]
        assert f"{coins} monedas, {xp} XP" in line


def test_the_board_names_the_bots_and_never_says_to_play_about_you(
    client_for, started_room, player
):
    from games.frames.builder import bot_names

    match = live_match(started_room)
    name = bot_names(seed=match.seed, taken={"ana", "olga", "pablo"})[3]
    body = client_for(player).get(f"/tables/{started_room.pk}/").content.decode()
    assert f'aria-label="{name}"' in body and "tag-bot" in body
    mine = body.split('class="seat seat-bottom', 1)[1].split("</section>", 1)[0]
    assert "le toca" not in mine


def test_an_abandoner_sees_a_loss_and_the_deciding_hand_summarised(
    client_for, started_room, player, partner, opponent
):
    from games.models import Match
    from tests.games.conftest import play_out

    Table.objects.filter(pk=started_room.pk).update(bot_level="easy")
    services.seat_leave(user=player, table_id=started_room.pk)
    play_out(started_room, {1: opponent, 2: partner}, choose=lambda legal: legal[-1])
    match = Match.objects.get(table=started_room)
    assert match.winner == 0  # the abandoner's pair won: still a loss for them
    body = client_for(player).get(f"/tables/{started_room.pk}/").content.decode()
    assert "Has perdido la partida." in body and "¡Has ganado la partida!" not in body
    assert f"Resultado de la mano {match.hand_no}<" in body
    partner_body = client_for(partner).get(f"/tables/{started_room.pk}/").content.decode()
    assert "¡Has ganado la partida!" in partner_body


def test_the_table_page_and_its_title_say_what_is_played(client_for, player, started_room):
    import re

    body = client_for(player).get(f"/tables/{started_room.pk}/").content.decode()
    title = re.search(r"<title>(.*?)</title>", body, re.S).group(1)
    rules = {"online": "Reglas online", "classic": "Reglas clásicas"}[started_room.rules]
    assert title == f"Amigos · {rules} · Mesa {started_room.pk} · Cuatrola Online"
    assert f'<p class="table-facts">Amigos · {rules}</p>' in body


def test_a_practice_table_names_its_mode_and_rules_in_the_title(client_for, player):
    import re

    client = client_for(player)
    client.post(reverse("games:practice_create"), {"rules": "classic", "bot_level": "easy"})
    table = Table.objects.get(mode="practice")
    body = client.get(f"/tables/{table.pk}/").content.decode()
    title = re.search(r"<title>(.*?)</title>", body, re.S).group(1)
    assert title == f"Práctica · Reglas clásicas · Mesa {table.pk} · Cuatrola Online"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_swap_and_a_start_while_the_table_page_reads_never_show_another_seats_hand(
    client_for, room, player, monkeypatch
):
    """The owner (seat 0 when the page looks it up) swaps to seat 1 and the match
    starts before the page reads the board: the page shows one moment, whole, never
    seat 0's new hand (the opponent's)."""
    import threading

    from django.db import connection

    from games import selectors

    access = selectors.table_access
    swapped = []

    def access_then_swap(**kwargs):
        found = access(**kwargs)
        if not swapped:
            swapped.append(True)

            def swap_and_start():
                try:
                    services.seat_swap(user=player, table_id=room.pk, first=0, second=1)
                    services.match_start(user=player, table_id=room.pk, seed=7)
                finally:
                    connection.close()

            thread = threading.Thread(target=swap_and_start)  # its own connection: commits
            thread.start()
            thread.join(30)
        return found

    monkeypatch.setattr(selectors, "table_access", access_then_swap)
    page = client_for(player).get(reverse("games:table", args=[room.pk]))
    assert page.status_code == 200 and swapped
    state = rebuild(live_match(room))
    html = page.content.decode()
    assert not leaks_in_html(html, state, 1)  # seat 1 is the owner's now

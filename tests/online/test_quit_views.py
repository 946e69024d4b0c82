"""The pages of the ladder of waits and of the stake tables' minimum reputation
(docs/fairplay.md): the queue's refusal says why and until when in the reader's
language and the site's time zone, the pages show the wait before anyone tries, the
notice of an abandonment is dismissed, and every bad minimum is a message."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import override

from games.models import Mode, Seat, Table
from online import services
from online.models import Conduct, MatchConduct, QueueEntry, QuitStanding, StakeTable
from tests.history.conftest import store_finished

pytestmark = pytest.mark.django_db


@pytest.fixture
def signed_in(client, player):
    client.force_login(player)
    return client


def _abandoned(user, *, minutes_left: int, step: int = 2, forgiven: bool = False):
    """`user` abandoned an online match a minute ago and waits `minutes_left` more."""
    match = store_finished([user, None, None, None], 1, mode=Mode.ONLINE, abandoned=(0,))[0]
    now = timezone.now()
    until = now + timedelta(minutes=minutes_left) if minutes_left else None
    row = MatchConduct.objects.create(
        match=match,
        user=user,
        conduct=Conduct.ABSENT if forgiven else Conduct.LEFT,
        at=now - timedelta(minutes=1),
        forgiven=forgiven,
        step=step,
        wait_until=until,
    )
    QuitStanding.objects.create(
        user=user,
        step=0 if forgiven else step,
        last_counted_at=None if forgiven else row.at,
        wait_until=until,
        notice=row,
    )
    return row


def _until_text(row, language: str) -> str:
    with override(language):
        return formats.date_format(timezone.localtime(row.wait_until), "DATETIME_FORMAT")


def test_the_queue_refuses_with_why_and_until_when_in_spanish(signed_in, player):
    row = _abandoned(player, minutes_left=25)
    response = signed_in.post(reverse("online:queue_join"), follow=True)
    body = response.content.decode()
    assert not QueueEntry.objects.exists()
    message = (
        "No puedes entrar en la cola ni sentarte en una mesa con apuesta hasta el "
        f"{_until_text(row, 'es')} (dentro de 25 minutos): abandonaste 1 partida puntuable "
        "o con apuesta en los últimos 30 días."
    )
    assert message in body


def test_the_queue_refuses_with_why_and_until_when_in_english_and_french(client, player):
    client.force_login(player)
    row = _abandoned(player, minutes_left=150)
    body = client.post(
        reverse("online:queue_join"), follow=True, HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert (
        f"You cannot join the queue or sit at a stake table until {_until_text(row, 'en')} "
        "(3 hours from now): you abandoned 1 rated or stake match in the last 30 days."
    ) in body
    body = client.post(
        reverse("online:queue_join"), follow=True, HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert f"avant le {_until_text(row, 'fr')} (dans 3 heures)" in body


def test_the_queue_page_shows_the_wait_before_the_player_tries(signed_in, player):
    row = _abandoned(player, minutes_left=5)
    body = signed_in.get(reverse("online:play")).content.decode()
    assert 'data-testid="quit-wait"' in body and _until_text(row, "es") in body
    assert 'data-testid="queue-closed"' in body
    assert reverse("online:queue_join") not in body  # no "Find a match" button meanwhile
    assert "Abandonar otra partida puntuable o con apuesta en los próximos 30 días" in body


def test_the_lobby_shows_the_wait_and_the_notice(signed_in, player):
    row = _abandoned(player, minutes_left=30)
    body = signed_in.get(reverse("games:lobby")).content.decode()
    assert 'data-testid="quit-status"' in body and _until_text(row, "es") in body
    assert f"La partida {row.match_id} cuenta como abandonada" in body
    assert f'href="/history/matches/{row.match_id}/"' in body  # finished: its page exists


def test_the_lobby_says_nothing_to_a_player_who_never_quit(signed_in):
    assert 'data-testid="quit-status"' not in signed_in.get(reverse("games:lobby")).content.decode()


def test_a_warning_is_shown_after_the_first_abandonment_and_dismissed(signed_in, player):
    row = _abandoned(player, minutes_left=0, step=1)
    body = signed_in.get(reverse("online:play")).content.decode()
    assert f"La partida {row.match_id} cuenta como abandonada. Esta vez es solo un aviso." in body
    assert "te costaría una espera de 5 minutos" in body
    assert reverse("online:queue_join") in body  # a warning closes nothing
    response = signed_in.post(
        reverse("online:quit_notice_dismiss"), {"next": reverse("games:lobby")}
    )
    assert response["Location"] == reverse("games:lobby")
    body = signed_in.get(reverse("online:play")).content.decode()
    assert 'data-testid="quit-notice"' not in body and 'data-testid="quit-ladder"' in body


def test_a_forgiven_disconnect_is_told_as_forgiven(signed_in, player):
    row = _abandoned(player, minutes_left=0, step=0, forgiven=True)
    body = signed_in.get(reverse("online:play")).content.decode()
    assert f"Estuviste demasiado tiempo fuera de la partida {row.match_id}" in body
    assert "La primera desconexión se perdona" in body


@pytest.mark.parametrize("back", ["https://evil.example/", "//evil.example/x", "javascript:x", ""])
def test_the_dismissal_never_sends_the_player_off_the_site(signed_in, player, back):
    _abandoned(player, minutes_left=0, step=1)
    response = signed_in.post(reverse("online:quit_notice_dismiss"), {"next": back})
    assert response["Location"] == reverse("online:play")
    assert QuitStanding.objects.get(user=player).notice is None


def test_the_dismissal_needs_a_post(signed_in):
    assert signed_in.get(reverse("online:quit_notice_dismiss")).status_code == 405


def test_sitting_during_the_wait_is_refused_with_the_reason(signed_in, player, make_user):
    row = _abandoned(player, minutes_left=5)
    table = services.stake_table_open(user=make_user("olga"), stake=100)
    response = signed_in.post(reverse("online:stake_sit", args=[table.pk]), follow=True)
    assert _until_text(row, "es") in response.content.decode()
    assert not Seat.objects.filter(table=table, user=player).exists()


# --- the stake tables' minimum reputation ----------------------------------------------


def test_the_opener_chooses_a_minimum_and_the_list_and_table_show_it(signed_in, make_user):
    response = signed_in.post(
        reverse("online:stake_open"), {"stake": "100", "min_reputation": "90"}
    )
    table = Table.objects.get()
    assert response["Location"] == reverse("online:stake_table", args=[table.pk])
    assert StakeTable.objects.get(table=table).min_reputation == 90
    signed_in.force_login(make_user("olga"))
    listed = signed_in.get(reverse("online:stakes")).content.decode()
    assert f'data-testid="stake-minimum-{table.pk}"' in listed
    assert "reputación mínima 90%" in listed
    page = signed_in.get(reverse("online:stake_table", args=[table.pk])).content.decode()
    assert "Esta mesa pide una reputación de al menos el 90%" in page


@pytest.mark.parametrize("value", ["abc", "-1", "101", "1000", "90.5", "1e2", "٩٠", " 9 0", "true"])
def test_a_bad_minimum_is_a_message_and_opens_nothing(signed_in, value, player):
    response = signed_in.post(
        reverse("online:stake_open"), {"stake": "100", "min_reputation": value}, follow=True
    )
    assert response.status_code == 200
    assert "La reputación mínima debe ser un número entero de 0 a 100." in response.content.decode()
    assert not Table.objects.exists() and not Seat.objects.filter(user=player).exists()


@pytest.mark.parametrize(("value", "stored"), [("", 0), ("0", 0), ("100", 100), (" 75 ", 75)])
def test_an_empty_or_whole_minimum_is_taken(signed_in, value, stored):
    signed_in.post(reverse("online:stake_open"), {"stake": "100", "min_reputation": value})
    assert StakeTable.objects.get().min_reputation == stored


def test_a_sitter_below_the_minimum_is_refused_with_both_figures(client, make_user):
    opener, sitter = make_user("olga"), make_user("pablo")
    table = services.stake_table_open(user=opener, stake=100, min_reputation=90)
    store_finished([sitter, None, None, None], 9, mode=Mode.ONLINE)
    store_finished([sitter, None, None, None], 1, mode=Mode.ONLINE, late=(0,))
    store_finished([sitter, None, None, None], 1, mode=Mode.ONLINE, abandoned=(0,))
    client.force_login(sitter)
    body = client.post(reverse("online:stake_sit", args=[table.pk]), follow=True).content.decode()
    assert "Esta mesa pide jugadores que terminen al menos el 90% de sus partidas" in body
    assert "Tú terminas el 90% de tus partidas, el 81% sin turnos agotados." in body
    assert not Seat.objects.filter(table=table, user=sitter).exists()
    english = client.post(
        reverse("online:stake_sit", args=[table.pk]), follow=True, HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "You finish 90% of your matches, 81% without a turn timed out." in english


def test_a_newcomer_is_refused_by_a_minimum_and_a_player_at_it_sits(client, make_user):
    opener, newcomer, steady = make_user("olga"), make_user("nuevo"), make_user("firme")
    table = services.stake_table_open(user=opener, stake=100, min_reputation=90)
    client.force_login(newcomer)
    body = client.post(reverse("online:stake_sit", args=[table.pk]), follow=True).content.decode()
    assert "Aún no has terminado ninguna partida." in body
    store_finished([steady, None, None, None], 9, mode=Mode.ONLINE)
    store_finished([steady, None, None, None], 1, mode=Mode.ONLINE, late=(0,))  # 90% on time
    client.force_login(steady)
    client.post(reverse("online:stake_sit", args=[table.pk]))
    assert Seat.objects.filter(table=table, user=steady, live=True).exists()


def test_a_table_without_minimum_seats_a_newcomer(client, make_user):
    table = services.stake_table_open(user=make_user("olga"), stake=100)
    newcomer = make_user("nuevo")
    client.force_login(newcomer)
    client.post(reverse("online:stake_sit", args=[table.pk]))
    assert Seat.objects.filter(table=table, user=newcomer, live=True).exists()

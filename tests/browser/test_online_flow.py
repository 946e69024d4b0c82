"""Online play in Chromium: four people queue and meet at one table; a stake table
fills, is played (through the services, to keep it short) and pays the winners."""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import expect

from games.models import MatchSeat, Seat, Table
from tests.online.conftest import escrow_balance, play_out


@pytest.fixture(autouse=True)
def _quiet_bots(settings):
    settings.BOT_RUNNER = "off"
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def signed_in_page(new_page, server, user):
    """A fresh browser context carrying `user`'s session cookie."""
    client = Client()
    client.force_login(user)
    page = new_page()
    page.context.add_cookies(
        [
            {
                "name": django_settings.SESSION_COOKIE_NAME,
                "value": client.cookies[django_settings.SESSION_COOKIE_NAME].value,
                "url": server.url,
            }
        ]
    )
    return page


def test_four_people_queue_and_are_matched_together(asgi_server, new_page, make_user):
    users = [make_user(name) for name in ("ana", "bruno", "carla", "dario")]
    pages = [signed_in_page(new_page, asgi_server, u) for u in users]
    for count, page in enumerate(pages[:3], start=1):
        page.goto(asgi_server.url + "/play/online/")
        page.get_by_role("button", name="Buscar partida").click()
        expect(page.get_by_test_id("queue-waiting")).to_contain_text(
            f"Jugadores esperando: {count}."
        )
    # The first player's page updates by itself while the others arrive.
    expect(pages[0].get_by_test_id("queue-waiting")).to_contain_text("Jugadores esperando: 3.")
    pages[3].goto(asgi_server.url + "/play/online/")
    pages[3].get_by_role("button", name="Buscar partida").click()

    table = Table.objects.get(mode="online")
    # Each waiting page polls the queue every second and then loads the table: four
    # Chromium pages doing that on a loaded 2-core machine need more than expect's
    # default 5 s (it failed once so, with the table formed and the pages polling).
    for page in pages:
        expect(page).to_have_url(re.compile(rf"/tables/{table.pk}/$"), timeout=30_000)
    assert {s.user_id for s in Seat.objects.filter(table=table, live=True)} == {u.pk for u in users}


def test_a_stake_table_fills_plays_and_pays_the_winners(asgi_server, new_page, make_user):
    users = [make_user(name) for name in ("elena", "fermin", "gloria", "hugo")]
    pages = [signed_in_page(new_page, asgi_server, u) for u in users]
    pages[0].goto(asgi_server.url + "/play/stakes/")
    pages[0].get_by_role("button", name="Abrir una mesa de 100 monedas").click()
    table = Table.objects.get(mode="stake")
    expect(pages[0]).to_have_url(re.compile(rf"/play/stakes/{table.pk}/$"))
    for page in pages[1:]:
        page.goto(asgi_server.url + "/play/stakes/")
        listed = page.get_by_test_id(f"stake-table-{table.pk}")
        expect(listed).to_contain_text("elena")
        listed.get_by_role("button", name=f"Sentarme en la mesa {table.pk}").click()
    # Everyone seated: each page leaves the waiting room for the table by itself.
    for page in pages:
        expect(page).to_have_url(re.compile(rf"/tables/{table.pk}/$"))
    assert escrow_balance(table.pk) == 400

    match = play_out(table)
    winners = {
        ms.user_id
        for ms in MatchSeat.objects.filter(match=match)
        if ms.position % 2 == match.winner
    }
    assert escrow_balance(table.pk) == 0
    for user, page in zip(users, pages, strict=True):
        page.goto(asgi_server.url + "/wallet/")
        expected = 1100 if user.pk in winners else 900  # 1000 - 100 stake (+ 200 pot share)
        expect(page.get_by_role("main")).to_contain_text(str(expected))

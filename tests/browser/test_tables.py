"""Playing in Chromium: a practice match to the end, and a friends room with two people."""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.engine import CARD_CODES, card_name

PASSWORD = "un-Largo-secreto-2026"
RESULT = re.compile("Has ganado la partida|Has perdido la partida")
CARD_NAMES = re.compile("^(" + "|".join(card_name(code) for code in CARD_CODES) + ")$")


@pytest.fixture(autouse=True)
def _bots_in_threads(settings):
    settings.BOT_RUNNER = "thread"
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def sign_up(page, base_url: str, username: str) -> None:
    page.goto(base_url + "/accounts/signup/")
    page.get_by_label("Correo electrónico:").fill(f"{username}@example.com")
    page.get_by_label("Usuario:").fill(username)
    page.get_by_label("Contraseña:", exact=True).fill(PASSWORD)
    page.get_by_label(re.compile("Contraseña \\(de nuevo\\)|Repetir contraseña")).fill(PASSWORD)
    page.get_by_role("button", name="Registrarse").click()
    expect(page.get_by_role("link", name=username)).to_be_visible()


def play_turn_or_finish(page) -> bool:
    """Clicks one playable bid or card when it is this page's turn; True once the match is over."""
    page.locator(".result h2, .play-form button:enabled").first.wait_for(timeout=30_000)
    if page.locator(".result h2").count():
        return True
    # The last playable button: the highest bid, so matches are short.
    target = page.locator(".play-form button:enabled").last
    with contextlib.suppress(PlaywrightError):  # re-rendered under the pointer: look again
        target.click(timeout=2_000)
    return False


def test_a_new_user_plays_a_practice_match_against_easy_bots_to_the_end(asgi_server, page):
    sign_up(page, asgi_server.url, "lucia")
    page.get_by_role("navigation", name="Principal").get_by_role("link", name="Jugar").click()
    page.get_by_label("Reglas").select_option("online")
    page.get_by_label("Nivel de los bots").select_option("easy")
    page.get_by_role("button", name="Empezar la práctica").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    hand = page.get_by_role("region", name="Tu mano")
    expect(hand).to_be_visible(timeout=15_000)
    # Each card is a button named by its Spanish name.
    expect(hand.get_by_role("button", name=CARD_NAMES).first).to_be_visible()
    table_url = page.url
    page.reload()  # a reload puts the player back at the table
    expect(page).to_have_url(table_url)
    moves = 0
    while not play_turn_or_finish(page):
        moves += 1
        assert moves < 400
    expect(page.get_by_role("heading", name=RESULT)).to_be_visible()
    page.get_by_role("button", name="Jugar otra vez").click()
    expect(page).not_to_have_url(table_url)
    expect(page.get_by_role("region", name="Tu mano")).to_be_visible(timeout=15_000)


def test_two_people_play_in_a_friends_room_after_an_invitation(asgi_server, new_page):
    ana, bruno = new_page(), new_page()
    sign_up(ana, asgi_server.url, "ana")
    sign_up(bruno, asgi_server.url, "bruno")
    bruno.goto(asgi_server.url + "/play/")
    expect(bruno.get_by_text("No tienes invitaciones pendientes.")).to_be_visible()

    ana.goto(asgi_server.url + "/play/")
    ana.get_by_role("button", name="Crear una sala").click()
    ana.get_by_label("Invitar por nombre de usuario").fill("nadie")
    ana.get_by_role("button", name="Invitar", exact=True).click()
    expect(ana.get_by_role("alert")).to_contain_text("No hay ningún jugador activo")
    ana.get_by_label("Invitar por nombre de usuario").fill("bruno")
    ana.get_by_role("button", name="Invitar", exact=True).click()

    # The invitation reaches Bruno's open lobby without a reload.
    invitation = bruno.get_by_role("listitem").filter(has_text="ana te invita")
    expect(invitation).to_be_visible()
    invitation.get_by_role("button", name="Aceptar").click()
    expect(bruno).to_have_url(re.compile(r"/tables/\d+/$"))

    expect(ana.get_by_text("Asiento 2: bruno")).to_be_visible()
    # Bruno partners Ana: move him to seat 3, bots take seats 2 and 4.
    ana.get_by_label("Mover el asiento 2 al").select_option("2")
    ana.get_by_role("button", name="Mover").nth(1).click()
    expect(ana.get_by_text("Asiento 3: bruno")).to_be_visible()
    ana.get_by_role("button", name="Dar el asiento 2 a un bot").click()
    ana.get_by_role("button", name="Dar el asiento 4 a un bot").click()
    ana.get_by_role("button", name="Empezar la partida").click()

    for page in (ana, bruno):
        expect(page.get_by_role("region", name="Tu mano")).to_be_visible(timeout=15_000)
    done = {ana: False, bruno: False}
    moves = 0
    while not all(done.values()):
        for page in (ana, bruno):
            if done[page]:
                continue
            try:
                page.locator(".result h2, .play-form button:enabled").first.wait_for(timeout=300)
            except PlaywrightError:
                continue  # not this page's turn
            if page.locator(".result h2").count():
                done[page] = True
                continue
            target = page.locator(".play-form button:enabled").last
            try:
                target.click(timeout=2_000)
                moves += 1
            except PlaywrightError:
                pass
        assert moves < 400
    expect(ana.get_by_role("heading", name=RESULT)).to_be_visible()
    expect(bruno.get_by_role("heading", name=RESULT)).to_be_visible()

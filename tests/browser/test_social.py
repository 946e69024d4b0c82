"""Friends and table talk in Chromium, on a phone (390×844): two people become
friends, one invites the other to a room from the friends page, they talk before the
deal (free text, drawn as text), play, and both say "¡Bien jugado!" at the end.
Screenshots go to SCREENSHOT_DIR when it is set."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import expect

from games.models import Table
from tests.browser.table_moves import RESULT
from tests.browser.test_accessibility import serious_violations
from tests.games.conftest import play_out

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(autouse=True)
def _bots_by_the_test(settings):
    settings.BOT_RUNNER = "off"  # play_out moves the bots itself
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def log_in(page, server, user) -> None:
    client = Client()
    client.force_login(user)
    name = django_settings.SESSION_COOKIE_NAME
    page.context.add_cookies(
        [{"name": name, "value": client.cookies[name].value, "url": server.url}]
    )


def shoot(page, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)


@pytest.fixture
def phone_page(browser):
    """A phone-sized page in its own context (its own cookies); CSP bypassed for axe."""
    contexts = []

    def open_page():
        context = browser.new_context(
            locale="es-ES", viewport=PHONE, bypass_csp=True, service_workers="block"
        )
        context.set_default_timeout(30_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


TALK_SERIOUS = """async () => {
  const result = await axe.run('#talk', {resultTypes: ['violations']});
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({id: v.id, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' '))}));
}"""


def talk_violations(page) -> list[dict]:
    """axe on the talk panel only (the table's own drawing has its own test)."""
    page.add_script_tag(path=str(AXE))
    return page.evaluate(TALK_SERIOUS)


def test_two_friends_invite_talk_and_say_well_played_at_the_end(
    asgi_server, phone_page, make_user, tmp_path
):
    ana_user, bruno_user = make_user("ana"), make_user("bruno")
    ana, bruno = phone_page(), phone_page()
    for page, user in ((ana, ana_user), (bruno, bruno_user)):
        log_in(page, asgi_server, user)

    # Ana asks Bruno to be friends; an unknown name is refused with a clear error.
    ana.goto(asgi_server.url + "/friends/")
    ana.locator("#friend-username").fill("nadie")
    ana.get_by_role("button", name="Enviar solicitud de amistad").click()
    expect(ana.get_by_role("alert")).to_have_text("«nadie»: No hay ningún jugador con ese nombre.")
    expect(ana.locator("#friend-username")).to_have_value("nadie")  # kept, to correct
    shoot(ana, tmp_path, "friends-refused-390")
    ana.locator("#friend-username").fill("Bruno")
    ana.get_by_role("button", name="Enviar solicitud de amistad").click()
    expect(ana.get_by_text("Solicitud de amistad enviada a bruno.")).to_be_visible()
    expect(ana.get_by_text("Esperando la respuesta de bruno.")).to_be_visible()
    assert serious_violations(ana, AXE) == []

    bruno.goto(asgi_server.url + "/friends/")
    expect(bruno.get_by_text("ana quiere ser tu amigo.")).to_be_visible()
    bruno.wait_for_selector("#lobby-root[data-socket=open]", state="attached")
    # A request sent while the page is open appears at once (the lobby socket).
    carla = phone_page()
    log_in(carla, asgi_server, make_user("carla"))
    carla.goto(asgi_server.url + "/friends/")
    carla.locator("#friend-username").fill("bruno")
    carla.get_by_role("button", name="Enviar solicitud de amistad").click()
    expect(bruno.get_by_text("carla quiere ser tu amigo.")).to_be_visible()
    shoot(bruno, tmp_path, "friends-request-390")
    bruno.get_by_role("button", name="Aceptar a ana").click()
    expect(bruno.get_by_text("Ahora sois amigos.")).to_be_visible()
    expect(bruno.get_by_test_id("friend-list")).to_contain_text("ana")

    # Ana opens a room, then invites Bruno from the friends page in one click.
    ana.goto(asgi_server.url + "/play/")
    ana.get_by_role("button", name="Crear una sala").click()
    expect(ana).to_have_url(re.compile(r"/tables/\d+/$"))
    room_url = ana.url
    bruno.goto(asgi_server.url + "/friends/")  # a page of the site open: online
    # Online means a socket open (counted before the server accepts it), which the page
    # opens after it has loaded: on a busy machine Ana's page could be drawn first.
    bruno.wait_for_selector("#lobby-root[data-socket=open]", state="attached")
    ana.goto(asgi_server.url + "/friends/")
    expect(ana.get_by_test_id("friend-list")).to_contain_text("bruno conectado")
    shoot(ana, tmp_path, "friends-390")
    ana.set_viewport_size(LAPTOP)
    shoot(ana, tmp_path, "friends-1280")
    ana.set_viewport_size(PHONE)
    ana.get_by_role("button", name="Invitar a bruno a mi sala").click()
    expect(ana.get_by_text("bruno está invitado a tu sala.")).to_be_visible()

    bruno.reload()
    expect(bruno.get_by_test_id("friend-list")).to_contain_text("ana en una mesa · Amigos")
    bruno.goto(asgi_server.url + "/play/")
    invitation = bruno.get_by_role("listitem").filter(has_text="ana te invita")
    invitation.get_by_role("button", name="Aceptar").click()
    expect(bruno).to_have_url(room_url)

    # Before the deal a friends room may write: the text is drawn as text. Ana's socket
    # opens first: a line is sent over it, and reaches Bruno live or in the room's log
    # his socket opens with.
    ana.goto(room_url)
    expect(ana.get_by_text("Asiento 2: bruno")).to_be_visible()
    expect(ana.locator("#table-root")).to_have_attribute("data-socket", "open")
    ana.get_by_label("Mensaje a la sala").fill("<b>¿Empezamos?</b>")
    ana.get_by_role("button", name="Enviar", exact=True).click()
    line = bruno.locator("#talk-log .talk-line").last
    expect(line).to_have_text(re.compile(r"ana: <b>¿Empezamos\?</b>"))
    assert bruno.locator("#talk-log b").count() == 0
    # A reload loses nothing: the socket that opens brings the room's last lines, each once.
    bruno.reload()
    expect(bruno.locator("#table-root")).to_have_attribute("data-socket", "open")
    expect(bruno.locator("#talk-log .talk-line")).to_have_text(
        [re.compile(r"ana: <b>¿Empezamos\?</b>")]
    )

    ana.get_by_role("button", name="Dar el asiento 3 a un bot").click()
    expect(ana.get_by_role("button", name="Liberar el asiento 3")).to_be_visible()
    ana.get_by_role("button", name="Dar el asiento 4 a un bot").click()
    expect(ana.get_by_role("button", name="Liberar el asiento 4")).to_be_visible()
    ana.get_by_role("button", name="Empezar la partida").click()
    for page in (ana, bruno):
        expect(page.get_by_role("region", name="Tu mano")).to_be_visible(timeout=30_000)
        expect(page.get_by_label("Mensaje a la sala")).to_be_hidden()  # cards are held
    shoot(bruno, tmp_path, "table-talk-playing-390")

    # The other person at the table is listed once, with one Mute toggle (aria-pressed);
    # no talk line carries one, and the bots are not listed.
    people = bruno.locator("#talk-players")
    expect(people.get_by_role("heading", name="Los jugadores")).to_be_visible()
    expect(people.get_by_role("listitem")).to_have_count(1)
    mute = people.get_by_role("button", name="Silenciar a ana", exact=True)
    expect(mute).to_have_attribute("aria-pressed", "false")
    expect(bruno.get_by_role("button", name=re.compile("Silenciar"))).to_have_count(1)
    expect(bruno.locator("#talk-log .talk-mute")).to_have_count(0)
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "true")
    expect(people.get_by_text("charla oculta")).to_be_visible()
    people.scroll_into_view_if_needed()
    shoot(bruno, tmp_path, "table-talk-muted-390")
    # Kept by the server for the match: a reload draws the toggle pressed; then off again.
    bruno.reload()
    expect(bruno.locator("#table-root")).to_have_attribute("data-socket", "open")
    mute = bruno.locator("#talk-players").get_by_role("button", name="Silenciar a ana")
    expect(mute).to_have_attribute("aria-pressed", "true")
    mute.click()
    expect(mute).to_have_attribute("aria-pressed", "false")
    expect(bruno.locator("#talk-players").get_by_text("charla oculta")).to_be_hidden()

    # The match is played out by the server; both pages draw its end.
    table = Table.objects.get(pk=int(room_url.rstrip("/").rsplit("/", 1)[1]))
    play_out(table, {0: ana_user, 1: bruno_user})
    for page in (ana, bruno):
        expect(page.locator(RESULT)).to_be_visible(timeout=60_000)

    ana.get_by_role("button", name="¡Bien jugado!").click()
    expect(bruno.locator("#talk-log .talk-line").last).to_have_text(
        re.compile(r"ana: ¡Bien jugado!")
    )
    bruno.get_by_role("button", name="¡Bien jugado!").click()
    for page in (ana, bruno):
        log = page.locator("#talk-log")
        expect(log).to_contain_text("ana: ¡Bien jugado!")
        expect(log).to_contain_text("bruno: ¡Bien jugado!")
    # After the match: block or report the others from the end panel.
    block = ana.get_by_role("link", name="Bloquear a bruno")
    expect(block).to_be_visible()
    expect(ana.get_by_role("link", name="Denunciar a bruno")).to_be_visible()
    expect(ana.locator("#talk-players .talk-mute")).to_have_count(1)  # still one toggle
    ana.locator("#talk").scroll_into_view_if_needed()
    shoot(ana, tmp_path, "table-talk-end-390")
    assert talk_violations(ana) == []
    ana.set_viewport_size(LAPTOP)
    shoot(ana, tmp_path, "table-talk-end-1280")
    ana.set_viewport_size(PHONE)
    # Blocking asks first; cancelled, nothing happens; confirmed, back at the table.
    block.click()
    expect(ana.get_by_role("heading", name="¿Bloquear a bruno?")).to_be_visible()
    shoot(ana, tmp_path, "block-confirm-390")
    ana.set_viewport_size(LAPTOP)
    shoot(ana, tmp_path, "block-confirm-1280")
    ana.set_viewport_size(PHONE)
    ana.get_by_role("link", name="Cancelar").click()
    expect(ana).to_have_url(room_url)
    # The log arrives over the socket after the page is drawn; the links above it stay put.
    expect(ana.locator("#talk-log .talk-line")).to_have_count(3)
    ana.get_by_role("link", name="Bloquear a bruno").click()
    ana.get_by_role("button", name="Bloquear a bruno").click()
    expect(ana).to_have_url(room_url)
    expect(ana.locator("#talk").get_by_role("status")).to_have_text("bruno está bloqueado.")
    ana.locator("#talk").scroll_into_view_if_needed()
    shoot(ana, tmp_path, "table-blocked-390")


def test_at_a_table_with_only_bots_the_talk_panel_lists_nobody(
    asgi_server, phone_page, make_user, tmp_path
):
    """No empty "Los jugadores" heading: with nobody else human there is no list."""
    from games import services as games

    user = make_user("sola")
    table = games.table_create_practice(user=user, rules="online", bot_level="easy")
    page = phone_page()
    log_in(page, asgi_server, user)
    page.goto(f"{asgi_server.url}/tables/{table.pk}/")
    expect(page.locator("#table-root")).to_have_attribute("data-socket", "open")
    expect(page.get_by_role("region", name="Tu mano")).to_be_visible(timeout=30_000)
    play_out(table, {0: user})
    expect(page.locator(RESULT)).to_be_visible(timeout=60_000)
    talk = page.locator("#talk")
    expect(talk.get_by_role("button", name="¡Bien jugado!")).to_be_visible()
    expect(page.locator("#talk-players")).to_be_hidden()
    expect(talk.get_by_role("heading", name="Los jugadores")).to_have_count(0)
    expect(talk.get_by_role("button", name=re.compile("Silenciar|Bloquear"))).to_have_count(0)
    talk.scroll_into_view_if_needed()
    shoot(page, tmp_path, "practice-talk-end-390")

"""Playing in Chromium: the live table as a person sees and uses it (a phone and a
laptop, the mouse and the keyboard), and a friends room with two people."""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import expect

from games.models import Match
from games.state import engine_match
from tests.browser.table_moves import (
    RESULT,
    next_to_move,
    play_one,
    quick_tricks,
    wait_for_turn_or_end,
)
from tests.history.conftest import store_finished

PASSWORD = "un-Largo-secreto-2026"
RESULT_TITLE = re.compile("Has ganado la partida|Has perdido la partida")
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}

# The whole hand on the screen, never cut by its edges (the talk panel may follow below
# the table: on a short screen the felt keeps its seats' height and the page scrolls to
# the talk rather than squeezing the seats over the hand).
HAND_FITS = """() => {
  const hand = document.querySelector('.tv-mine');
  const r = hand.getBoundingClientRect();
  const page = document.scrollingElement;
  return {top: r.top, bottom: r.bottom, left: r.left, right: r.right,
          width: window.innerWidth, height: window.innerHeight,
          scrolls: page.scrollWidth > window.innerWidth};  // never sideways
}"""

# How long each completed trick (its last card in, its winner marked) stays on show.
WATCH_TRICKS = """() => {
  window.trickTimes = [];
  let since = null;
  new MutationObserver(() => {
    const done = document.querySelector('.tv-trick .tv-winner-mark') !== null;
    if (done && since === null) since = performance.now();
    if (!done && since !== null) {
      window.trickTimes.push(performance.now() - since);
      since = null;
    }
  }).observe(document.getElementById('table-view'), {childList: true, subtree: true});
}"""


@pytest.fixture(autouse=True)
def _bots_in_threads(settings):
    settings.BOT_RUNNER = "thread"
    settings.BOT_MOVE_PAUSE_SECONDS = 0


@pytest.fixture
def new_page(new_page):
    """Pages that wait longer for each event: bots, server and browser share 2 CPUs."""

    def open_page(*args, **kwargs):
        page = new_page(*args, **kwargs)
        page.set_default_timeout(30_000)
        return page

    return open_page


def sign_up(page, base_url: str, username: str) -> None:
    page.goto(base_url + "/accounts/signup/")
    page.get_by_label("Correo electrónico:").fill(f"{username}@example.com")
    page.get_by_label("Usuario:").fill(username)
    page.get_by_label("Contraseña:", exact=True).fill(PASSWORD)
    page.get_by_label(re.compile("Contraseña \\(de nuevo\\)|Repetir contraseña")).fill(PASSWORD)
    page.get_by_role("button", name="Registrarse").click()
    expect(page.get_by_role("link", name=username)).to_be_attached()


def log_in(page, server, user) -> None:
    """Gives the browser `user`'s session cookie (the login form has its own test)."""
    client = Client()
    client.force_login(user)
    name = django_settings.SESSION_COOKIE_NAME
    page.context.add_cookies(
        [{"name": name, "value": client.cookies[name].value, "url": server.url}]
    )


def start_practice(page, base_url: str, rules: str | None = None) -> None:
    page.goto(base_url + "/play/")
    if rules is not None:
        page.locator('form[action="/play/practice/"] select[name="rules"]').select_option(rules)
    page.get_by_label("Nivel de los bots").select_option("easy")
    page.get_by_role("button", name="Empezar la práctica").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.get_by_role("region", name="Tu mano")).to_be_visible(timeout=15_000)


def assert_hand_fits(page) -> None:
    box = page.evaluate(HAND_FITS)
    assert not box["scrolls"], box
    assert box["top"] >= 0 and box["bottom"] <= box["height"], box
    assert box["left"] >= 0 and box["right"] <= box["width"], box


def test_a_practice_match_on_a_phone_fits_names_its_seats_and_sums_up_the_last_hand(
    asgi_server, new_page, player
):
    # Three matches finished and one abandoned: a reputation of 75% · 75%, beside the name.
    store_finished([player, None, None, None], 3)
    store_finished([player, None, None, None], 1, abandoned=(0,))
    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, asgi_server, player)
    start_practice(page, asgi_server.url)
    table_url = page.url
    reliability = page.locator(".tv-mine .tv-seat-name .reliability")
    expect(reliability).to_have_attribute(
        "title", "Termina el 75% de sus partidas, el 75% sin turnos agotados"
    )
    expect(reliability.locator(".visually-hidden")).to_have_text(
        "(reputación: 75% de partidas terminadas, 75% sin turnos agotados)"
    )
    expect(reliability).to_have_class(re.compile("reliability-low"))
    expect(page.locator(".tv-legend.reputation-legend")).to_be_visible()

    # Seats are named after people (bots with their badge and level), never "Bot".
    seats = page.locator(".tv-seat")
    expect(seats).to_have_count(3)
    for name in seats.locator(".tv-name").all_text_contents():
        assert name.strip() and name.strip().lower() != "bot", name
    expect(seats.locator(".tv-badge-bot")).to_have_text(["bot, Fácil"] * 3)
    expect(page.locator(".tv-seat--top .tv-badge-partner")).to_be_visible()
    expect(page.locator(".tv-mine-head .tv-badge-you")).to_have_text("tú")  # beside our name
    expect(page.get_by_role("region", name="Baza")).to_be_visible()

    # Ten moves (anyone's) with no request but the socket; a completed trick stays
    # on show at least 800 ms after its last card.
    page.wait_for_load_state("networkidle")  # the page and its deck of cards are loaded
    requests = []
    page.on("request", lambda request: requests.append(request.url))
    page.evaluate(WATCH_TRICKS)
    start = int(page.locator("#table-view").get_attribute("data-version"))
    while int(page.locator("#table-view").get_attribute("data-version")) < start + 10:
        if wait_for_turn_or_end(page):
            break
        assert_hand_fits(page)
        play_one(page)
    assert requests == []
    page.wait_for_function("() => window.trickTimes.length > 0", timeout=60_000)
    assert min(page.evaluate("window.trickTimes")) >= 800

    # A reload puts the player back at the table; then to the end of the match, at the
    # test's pace (completed tricks leave at once: their pace is checked above).
    quick_tricks(page)
    page.reload()
    expect(page).to_have_url(table_url)
    for _move in range(400):
        if wait_for_turn_or_end(page):
            break
        assert_hand_fits(page)
        play_one(page)
    result = page.locator(RESULT)
    expect(result.get_by_role("heading", name=RESULT_TITLE)).to_be_visible()
    match = Match.objects.get(table__mode="practice")
    last_hand = engine_match(match).hand_no
    expect(page.locator(".tv-summary h2")).to_have_text(f"Resultado de la mano {last_hand}")
    page.get_by_role("button", name="Jugar otra vez").click()
    expect(page).not_to_have_url(table_url)
    expect(page.get_by_role("region", name="Tu mano")).to_be_visible(timeout=15_000)


def test_a_whole_hand_is_played_with_the_keyboard_only_on_a_laptop(asgi_server, new_page, player):
    page = new_page()
    page.set_viewport_size(LAPTOP)
    log_in(page, asgi_server, player)
    quick_tricks(page)
    start_practice(page, asgi_server.url)
    hand_label = page.locator(".tv-score .tv-muted").last
    hand_we_played = None
    for _move in range(100):
        assert not wait_for_turn_or_end(page)
        # A hand can end without a card of ours (our partner bid and we sat out):
        # then we go on until the end of a hand we played in.
        if hand_we_played is not None and hand_label.inner_text() != hand_we_played:
            break
        assert_hand_fits(page)
        version = page.locator("#table-view").get_attribute("data-version")
        # Your turn brings the focus to your bids or your hand.
        focused = page.evaluate("document.activeElement.className")
        if page.locator(".tv-bids button").count():
            assert "tv-bid" in focused, focused
            page.keyboard.press("Enter")  # the first bid offered: pass
        else:
            assert "tv-hand-card" in focused, focused
            cards = page.locator(".tv-hand-card")
            playable = [
                i
                for i in range(cards.count())
                if "tv-hand-card--playable" in cards.nth(i).get_attribute("class")
            ]
            page.keyboard.press("End")
            expect(cards.last).to_be_focused()
            page.keyboard.press("ArrowLeft")
            page.keyboard.press(str(playable[-1] + 1))  # numbers choose a card
            expect(cards.nth(playable[-1])).to_be_focused()
            hand_we_played = hand_label.inner_text()
            page.keyboard.press("Enter")
        page.wait_for_function(
            "(v) => document.getElementById('table-view').dataset.version !== v",
            arg=version,
        )
    else:
        raise AssertionError("no hand we played in ended within 100 moves")
    # The hand is over: it is summed up, numbered as the hand just played.
    hand_no = re.search(r"\d+", hand_we_played).group()
    expect(page.locator(".tv-summary h2")).to_have_text(f"Resultado de la mano {hand_no}")


def test_a_player_who_abandons_sees_a_loss(asgi_server, new_page, player):
    page = new_page()
    log_in(page, asgi_server, player)
    quick_tricks(page)
    # Classic rules: a match to 11 points, about half as many hands for the bots to play.
    start_practice(page, asgi_server.url, rules="classic")
    table_url = page.url
    page.on("dialog", lambda dialog: dialog.accept())
    page.get_by_role("button", name="Abandonar la partida (cuenta como derrota)").click()
    expect(page).to_have_url(re.compile(r"/play/$"))
    # The bots finish the match; back at the table, the match counts as lost.
    page.goto(table_url)
    expect(page.locator(RESULT)).to_contain_text(
        "Abandonaste la partida: cuenta como derrota.", timeout=180_000
    )


def test_two_people_play_in_a_friends_room_after_an_invitation(asgi_server, new_page):
    ana, bruno = new_page(), new_page()
    sign_up(ana, asgi_server.url, "ana")
    sign_up(bruno, asgi_server.url, "bruno")
    for page in (ana, bruno):
        quick_tricks(page)
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
    expect(ana.get_by_role("button", name="Liberar el asiento 2")).to_be_visible()
    ana.get_by_role("button", name="Dar el asiento 4 a un bot").click()
    expect(ana.get_by_role("button", name="Liberar el asiento 4")).to_be_visible()
    ana.get_by_role("button", name="Empezar la partida").click()

    for page in (ana, bruno):
        expect(page.get_by_role("region", name="Tu mano")).to_be_visible(timeout=15_000)
    expect(bruno.locator(".tv-seat--top .tv-name")).to_have_text("ana")
    playing = [ana, bruno]
    moves = 0
    while playing:
        page = next_to_move(playing)  # whoever holds the turn, or a page whose match ended
        if page.locator(RESULT).count():
            playing.remove(page)
            continue
        play_one(page)
        moves += 1
        assert moves < 400
    for page in (ana, bruno):
        expect(page.locator(RESULT).get_by_role("heading", name=RESULT_TITLE)).to_be_visible()

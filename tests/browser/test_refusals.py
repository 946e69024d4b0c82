"""Refusals a person sees (issue 41's phone pass), in Chromium at 390×844:

- a 4th tab watching tables is refused by the server (close 4435): the page says why
  and opens no other socket (it used to reconnect many times a second over a frozen
  board saying "reconnecting");
- a refusal that comes back through htmx (a 4xx answer, which htmx 2 does not swap
  by itself) is shown: the 4th analysis of the day asked of the coach (429).

Screenshots go to SCREENSHOT_DIR when it is set."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings as django_settings
from playwright.sync_api import expect

from tests.browser.test_accessibility import axe_script, serious_violations  # noqa: F401
from tests.browser.test_social import LAPTOP, PHONE, log_in, shoot
from tests.watching import online_table

# Counts the sockets a page opens (every construction, refused or not).
COUNT_SOCKETS = """(() => {
  const Original = window.WebSocket;
  window.__sockets = 0;
  window.WebSocket = function (...args) {
    window.__sockets += 1;
    return new Original(...args);
  };
  window.WebSocket.prototype = Original.prototype;
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
})();"""


@pytest.fixture(autouse=True)
def _bots_still(settings):
    settings.BOT_RUNNER = "off"  # the table stays as set up while it is watched
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def test_a_fourth_watching_tab_says_why_and_stops_trying(
    asgi_server,
    browser,
    make_user,
    player,
    axe_script,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
):
    limit = django_settings.WATCH_SOCKETS_PER_USER
    assert limit == 3
    table = online_table(make_user, "ana_")
    context = browser.new_context(
        locale="es-ES", viewport=PHONE, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(30_000)
    context.add_init_script(COUNT_SOCKETS)
    log_in(context.new_page(), asgi_server, player)
    url = f"{asgi_server.url}/tables/{table.pk}/"
    for _tab in range(limit):
        tab = context.new_page()
        tab.goto(url)
        expect(tab.locator("#table-root")).to_have_attribute("data-socket", "open")
    fourth = context.new_page()
    fourth.goto(url)
    root = fourth.locator("#table-root")
    expect(root).to_have_attribute("data-socket", "refused")
    expect(root).to_have_attribute("data-close-code", "4435")
    alert = fourth.get_by_role("alert").filter(has_text="Ya estás mirando")
    expect(alert).to_have_text(
        "Ya estás mirando en 3 pestañas más. Cierra una y vuelve a cargar esta página."
    )
    expect(alert).to_be_visible()
    expect(fourth.locator("#connection-status")).to_have_text("")
    # No other attempt: one socket in five seconds (it used to be 16–20 in ten).
    fourth.wait_for_timeout(5_000)
    assert fourth.evaluate("window.__sockets") == 1
    expect(root).to_have_attribute("data-socket", "refused")
    assert fourth.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert serious_violations(fourth, axe_script) == []
    shoot(fourth, tmp_path, "refused-4435-390x844")
    fourth.set_viewport_size(LAPTOP)
    shoot(fourth, tmp_path, "refused-4435-1280x800")
    context.close()


def test_a_fourth_analysis_of_the_day_says_why_it_is_refused(
    asgi_server,
    browser,
    player,
    settings,
    axe_script,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
):
    from coach import services as coach
    from tests.coach.conftest import QUINTOLA_FAILS, failing_quintola_deals, store_one_hand

    settings.COACH_RUNNER = "off"  # the three analyses asked wait; only the count matters
    assert settings.COACH_DAILY_ANALYSES == 3
    first, _ = failing_quintola_deals()
    matches = [store_one_hand([player, None, None, None], first, QUINTOLA_FAILS) for _ in "1234"]
    context = browser.new_context(
        locale="es-ES", viewport=PHONE, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, player)
    page.goto(f"{asgi_server.url}/history/matches/{matches[3].pk}/")
    coach_region = page.locator("#coach")
    expect(coach_region).to_contain_text("Te quedan 3 análisis hoy (de 3).")
    # Meanwhile, in another tab, the day's three analyses are asked for.
    for match in matches[:3]:
        coach.analysis_request(user=player, match_id=match.pk)
    page.get_by_role("button", name="Analizar esta partida").click()
    alert = coach_region.get_by_role("alert")
    expect(alert).to_have_text(
        "Ya has usado los análisis de hoy. Con un pase VIP son ilimitados; si no, vuelve mañana."
    )
    expect(alert).to_be_visible()
    expect(coach_region).to_contain_text("Te quedan 0 análisis hoy (de 3).")
    assert serious_violations(page, axe_script) == []
    coach_region.scroll_into_view_if_needed()
    shoot(page, tmp_path, "coach-429-390x844")
    page.set_viewport_size(LAPTOP)
    shoot(page, tmp_path, "coach-429-1280x800")

    # A refusal whose answer is a whole error page (a match that is gone): its message
    # beside the button, the region left as it was.
    page.set_viewport_size(PHONE)
    page.goto(f"{asgi_server.url}/history/matches/{matches[3].pk}/")
    page.evaluate(
        """(id) => document.querySelector('#coach form').setAttribute(
             'hx-post', '/coach/matches/' + id + '/analyse/')""",
        999_999,
    )
    page.evaluate("htmx.process(document.querySelector('#coach'))")
    page.get_by_role("button", name="Analizar esta partida").click()
    expect(page.locator(".htmx-refusal")).to_have_text(
        "Página no encontrada. No hay nada en esta dirección. Puede que se haya movido o "
        "que el enlace sea incorrecto."
    )
    expect(page.locator(".htmx-refusal")).to_have_attribute("role", "alert")
    shoot(page, tmp_path, "htmx-404-390x844")
    context.close()

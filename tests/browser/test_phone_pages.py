"""Issue 41's phone pass, in Chromium at 390×844: the navigation folds into a menu,
and no page of the site is wider than the phone.

Screenshots go to SCREENSHOT_DIR when it is set."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility import axe_script, serious_violations  # noqa: F401
from tests.browser.test_social import LAPTOP, PHONE, log_in, shoot


@pytest.fixture(autouse=True)
def _bots_still(settings):
    settings.BOT_RUNNER = "off"
    settings.BOT_MOVE_PAUSE_SECONDS = 0


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        locale="es-ES", viewport=PHONE, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()


def header_height(page) -> float:
    return page.locator(".site-header").bounding_box()["height"]


def test_the_navigation_folds_into_a_menu_on_a_phone(
    asgi_server,
    phone,
    player,
    axe_script,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
):
    log_in(phone, asgi_server, player)
    phone.goto(asgi_server.url + "/ratings/")
    menu = phone.get_by_role("button", name="Menú")
    links = phone.get_by_role("navigation", name="Principal")
    expect(menu).to_be_visible()
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(links).to_be_hidden()
    assert header_height(phone) <= 70
    assert serious_violations(phone, axe_script) == []
    shoot(phone, tmp_path, "nav-folded-390x844")

    # By keyboard: the skip link, then the brand, then the menu button; Enter opens it.
    phone.keyboard.press("Tab")
    phone.keyboard.press("Tab")
    phone.keyboard.press("Tab")
    expect(menu).to_be_focused()
    phone.keyboard.press("Enter")
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(links).to_be_visible()
    phone.keyboard.press("Tab")
    expect(links.get_by_role("link", name="Cómo se juega")).to_be_focused()
    for name in ("Jugar", "Mirar", "Liga", "Ranking"):
        phone.keyboard.press("Tab")
        expect(links.get_by_role("link", name=name)).to_be_focused()
    assert serious_violations(phone, axe_script) == []
    shoot(phone, tmp_path, "nav-open-390x844")
    # Escape folds it again and the focus goes back to the button.
    phone.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu).to_be_focused()
    expect(links).to_be_hidden()
    # A link of the open menu takes you there.
    menu.click()
    links.get_by_role("link", name="Liga").click()
    expect(phone).to_have_url(asgi_server.url + "/league/")
    assert header_height(phone) <= 70

    # On a laptop the links are always there, and no menu button.
    phone.set_viewport_size(LAPTOP)
    expect(menu).to_be_hidden()
    expect(links).to_be_visible()
    expect(links.get_by_role("link", name="Historial")).to_be_visible()
    shoot(phone, tmp_path, "nav-1280x800")

    # Signed out too.
    phone.context.clear_cookies()
    phone.set_viewport_size(PHONE)
    phone.goto(asgi_server.url + "/")
    assert header_height(phone) <= 70
    menu.click()
    expect(links.get_by_role("link", name="Registrarse")).to_be_visible()
    shoot(phone, tmp_path, "nav-signed-out-open-390x844")

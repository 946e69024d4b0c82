"""The player page's achievements in Chromium: phone and desktop, axe clean, each one
read with its state (screenshots in $SCREENSHOTS_DIR when set, to look at)."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from achievements.services import achievements_for_match
from tests.browser.test_accessibility import serious_violations
from tests.history.conftest import store_finished


@pytest.fixture(scope="module")
def axe_script() -> Path:
    return Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"


@pytest.mark.parametrize("size", [(390, 844), (1280, 800)], ids=["phone", "desktop"])
def test_the_player_page_shows_each_achievement_with_its_state(
    asgi_server, browser, axe_script, player, stranger, size
):
    for match in store_finished([player, stranger, None, None], 12):
        achievements_for_match(match_id=match.pk)
    width, height = size
    context = browser.new_context(
        locale="es-ES", viewport={"width": width, "height": height}, bypass_csp=True
    )
    page = context.new_page()
    page.goto(asgi_server.url + f"/u/{player.username}/record/")
    section = page.get_by_role("region", name="Logros")
    expect(section).to_be_visible()
    items = section.get_by_role("listitem")
    expect(items.first).to_contain_text("Conseguido")
    expect(items.last).to_contain_text("Bloqueado")
    expect(section).to_contain_text("Gana 10 partidas seguidas.")
    # Nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    shots = os.environ.get("SCREENSHOTS_DIR")
    if shots:
        section.scroll_into_view_if_needed()
        page.screenshot(path=f"{shots}/achievements-{width}x{height}.png")
        section.screenshot(path=f"{shots}/achievements-section-{width}x{height}.png")
    assert serious_violations(page, axe_script) == []
    context.close()

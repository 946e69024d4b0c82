"""In Chromium: the replay of a finished match draws its cards as named images, and
window.CuatrolaCards builds the same cards from script."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_history_flow import log_in
from tests.games.hidden import card_name
from tests.history.conftest import play_practice
from tests.threads import run_together

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR")


@pytest.fixture(autouse=True)
def _bots_off(settings):
    from games.state import cache_clear

    settings.BOT_MOVE_PAUSE_SECONDS = 0
    settings.BOT_RUNNER = "off"
    cache_clear()


def _shoot(page, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SCREENSHOTS}/{name}.png", full_page=True)


def test_the_replay_shows_drawn_cards_named_in_the_page_language(asgi_server, new_page, player):
    # Played in a thread of its own: this one runs Playwright's event loop.
    [match] = run_together(1, lambda _index: play_practice(player))
    page = new_page("en-GB")
    page.set_viewport_size({"width": 390, "height": 844})
    log_in(page, asgi_server, player)
    page.context.add_cookies([{"name": "django_language", "value": "en", "url": asgi_server.url}])
    page.goto(f"{asgi_server.url}/history/matches/{match.pk}/?step=12")

    replay = page.locator("#replay")
    cards = replay.locator("img.card[data-card]")
    expect(cards.first).to_be_visible()
    first = cards.first.get_attribute("data-card")
    expect(replay.get_by_role("img", name=card_name(first, "en"), exact=True).first).to_be_visible()
    # Every drawing loaded (a broken URL would give a zero natural width).
    page.wait_for_function(
        """() => [...document.querySelectorAll('img.card')].every(
             (img) => img.complete && img.naturalWidth > 0)"""
    )
    _shoot(page, "replay-390x844")

    made = page.evaluate(
        """() => {
          const face = CuatrolaCards.face("11c", {size: "trick"});
          const back = CuatrolaCards.back({size: "hand"});
          const quiet = CuatrolaCards.back({size: "hand", label: ""});
          document.querySelector("#replay").append(face, back, quiet);
          let error = "";
          try { CuatrolaCards.face("13x", {size: "trick"}); } catch (e) { error = e.message; }
          return {face: face.className, back: back.alt, quiet: quiet.getAttribute("aria-hidden"),
                  error};
        }"""
    )
    assert made == {
        "face": "card card--trick",
        "back": "face-down card",
        "quiet": "true",
        "error": 'CuatrolaCards: "13x" is not a card code',
    }
    made_here = page.locator("#replay > img.card")
    expect(made_here.nth(0)).to_have_accessible_name("knight of cups")
    expect(made_here.nth(0)).to_be_visible()
    expect(page.get_by_role("img", name="face-down card", exact=True)).to_have_count(1)
    page.wait_for_function(
        """() => [...document.querySelectorAll('#replay > img.card')].every(
             (img) => img.complete && img.naturalWidth > 0)"""
    )

    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{asgi_server.url}/history/matches/{match.pk}/?step=12")
    expect(page.locator("#replay img.card").first).to_be_visible()
    _shoot(page, "replay-1280x800")

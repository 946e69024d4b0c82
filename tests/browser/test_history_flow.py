"""In Chromium: play a practice match to its end, find it in the history, replay it
to the last card with the buttons and the keyboard."""

from __future__ import annotations

import re

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import expect

from games.models import Match, MatchStatus
from tests.browser.table_moves import play_to_the_end, quick_tricks


@pytest.fixture(autouse=True)
def _quick_bots(settings, monkeypatch):
    from channels.layers import channel_layers

    from games import bot_runner
    from games.state import cache_clear

    settings.BOT_RUNNER = "thread"
    settings.BOT_MOVE_PAUSE_SECONDS = 0
    # Earlier tests of the run may have left bot drivers behind (table ids are reused
    # after a flush): this test gets its own pool and an empty "being driven" set.
    monkeypatch.setattr(bot_runner, "_executor", None)
    monkeypatch.setattr(bot_runner, "_driving", set())
    # Match ids come back after earlier tests' rollbacks: no cached engine state may survive.
    cache_clear()
    # A channel layer made by an earlier test belongs to that test's event loop.
    monkeypatch.setattr(channel_layers, "backends", {})


def log_in(page, server, user) -> None:
    """Gives the browser `user`'s session cookie (the login form has its own test)."""
    client = Client()
    client.force_login(user)
    name = django_settings.SESSION_COOKIE_NAME
    page.context.add_cookies(
        [{"name": name, "value": client.cookies[name].value, "url": server.url}]
    )


def test_a_practice_match_played_in_the_browser_is_replayed_to_the_last_card(
    asgi_server, page, player
):
    log_in(page, asgi_server, player)
    quick_tricks(page)
    page.set_default_timeout(30_000)  # a loaded machine: bots and the server share 2 CPUs
    page.goto(asgi_server.url + "/play/")
    page.get_by_role("button", name="Empezar la práctica").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    play_to_the_end(page)
    match = Match.objects.get(table__mode="practice")
    assert match.status == MatchStatus.FINISHED

    page.locator("summary", has_text="Menú").click()  # the table page folds the site's menu
    page.get_by_role("link", name="Historial", exact=True).click()
    expect(page.get_by_role("heading", name="Historial de partidas")).to_be_visible()
    page.get_by_role("link", name="Ver y repetir").click()
    expect(page).to_have_url(re.compile(rf"/history/matches/{match.pk}/$"))

    step = page.locator("[data-replay-step]")
    expect(step).to_have_attribute("data-replay-step", "0")
    page.get_by_role("link", name="Carta siguiente").click()  # htmx swaps the replay only
    expect(step).to_have_attribute("data-replay-step", "1")
    page.keyboard.press("ArrowRight")
    expect(step).to_have_attribute("data-replay-step", "2")
    page.keyboard.press("End")
    expect(step).to_have_attribute("data-replay-step", str(match.version))
    expect(page.locator("#replay")).to_contain_text("Fin de la partida.")
    expect(page.locator("#replay")).to_contain_text(f"{match.score_a}–{match.score_b}")

"""In Chromium, at a phone's and a laptop's size: the history list reads a score of 0
as 0 and names bots as the table named them; the name in the navigation opens the
player's profile, with their figures in short and a link to their player page.
Screenshots go to $SCREENSHOT_DIR."""

from __future__ import annotations

from playwright.sync_api import expect

from games.frames.builder import bot_names
from tests.browser.test_cards import _shoot as shoot
from tests.browser.test_history_flow import log_in
from tests.history.conftest import store_finished

SIZES = {"390x844": {"width": 390, "height": 844}, "1280x800": {"width": 1280, "height": 800}}


def test_the_history_list_reads_0_as_0_and_names_the_bots(asgi_server, new_page, make_user):
    ana, bea = make_user("ana"), make_user("bea")
    # Index 0 of the batch: pair 0 (ana and her partner, a bot) won 21–0 against bea
    # and a bot.
    match = store_finished([ana, bea, None, None], 1)[0]
    partner, opponent = bot_names(seed=match.seed, taken={"ana", "bea"})[2:4]
    page = new_page()
    log_in(page, asgi_server, ana)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(asgi_server.url + "/history/")
        row = page.locator("table.history-table tbody tr").first
        cells = row.locator("td")
        expect(cells.nth(2)).to_have_text(partner)
        expect(cells.nth(3)).to_have_text(f"bea, {opponent}")
        expect(cells.nth(4)).to_have_text("21–0")
        shoot(page, f"history-words-{size}")


def test_the_navigations_name_opens_the_profile_with_figures_and_the_player_page(
    asgi_server, new_page, make_user
):
    ana, bea = make_user("ana"), make_user("bea")
    store_finished([ana, bea, None, None], 3)
    store_finished([ana, bea, None, None], 1, winner=1)
    page = new_page()
    log_in(page, asgi_server, ana)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(asgi_server.url + "/")
        menu = page.get_by_role("button", name="Menú")  # folded on a phone
        if menu.is_visible():
            menu.click()
        page.get_by_role("navigation", name="Principal").get_by_role("link", name="ana").click()
        expect(page).to_have_url(asgi_server.url + "/u/ana/")
        summary = page.get_by_test_id("player-summary")
        expect(summary).to_contain_text("Partidas jugadas4")
        expect(summary).to_contain_text("Partidas ganadas3 (75%)")
        shoot(page, f"profile-words-{size}")
    page.get_by_role("link", name="Página de jugador: todas las cifras y gráficos").click()
    expect(page).to_have_url(asgi_server.url + "/u/ana/record/")
    expect(page.get_by_role("heading", name="ana", level=1)).to_be_visible()

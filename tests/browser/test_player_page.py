"""In Chromium: the player page's charts and their tables, the history's filters and
a replay's score chart, at a phone's and a laptop's size (screenshots kept in
SCREENSHOT_DIR when it is set)."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

from django.utils import timezone
from playwright.sync_api import expect

from tests.browser.test_history_flow import log_in
from tests.history.conftest import store_finished, store_played

SIZES = {"phone": {"width": 390, "height": 844}, "laptop": {"width": 1280, "height": 800}}


def _shoot(page, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"{name}.png"), full_page=True)
    if os.environ.get("SCREENSHOT_DIR"):  # screen-sized parts, easier to look at
        size = page.viewport_size
        height = page.evaluate("document.documentElement.scrollHeight")
        for part, top in enumerate(range(0, height, size["height"]), start=1):
            clip = {"x": 0, "y": top, "width": size["width"], "height": size["height"]}
            page.screenshot(path=str(folder / f"{name}-{part}.png"), full_page=True, clip=clip)


def test_a_player_reads_their_charts_and_tables_then_filters_the_history_to_a_replay(
    asgi_server, new_page, make_user, tmp_path
):
    ana, bea, carlos = (make_user(name) for name in ("ana", "bea", "carlos"))
    now = timezone.now()
    for months_ago, count in ((0, 4), (1, 6), (3, 2), (5, 5)):
        when = now - timedelta(days=30 * months_ago)
        store_finished([ana, bea, carlos, None], count, mode="online", finished_at=when)
        store_finished(
            [ana, None, None, bea], count // 2, mode="friends", winner=1, finished_at=when
        )
    store_finished([ana, None, None, None], 1, mode="practice", abandoned=(0,))
    replayed = store_played([ana, None, None, None], seed=5)

    page = new_page()
    log_in(page, asgi_server, ana)
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(f"{asgi_server.url}/u/ana/record/")
        chart = page.get_by_role("img", name="Resultados por modo")
        expect(chart).to_be_visible()
        expect(page.get_by_test_id("reliability-tile")).to_contain_text("96%")  # 26 of 27 finished
        summary = page.get_by_text("Resultados por modo: las cifras en una tabla")
        summary.focus()
        page.keyboard.press("Enter")
        table = page.locator("details.chart-table[open] table").first
        expect(table).to_be_visible()
        expect(table.get_by_role("row", name="En línea")).to_contain_text("17")
        expect(page.get_by_role("img", name="Partidas mes a mes")).to_be_visible()
        expect(page.get_by_test_id("chart-coins")).to_be_visible()
        _shoot(page, tmp_path, f"player-page-{size}")
        # Nothing wider than the screen: wide tables scroll inside their box.
        assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    page.goto(f"{asgi_server.url}/history/")
    page.get_by_label("Modalidad").select_option("practice")
    page.get_by_label("Con el jugador").fill("")
    page.get_by_role("button", name="Mostrar las partidas").click()
    rows = page.locator(".history-table tbody tr")
    expect(rows).to_have_count(2)
    _shoot(page, tmp_path, "history-filtered-laptop")
    page.get_by_label("Desde").fill("2000-01-01")
    page.get_by_label("Con el jugador").fill("nadie")
    page.get_by_role("button", name="Mostrar las partidas").click()
    expect(page.get_by_test_id("history-invalid")).to_be_visible()
    expect(page.get_by_text("No hay ningún jugador llamado nadie.")).to_be_visible()

    page.goto(f"{asgi_server.url}/history/?mode=practice")
    page.locator(f'a[href="/history/matches/{replayed.pk}/"]').click()
    expect(page.get_by_role("img", name="Marcador mano a mano")).to_be_visible()
    page.set_viewport_size(SIZES["phone"])
    _shoot(page, tmp_path, "replay-score-chart-phone")

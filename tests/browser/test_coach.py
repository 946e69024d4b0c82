"""In Chromium, on a phone (390×844): ask the coach to analyse a match, watch the
region fill in, find the blunder marked in the replay with the alternative and its
value, practise the position, and see the trend on the player page; no serious axe
violation on the way."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from coach.models import Decision
from games.models import Table
from tests.browser.test_accessibility import axe_script, serious_violations  # noqa: F401
from tests.browser.test_history_flow import log_in
from tests.coach.conftest import QUINTOLA_FAILS, failing_quintola_deals, store_one_hand

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(autouse=True)
def _coach_in_a_thread(settings, monkeypatch):
    from coach import runner

    settings.COACH_RUNNER = "thread"
    settings.COACH_SAMPLES = 40
    settings.COACH_POLL_SECONDS = 1
    settings.BOT_RUNNER = "off"
    monkeypatch.setattr(runner, "_executor", None)


def test_the_replay_marks_the_blunder_and_the_position_can_be_practised(
    asgi_server,
    browser,
    player,
    axe_script,  # noqa: F811 (the fixture imported above)
    tmp_path,
):
    # bypass_csp: axe's script is added inline, which the site's policy refuses.
    context = browser.new_context(locale="es-ES", bypass_csp=True, viewport=PHONE)
    page = context.new_page()
    first, _ = failing_quintola_deals()
    match = store_one_hand([player, None, None, None], first, QUINTOLA_FAILS)
    log_in(page, asgi_server, player)
    page.set_default_timeout(60_000)  # the analysis shares two CPUs with the suite
    page.goto(f"{asgi_server.url}/history/matches/{match.pk}/")
    coach = page.locator("#coach")
    expect(coach).to_contain_text("Te quedan 3 análisis hoy (de 3).")
    page.get_by_role("button", name="Analizar esta partida").click()
    # htmx polls the region until the summary replaces the progress.
    expect(page.get_by_test_id("coach-summary")).to_be_visible()
    expect(coach).to_contain_text("Tus decisiones marcadas")
    page.screenshot(path=str(tmp_path / "coach-summary-phone.png"), full_page=True)

    # The marked decision's link takes the replay to its step (htmx).
    blunder = Decision.objects.get(analysis__match=match, mark="blunder")
    coach.get_by_role("link", name=re.compile("Mano 1")).click()
    step = page.locator("[data-replay-step]")
    expect(step).to_have_attribute("data-replay-step", str(blunder.number))
    note = page.get_by_test_id("coach-note")
    expect(note).to_contain_text("??")
    expect(note).to_contain_text("Jugar el as de copas: −")
    expect(note).to_contain_text("puntos esperados; mejor: ")
    moves = page.get_by_role("navigation", name="Jugadas de la mano 1")
    expect(moves.locator("[aria-current=step]")).to_contain_text("??")
    assert serious_violations(page, axe_script) == []
    page.locator("#replay").screenshot(path=str(tmp_path / "coach-replay-phone.png"))
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(tmp_path / "coach-match-desktop.png"), full_page=True)
    page.set_viewport_size(PHONE)

    # Practise it: a table at that position, the coach's panel says what to find.
    page.locator("#replay").get_by_role("button", name="Practicar esta posición").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    practice = page.get_by_test_id("coach-practice")
    expect(practice).to_contain_text("Tu turno: elige.")
    assert Table.objects.filter(mode="position", owner=player).count() == 1
    assert serious_violations(page, axe_script) == []
    page.screenshot(path=str(tmp_path / "coach-practice-phone.png"), full_page=True)
    page.set_viewport_size(DESKTOP)
    page.screenshot(path=str(tmp_path / "coach-practice-desktop.png"), full_page=True)

    # The player page charts the accuracy, with its table.
    page.set_viewport_size(PHONE)
    page.goto(f"{asgi_server.url}/u/{player.username}/record/")
    trend = page.get_by_test_id("coach-trend")
    expect(trend.get_by_test_id("chart-coach")).to_be_visible()
    expect(trend.get_by_test_id("coach-losses")).to_contain_text("Salidas")
    assert serious_violations(page, axe_script) == []
    trend.screenshot(path=str(tmp_path / "coach-trend-phone.png"))
    page.set_viewport_size(DESKTOP)
    trend.screenshot(path=str(tmp_path / "coach-trend-desktop.png"))
    context.close()

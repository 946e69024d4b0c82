"""axe-core (the npm package, pinned in package.json) finds no serious or critical
violation on the pages people play from: the table, lobby, history, a replay, the
shop, the wallet and the league."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import timezone
from playwright.sync_api import expect

from ratings.models import Rating
from tests.history.conftest import store_played

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({id: v.id, impact: v.impact, help: v.help,
                  nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' '))}));
}"""


@pytest.fixture(scope="module")
def axe_script() -> Path:
    """axe-core from node_modules, installed from the lock file when missing."""
    if not AXE.exists():
        subprocess.run(["npm", "ci", "--no-audit", "--no-fund"], cwd=ROOT, check=True)
    return AXE


@pytest.fixture(autouse=True)
def _bots_in_threads(settings):
    settings.BOT_RUNNER = "thread"
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def serious_violations(page, axe_script: Path) -> list[dict]:
    page.add_script_tag(path=str(axe_script))
    return page.evaluate(SERIOUS)


def test_the_pages_people_play_from_have_no_serious_accessibility_violation(
    asgi_server, browser, axe_script, player, make_user
):
    replay = store_played([player, make_user("olga"), make_user("pablo"), None])
    # Someone on the leaderboard, so that its table is drawn.
    Rating.objects.create(
        user=make_user("quique"), value=1640, matches=12, last_rated_at=timezone.now()
    )
    context = browser.new_context(locale="es-ES", bypass_csp=True)
    context.set_default_timeout(30_000)
    client = Client()
    client.force_login(player)
    name = django_settings.SESSION_COOKIE_NAME
    context.add_cookies(
        [{"name": name, "value": client.cookies[name].value, "url": asgi_server.url}]
    )
    page = context.new_page()
    found = {}
    for path in (
        "/play/",
        "/history/",
        f"/history/matches/{replay.pk}/",
        "/shop/",
        "/wallet/",
        "/league/",
        "/ratings/",
        f"/u/{player.username}/record/",
    ):
        page.goto(asgi_server.url + path)
        found[path] = serious_violations(page, axe_script)
    # The live table, with its felt, seats and hand drawn by the renderer.
    page.goto(asgi_server.url + "/play/")
    page.get_by_role("button", name="Empezar la práctica").click()
    expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
    expect(page.get_by_role("region", name="Tu mano")).to_be_visible()
    page.wait_for_selector(".tv-hand-card--playable, .tv-bids button")
    found["table"] = serious_violations(page, axe_script)
    context.close()
    assert {path: v for path, v in found.items() if v} == {}

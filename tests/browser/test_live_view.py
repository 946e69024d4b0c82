"""In Chromium: the staff's live view at a laptop's and a phone's size, in Spanish,
with no serious axe violation (screenshots kept in SCREENSHOT_DIR when it is set)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from playwright.sync_api import expect

from economy.models import LedgerAudit
from games.models import Mode, Table, TableStatus
from online.models import QueueSeating
from tests.browser.test_accessibility import AXE, serious_violations
from tests.browser.test_history_flow import log_in
from tests.browser.test_player_page import SIZES, _shoot
from tests.ops.test_live_view import finished_match, moves


def test_staff_read_the_live_view_at_both_sizes(
    asgi_server,
    browser,
    staff_user,
    make_user,
    tmp_path,
):
    owner = make_user("owner")
    now = timezone.now()
    match = finished_match(owner, minutes_ago=7, abandoned=1)
    for minutes_ago, count in ((55, 40), (41, 80), (26, 120), (12, 90), (3, 60)):
        moves(match, count, minutes_ago=minutes_ago)
    for _ in range(3):
        Table.objects.create(mode=Mode.ONLINE, owner=owner, status=TableStatus.PLAYING)
    for waited in (1500, 3500, 21000):
        QueueSeating.objects.create(
            seated_at=now - timedelta(minutes=4), waited_ms=waited, table=match.table, bot_seats=2
        )
    LedgerAudit.objects.create(ran_at=now - timedelta(hours=1), seconds=2.5, violations=0)
    for size, viewport in SIZES.items():
        # axe is added as a script of its own: the page's CSP would refuse it.
        context = browser.new_context(locale="es-ES", viewport=viewport, bypass_csp=True)
        context.set_default_timeout(15_000)
        page = context.new_page()
        log_in(page, asgi_server, staff_user)
        page.goto(asgi_server.url + "/admin/")
        page.get_by_role("link", name="Cifras en directo: la última hora de juego").click()
        expect(page.get_by_role("heading", name="Cifras en directo", level=1)).to_be_visible()
        expect(page.get_by_role("region", name="Mesas en juego")).to_contain_text("3")
        expect(page.get_by_role("region", name="Auditoría del libro mayor")).to_contain_text(
            "Correcta"
        )
        table = page.get_by_role("table", name="Jugadas por segundo, de cinco en cinco minutos")
        expect(table.get_by_role("row")).to_have_count(13)  # the head, then 12 slices
        _shoot(page, tmp_path, f"live-view-{size}")
        assert serious_violations(page, AXE) == []
        context.close()

"""In Chromium: a moderator works the fair-play review queue at a phone's and a laptop's
size, in Spanish: the queue, a flag's evidence with the replay of its match a click
away, and dismissing it with a note; no serious axe violation (screenshots kept in
SCREENSHOT_DIR when it is set)."""

from __future__ import annotations

from django.contrib.auth.models import Group
from django.utils import timezone
from playwright.sync_api import expect

from fairplay.models import FlagStatus
from tests.browser.test_accessibility import AXE, serious_violations
from tests.browser.test_history_flow import log_in
from tests.browser.test_player_page import SIZES, _shoot
from tests.fairplay.simulation import play_match
from tests.fairplay.test_admin import evidence, make_flag
from tests.history.conftest import store_record


def test_a_moderator_reads_a_flag_opens_its_replay_and_dismisses_it(
    asgi_server, browser, make_user, tmp_path
):
    moderator = make_user("moderadora", is_staff=True)
    moderator.groups.add(Group.objects.get(name="moderators"))
    ana, bea, carlos, dani = (make_user(n) for n in ("ana", "bea", "carlos", "dani"))
    match = store_record(
        [ana, carlos, bea, dani],
        play_match([True, False, False, False], seed=21, budget_ms=5, last_hand=1),
        mode="online",
        finished_at=timezone.now(),
    )
    flags = []
    for size in SIZES:
        first, second = (ana, bea) if size == "phone" else (carlos, dani)
        flag = make_flag(
            first,
            second,
            strength=4.6,
            together=31,
            as_partners=31,
            share_together=0.82,
            close_decisions=140,
            lucky_hits=118,
            lucky_expected=84.2,
            lucky_z=4.1,
            lucky_z_a=4.6,
            lucky_z_b=1.2,
            partner_wins=22,
            partner_expected=15.5,
            partner_z=2.4,
        )
        evidence(flag, match, ana, number=6)
        flags.append(flag)
    for (size, viewport), flag in zip(SIZES.items(), flags, strict=True):
        context = browser.new_context(locale="es-ES", viewport=viewport, bypass_csp=True)
        context.set_default_timeout(15_000)
        page = context.new_page()
        log_in(page, asgi_server, moderator)
        page.goto(asgi_server.url + "/admin/")
        page.get_by_role("link", name="Parejas marcadas").first.click()
        expect(page.get_by_role("link", name=f"{flag.user_a.username} · {flag.user_b.username}"))
        _shoot(page, tmp_path, f"fairplay-queue-{size}")
        assert serious_violations(page, AXE) == []
        page.get_by_role("link", name=f"{flag.user_a.username} · {flag.user_b.username}").click()
        expect(page.get_by_text("118", exact=True)).to_be_visible()
        _shoot(page, tmp_path, f"fairplay-flag-{size}")
        assert serious_violations(page, AXE) == []
        replay = page.get_by_role("link", name=f"#{match.pk}")
        expect(replay).to_have_attribute("href", f"/history/matches/{match.pk}/")
        page.get_by_role("link", name="Descartar").click()
        page.get_by_label("Nota").fill("Amigos de la misma casa; jugadas normales.")
        _shoot(page, tmp_path, f"fairplay-dismiss-{size}")
        page.get_by_role("button", name="Descartar").click()
        expect(page.get_by_text("está descartada")).to_be_visible()
        flag.refresh_from_db()
        assert flag.status == FlagStatus.DISMISSED
        page.goto(asgi_server.url + f"/history/matches/{match.pk}/?step=6")
        expect(page.get_by_role("heading", level=1)).to_be_visible()
        context.close()

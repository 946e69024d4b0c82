"""In Chromium, as a person: the day's six deals played at a phone's size (leaving one
midway and coming back to it), then the day's ranking and a deal's side-by-side
replay; and every page of the daily deal at a phone's and a laptop's size
(screenshots kept in SCREENSHOT_DIR when it is set)."""

from __future__ import annotations

import os
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from daily import services
from daily.models import DailyDay, DailyEntry, DailyPlay, PlayStatus
from tests.browser.table_moves import RESULT, play_one, quick_tricks, wait_for_turn_or_end
from tests.browser.test_accessibility import AXE, serious_violations
from tests.browser.test_tables import log_in
from tests.daily.conftest import play_day, results_day

PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}


@pytest.fixture(autouse=True)
def _daily_bots(settings):
    settings.BOT_RUNNER = "thread"
    settings.BOT_MOVE_PAUSE_SECONDS = 0
    settings.DAILY_BOT_LEVEL = "easy"  # the pace of the test; hard is tested in tests/daily
    settings.DAILY_SECRET = "a-test-secret-for-the-daily-deal-0123456789"


def played_by_hand(settings, user, deals: int = 6, choose=None) -> None:
    """`user` plays `deals` of today's deals through the services, the bots moved by
    the test itself (the bot runner off meanwhile)."""
    settings.BOT_RUNNER = "off"
    if choose is None:
        play_day(user, timezone.now(), deals=deals)
    else:
        play_day(user, timezone.now(), choose=choose, deals=deals)
    settings.BOT_RUNNER = "thread"


@pytest.fixture
def new_page(new_page):
    def open_page(*args, **kwargs):
        page = new_page(*args, **kwargs)
        page.set_default_timeout(30_000)
        return page

    return open_page


def shoot(page, tmp_path: Path, name: str) -> None:
    folder = Path(os.environ.get("SCREENSHOT_DIR") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(folder / f"daily-{name}.png"), full_page=True)


def socket_open(page) -> None:
    """The table's socket is open: the table is drawn from the page's first frame at
    once, and a card clicked before the socket opens is not sent."""
    expect(page.locator("#table-root")).to_have_attribute("data-socket", "open")


def play_the_deal(page) -> None:
    socket_open(page)
    for _move in range(60):
        if wait_for_turn_or_end(page):
            return
        play_one(page)
    raise AssertionError("the deal did not end")


def test_a_whole_daily_set_on_a_phone_then_the_ranking_and_a_side_by_side_replay(
    asgi_server, new_page, make_user, tmp_path, settings
):
    ana, bea = make_user("ana"), make_user("bea")
    played_by_hand(settings, bea, choose=lambda view: view["hand"]["legal_actions"][-1])
    page = new_page()
    page.set_viewport_size(PHONE)
    log_in(page, asgi_server, ana)
    quick_tricks(page)
    page.on("dialog", lambda dialog: dialog.accept())  # "leave this deal for now?"

    page.goto(asgi_server.url + "/daily/")
    expect(page.get_by_role("heading", name="Reparto del día", level=1)).to_be_visible()
    expect(page.locator(".daily-deal")).to_have_count(6)
    page.get_by_role("button", name="Juega los repartos de hoy").click()

    for number in range(1, 7):
        expect(page).to_have_url(re.compile(r"/tables/\d+/$"))
        facts = page.get_by_test_id("table-facts")
        expect(facts).to_contain_text(f"Reparto del día · reparto {number} de 6")
        if number == 2:
            # Leave midway: the deal waits, nothing plays for ana; she comes back to it.
            table_url = page.url
            socket_open(page)
            wait_for_turn_or_end(page)
            version = page.locator("#table-view").get_attribute("data-version")
            page.get_by_role("button", name="Abandonar por ahora (tu jugada se guarda)").click()
            expect(page).to_have_url(re.compile(r"/play/$"))
            page.goto(asgi_server.url + "/daily/")
            expect(page.get_by_test_id("daily-deal-1")).to_contain_text("Resultado")
            page.get_by_role("button", name="Continúa el reparto 2").click()
            expect(page).to_have_url(table_url)
            expect(page.locator("#table-view")).to_have_attribute("data-version", version)
        play_the_deal(page)
        result = page.locator(RESULT)
        expect(result.get_by_test_id("daily-result")).to_have_text(
            re.compile(rf"Reparto {number}: [+−]\d para tu pareja")
        )
        if number == 1:
            shoot(page, tmp_path, "table-end-phone")
        if number < 6:
            result.get_by_role("button", name=f"Siguiente reparto ({number + 1} de 6)").click()
        else:
            result.get_by_role("link", name="Tus resultados de hoy").click()

    expect(page).to_have_url(re.compile(r"/daily/$"))
    expect(
        page.get_by_role("status").filter(has_text="Ya has jugado los repartos de hoy")
    ).to_be_visible()
    assert DailyPlay.objects.filter(entry__user=ana, status=PlayStatus.FINISHED).count() == 6
    assert DailyEntry.objects.get(user=ana).finished_at is not None

    # The standings of the day (computed every minute by beat) and the ranking.
    services.standings_refresh(day_id=DailyDay.objects.get().pk)
    page.get_by_role("link", name="Clasificación de hoy").click()
    expect(page.get_by_role("heading", name="Clasificación del reparto del día")).to_be_visible()
    expect(page.get_by_test_id("daily-my-place")).to_contain_text(re.compile(r"Puesto \d de 2"))
    expect(page.locator("tr.is-you")).to_contain_text("ana")
    shoot(page, tmp_path, "ranking-phone")

    # Deal 1 while the day lasts: everyone's results and ana's own play from her seat
    # (the other hands and the best line wait for midnight), stepped with the keys.
    page.get_by_role("link", name="Reparto 1: resultados y tu jugada").click()
    expect(page.get_by_test_id("daily-results-chart")).to_be_visible()
    page.locator(".chart-table summary").click()
    expect(page.locator(".chart-table table")).to_be_visible()
    sides = page.locator(".daily-side")
    expect(sides).to_have_count(1)
    expect(sides.first.get_by_role("heading")).to_contain_text("Tu jugada")
    expect(page.get_by_test_id("daily-hidden-cards")).to_have_count(3)
    expect(page.get_by_test_id("daily-secret-until-midnight")).to_be_visible()
    moment = page.get_by_test_id("daily-moment")
    expect(moment).to_have_text("El reparto")
    page.keyboard.press("ArrowRight")
    expect(moment).to_have_text("Tras las apuestas")
    page.get_by_role("link", name="Siguiente").click()
    expect(moment).to_have_text("Tras la baza 1")
    page.keyboard.press("End")
    expect(page.locator(".daily-side .replay-end").first).to_be_visible()
    shoot(page, tmp_path, "deal-phone")


def test_screenshots_of_every_daily_page_at_a_phones_and_a_laptops_size(
    asgi_server, new_page, make_user, staff_user, tmp_path, settings
):
    """Every new page, drawn at both sizes: nothing overflows the screen's width."""
    players = [make_user(f"p{i}") for i in range(5)]
    ana = players[0]
    yesterday = services.day_of(timezone.now()) - timedelta(days=1)
    results_day(yesterday, {u: [i - 2 or 1, 2, -1, 4, 1, i % 3 + 1] for i, u in enumerate(players)})
    services.days_close_due()
    played_by_hand(settings, ana, deals=2)
    played_by_hand(settings, players[1], deals=1)
    services.standings_refresh(day_id=DailyDay.objects.get(date=yesterday + timedelta(days=1)).pk)
    today = services.day_of(timezone.now()).isoformat()
    entry = DailyEntry.objects.get(user=ana, day__date=yesterday)
    pages = {
        "home": "/daily/",
        "ranking": f"/daily/{today}/ranking/",
        "ranking-final": f"/daily/{yesterday.isoformat()}/ranking/",
        "deal": f"/daily/{today}/deals/1/",
        "deal-alone": f"/daily/{today}/deals/2/",  # nobody else finished deal 2
        "deal-hidden": f"/daily/{today}/deals/4/",
        "player": f"/u/{ana.username}/record/",
        "lobby": "/play/",
        "offline": "/play/offline/",
    }
    admin_pages = {
        "admin-days": "/admin/daily/dailyday/",
        "admin-day": f"/admin/daily/dailyday/{entry.day_id}/change/",
        "admin-entries": f"/admin/daily/dailyentry/?day__id__exact={entry.day_id}",
        "admin-void": f"/admin/daily/dailyentry/{entry.pk}/void/",
    }
    for size_name, size in (("phone", PHONE), ("laptop", LAPTOP)):
        page = new_page()
        page.set_viewport_size(size)
        log_in(page, asgi_server, ana)
        for name, url in pages.items():
            page.goto(asgi_server.url + url)
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"], name
            shoot(page, tmp_path, f"{name}-{size_name}")
        # The daily table, mid-deal, marked as the daily deal.
        page.goto(asgi_server.url + "/daily/")
        page.get_by_role(
            "button", name=re.compile("Juega el reparto 3|Continúa el reparto 3")
        ).click()
        expect(page.get_by_test_id("table-facts")).to_contain_text("Reparto del día")
        wait_for_turn_or_end(page)
        shoot(page, tmp_path, f"table-{size_name}")
        staff = new_page()
        staff.set_viewport_size(size)
        log_in(staff, asgi_server, staff_user)
        for name, url in admin_pages.items():
            staff.goto(asgi_server.url + url)
            expect(staff.locator("#content")).to_be_visible()
            shoot(staff, tmp_path, f"{name}-{size_name}")


def test_a_newcomer_on_a_day_nobody_played_reads_sentences_not_dashes(
    asgi_server, new_page, make_user, tmp_path
):
    """Never "— / Puesto entre 0 jugadores": why there is no score or place yet."""
    newcomer = make_user("nueva")
    for size_name, size in (("phone", PHONE), ("laptop", LAPTOP)):
        page = new_page()
        page.set_viewport_size(size)
        log_in(page, asgi_server, newcomer)
        page.goto(asgi_server.url + "/daily/")
        expect(page.get_by_test_id("daily-score")).to_have_text("Aún no has jugado hoy.")
        expect(page.get_by_test_id("daily-place")).to_have_text(
            "Nadie ha jugado todavía: juega el primer reparto para entrar en la clasificación."
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
        page.get_by_test_id("daily-place").scroll_into_view_if_needed()
        shoot(page, tmp_path, f"home-newcomer-{size_name}")


def test_staff_void_a_result_in_the_admin_and_a_missing_reason_is_refused(
    asgi_server, new_page, make_user, staff_user
):
    ana, bea = make_user("ana"), make_user("bea")
    yesterday = services.day_of(timezone.now()) - timedelta(days=1)
    results_day(yesterday, {ana: [5] * 6, bea: [1] * 6})
    services.days_close_due()
    entry = DailyEntry.objects.get(user=ana)
    page = new_page()
    log_in(page, asgi_server, staff_user)
    page.goto(asgi_server.url + f"/admin/daily/dailyentry/{entry.pk}/change/")
    page.get_by_role("link", name="Anular este resultado").click()
    page.get_by_role("button", name="Anular el resultado").click()
    expect(page.locator(".errorlist")).to_contain_text(
        "Indica un motivo para anular este resultado."
    )
    entry.refresh_from_db()
    assert entry.voided_at is None
    page.get_by_label("Motivo").fill("dos cuentas de la misma persona")
    page.get_by_role("button", name="Anular el resultado").click()
    expect(page.locator(".messagelist")).to_contain_text("queda anulado")
    entry.refresh_from_db()
    assert entry.voided_at is not None and entry.void_reason == "dos cuentas de la misma persona"
    assert DailyEntry.objects.get(user=bea).rank == 1


def test_the_daily_pages_and_table_have_no_serious_accessibility_violation(
    asgi_server,
    browser,
    make_user,
    settings,
):
    """axe-core on every daily page and the daily table, at a phone's size."""
    assert AXE.exists(), "axe-core is installed by `make npm`"
    players = [make_user(f"p{i}") for i in range(3)]
    ana = players[0]
    yesterday = services.day_of(timezone.now()) - timedelta(days=1)
    results_day(yesterday, {u: [i + 1, 2, -1, 4, 1 - i, 3] for i, u in enumerate(players)})
    services.days_close_due()
    played_by_hand(settings, ana, deals=2)
    services.standings_refresh(day_id=DailyDay.objects.get(date=yesterday + timedelta(days=1)).pk)
    today = services.day_of(timezone.now()).isoformat()
    context = browser.new_context(locale="es-ES", bypass_csp=True, viewport=PHONE)
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, ana)
    found = {}
    for path in (
        "/daily/",
        f"/daily/{today}/ranking/",
        f"/daily/{yesterday.isoformat()}/ranking/",
        f"/daily/{today}/deals/1/",
        f"/daily/{today}/deals/4/",
        f"/daily/{yesterday.isoformat()}/deals/3/",
        f"/u/{ana.username}/record/",
    ):
        page.goto(asgi_server.url + path)
        found[path] = serious_violations(page, AXE)
    page.goto(asgi_server.url + "/daily/")
    page.get_by_role("button", name="Juega el reparto 3").click()
    expect(page.get_by_test_id("table-facts")).to_contain_text("Reparto del día")
    socket_open(page)
    wait_for_turn_or_end(page)
    found["table"] = serious_violations(page, AXE)
    context.close()
    assert {path: v for path, v in found.items() if v} == {}

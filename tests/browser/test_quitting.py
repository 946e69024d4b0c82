"""In Chromium, on a phone and a desktop: the queue refuses a player who abandoned
rated matches and says why and until when (Spanish and English), the pages show the
wait before they try, and the reputation beside a seat reads its two figures with a
visible legend (docs/fairplay.md). axe-core finds no serious violation.
SCREENSHOT_DIR=<folder> keeps the screenshots."""

from __future__ import annotations

import os
from datetime import timedelta
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from django.utils import formats, timezone
from django.utils.translation import override
from playwright.sync_api import expect

from games import services as games
from games.models import Mode
from online import services as online
from online.models import Conduct, MatchConduct, QuitStanding
from tests.browser.test_accessibility import axe_script, serious_violations  # noqa: F401
from tests.history.conftest import store_finished

SCREENSHOTS = os.environ.get("SCREENSHOT_DIR")
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(autouse=True)
def _bots_off(settings):
    settings.BOT_RUNNER = "off"
    settings.BOT_MOVE_PAUSE_SECONDS = 0


@pytest.fixture
def open_as(browser, asgi_server):
    """Pages signed in as a user, in a context of their own (axe's script is added
    inline, which the site's policy refuses unless bypassed), on a phone."""
    contexts = []

    def open_page(user, locale: str = "es-ES"):
        context = browser.new_context(
            locale=locale, viewport=PHONE, bypass_csp=True, service_workers="block"
        )
        context.set_default_timeout(30_000)  # a loaded machine
        contexts.append(context)
        client = Client()
        client.force_login(user)
        cookie = client.cookies[django_settings.SESSION_COOKIE_NAME].value
        context.add_cookies(
            [{"name": django_settings.SESSION_COOKIE_NAME, "value": cookie, "url": asgi_server.url}]
        )
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


def _shoot(page, name: str) -> None:
    if SCREENSHOTS:
        Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=f"{SCREENSHOTS}/{name}.png", full_page=True)


def _abandoned(user, minutes_left: int) -> MatchConduct:
    """`user` left an online match a minute ago: their second step, a wait."""
    match = store_finished([user, None, None, None], 1, mode=Mode.ONLINE, abandoned=(0,))[0]
    now = timezone.now()
    row = MatchConduct.objects.create(
        match=match,
        user=user,
        conduct=Conduct.LEFT,
        at=now - timedelta(minutes=1),
        step=2,
        # The wait left is shown rounded up: "25 minutes" for up to a minute after this.
        wait_until=now + timedelta(minutes=minutes_left),
    )
    QuitStanding.objects.create(
        user=user, step=2, last_counted_at=row.at, wait_until=row.wait_until, notice=row
    )
    return row


def _until(row, language: str) -> str:
    with override(language):
        return formats.date_format(timezone.localtime(row.wait_until), "DATETIME_FORMAT")


@pytest.mark.parametrize(
    ("locale", "language", "refusal", "left"),
    [
        (
            "es-ES",
            "es",
            "No puedes entrar en la cola ni sentarte en una mesa con apuesta hasta el",
            "dentro de 25 minutos",
        ),
        (
            "en-GB",
            "en",
            "You cannot join the queue or sit at a stake table until",
            "25 minutes from now",
        ),
    ],
)
def test_the_refused_queue_says_why_and_until_when(
    asgi_server,
    open_as,
    make_user,
    axe_script,  # noqa: F811 (the fixture imported above)
    locale,
    language,
    refusal,
    left,
):
    ana = make_user("ana")
    page = open_as(ana, locale)
    page.goto(f"{asgi_server.url}/play/online/")
    find = page.locator("form[action='/play/online/join/'] button")
    expect(find).to_be_visible()
    # Meanwhile she abandoned a rated match in another tab: the page she has is stale.
    row = _abandoned(ana, minutes_left=25)
    find.click()
    message = page.locator(".messages .message-error")
    expect(message).to_contain_text(refusal)
    expect(message).to_contain_text(_until(row, language))
    expect(message).to_contain_text(left)
    # The page now shows the wait itself, and no button to try again.
    panel = page.get_by_test_id("quit-wait")
    expect(panel).to_contain_text(_until(row, language))
    expect(page.locator("form[action='/play/online/join/']")).to_have_count(0)
    expect(page.get_by_test_id("quit-notice")).to_be_visible()
    assert serious_violations(page, axe_script) == []
    _shoot(page, f"queue-refused-phone-{language}")
    page.set_viewport_size(DESKTOP)
    _shoot(page, f"queue-refused-desktop-{language}")
    # "Understood" hides the notice; the wait stays until its end.
    page.get_by_role("button", name="Entendido" if language == "es" else "Understood").click()
    expect(page.get_by_test_id("quit-notice")).to_have_count(0)
    expect(page.get_by_test_id("quit-wait")).to_be_visible()


def test_the_lobby_shows_the_wait_before_the_player_tries(
    asgi_server,
    open_as,
    make_user,
    axe_script,  # noqa: F811
):
    ana = make_user("ana")
    row = _abandoned(ana, minutes_left=30)
    page = open_as(ana)
    page.goto(f"{asgi_server.url}/play/")
    expect(page.get_by_test_id("quit-wait")).to_contain_text(_until(row, "es"))
    assert serious_violations(page, axe_script) == []
    _shoot(page, "lobby-wait-phone")


def test_the_seat_reads_its_two_figures_with_a_legend_on_a_phone_and_a_desktop(
    asgi_server,
    open_as,
    make_user,
    axe_script,  # noqa: F811
):
    ana, olga = make_user("ana"), make_user("olga")
    store_finished([ana, olga, None, None], 8)
    store_finished([ana, olga, None, None], 1, late=(0,))
    store_finished([ana, olga, None, None], 1, abandoned=(0,))
    table = games.table_create_practice(user=ana, rules="online", bot_level="easy")
    page = open_as(ana)
    page.goto(f"{asgi_server.url}/tables/{table.pk}/")
    badge = page.locator("#table-view .tv-mine .reliability")
    expect(badge).to_have_attribute("data-reliability", "90")
    expect(badge).to_have_attribute("data-on-time", "80")
    expect(badge.locator("[aria-hidden='true']")).to_have_text("\u2713\u200990%\u202f·\u202f80%")
    expect(badge.locator(".visually-hidden")).to_have_text(
        "(reputación: 90% de partidas terminadas, 80% sin turnos agotados)"
    )
    legend = page.locator("#table-view .reputation-legend")
    expect(legend).to_be_visible()
    expect(legend).to_contain_text("Junto a cada nombre")
    assert serious_violations(page, axe_script) == []
    _shoot(page, "table-reputation-phone")
    page.set_viewport_size(DESKTOP)
    expect(legend).to_be_visible()
    _shoot(page, "table-reputation-desktop")


def test_every_seat_of_an_online_table_shows_its_reputation(
    asgi_server,
    open_as,
    make_user,
    axe_script,  # noqa: F811
):
    cast = [make_user(name) for name in ("ana", "bruno", "carla", "dario")]
    for index, user in enumerate(cast):
        store_finished([user, None, None, None], 10 - 2 * index)
        store_finished([user, None, None, None], index, late=(0,))
        store_finished([user, None, None, None], index, abandoned=(0,))
    from games.models import Table
    from ratings.models import Rating

    Rating.objects.all().delete()
    for user in cast:
        online.queue_join(user=user)
    table = Table.objects.get(mode="online", status="playing")
    page = open_as(cast[0])
    page.goto(f"{asgi_server.url}/tables/{table.pk}/")
    badges = page.locator("#table-view .reliability")
    expect(badges).to_have_count(4)
    # dario: 3 of 10 matches abandoned, 3 more finished late: 70% · 40%, marked low.
    dario = page.locator("#table-view .reliability[data-reliability='70']")
    expect(dario).to_have_attribute("data-on-time", "40")
    expect(dario).to_have_class("reliability tv-reliability reliability-low")
    expect(page.locator("#table-view .reputation-legend")).to_be_visible()
    assert serious_violations(page, axe_script) == []
    _shoot(page, "online-table-reputation-phone")
    page.set_viewport_size(DESKTOP)
    _shoot(page, "online-table-reputation-desktop")


def test_the_stake_list_shows_the_minimum_and_the_figures(
    asgi_server,
    open_as,
    make_user,
    axe_script,  # noqa: F811
):
    ana, olga = make_user("ana"), make_user("olga")
    store_finished([olga, ana, None, None], 19)
    store_finished([olga, ana, None, None], 1, late=(0,))
    table = online.stake_table_open(user=olga, stake=250, min_reputation=90)
    page = open_as(ana)
    page.goto(f"{asgi_server.url}/play/stakes/")
    entry = page.get_by_test_id(f"stake-table-{table.pk}")
    expect(entry).to_contain_text("reputación mínima 90%")
    expect(entry.locator(".reliability [aria-hidden='true']")).to_have_text(
        "\u2713\u2009100%\u202f·\u202f95%"
    )
    expect(page.get_by_label("Reputación mínima de los demás jugadores (%)").first).to_have_value(
        "0"
    )
    assert serious_violations(page, axe_script) == []
    _shoot(page, "stakes-minimum-phone")
    page.set_viewport_size(DESKTOP)
    _shoot(page, "stakes-minimum-desktop")

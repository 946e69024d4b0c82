"""Linked accounts in the browser: two accounts signed in one after the other on the
same browser (its device cookie) sit at one friends room; each player's table, on a
phone (390×844) and on a laptop (1280×800), says "Cuentas vinculadas: ana y olga",
with no serious accessibility violation. Screenshots go to SCREENSHOT_DIR when set
(docs/moderation.md, "Linked accounts")."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import expect

from accounts.selectors import accounts_linked
from games import services
from tests.browser.test_accessibility import axe_script, serious_violations  # noqa: F401
from tests.browser.test_social import LAPTOP, PHONE, shoot

WAIT = 60_000


@pytest.fixture(autouse=True)
def _quiet_bots(settings):
    settings.BOT_RUNNER = "off"  # the page is looked at, not played
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def sign_in_one_after_the_other(users, password) -> None:
    """One browser (a test client keeps its cookies): each signs in through the log-in
    form, then out; the device cookie set at the first sign-in is sent with the next."""
    client = Client(HTTP_HOST="localhost")  # a host the test server allows
    for user in users:
        response = client.post("/accounts/login/", {"login": user.username, "password": password})
        assert response.status_code == 302
        client.post("/accounts/logout/")


def page_for(browser, server, user, viewport):
    context = browser.new_context(
        locale="es-ES", viewport=viewport, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(WAIT)
    client = Client()
    client.force_login(user)
    name = django_settings.SESSION_COOKIE_NAME
    context.add_cookies([{"name": name, "value": client.cookies[name].value, "url": server.url}])
    return context.new_page()


def test_a_shared_table_tells_each_player_which_accounts_are_linked(
    asgi_server,
    browser,
    make_user,
    password,
    axe_script,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
):
    ana, olga, pablo = make_user("ana"), make_user("olga"), make_user("pablo")
    sign_in_one_after_the_other([ana, olga], password)
    assert accounts_linked(ana.pk, olga.pk) and not accounts_linked(ana.pk, pablo.pk)

    table = services.table_create_friends(user=ana)
    for user in (olga, pablo):
        invitation = services.invitation_create(user=ana, table_id=table.pk, username=user.username)
        services.invitation_accept(user=user, invitation_id=invitation.pk)
    services.seat_set_bot(user=ana, table_id=table.pk, position=3, bot=True)

    # The room, before the match: the marker is on the server's page.
    room = page_for(browser, asgi_server, pablo, PHONE)
    room.goto(f"{asgi_server.url}/tables/{table.pk}/")
    expect(room.get_by_test_id("linked-accounts")).to_have_text("Cuentas vinculadas: ana y olga")
    shoot(room, tmp_path, "linked-room-phone")

    services.match_start(user=ana, table_id=table.pk, seed=7)
    for user, viewport, name in ((ana, PHONE, "phone"), (olga, LAPTOP, "laptop")):
        page = page_for(browser, asgi_server, user, viewport)
        page.goto(f"{asgi_server.url}/tables/{table.pk}/")
        page.wait_for_selector("#table-view:not([hidden])")
        expect(page.locator("#table-root")).to_have_attribute("data-socket", "open")
        marker = page.locator("#table-view").get_by_test_id("linked-accounts")
        expect(marker).to_have_text("Cuentas vinculadas: ana y olga")
        expect(marker).to_be_visible()
        assert marker.get_attribute("role") == "note"
        # Within the screen's width; asked in the page, where a frame redrawing the
        # table between two of the test's calls cannot detach the element measured
        # (a bounding box read after a redraw was None on a loaded machine).
        page.wait_for_function(
            """() => {
                const m = document.querySelector('#table-view [data-testid="linked-accounts"]');
                if (!m) return false;
                const r = m.getBoundingClientRect();
                return r.width > 0 && r.left >= 0 && r.right <= window.innerWidth;
            }"""
        )
        assert serious_violations(page, axe_script) == []
        shoot(page, tmp_path, f"linked-table-{name}")

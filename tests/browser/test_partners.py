"""Partners in the browser (issue 44): the partners page, a pair's page, the pair
leaderboard, the player page and the lobby, at 390×844 and 1280×800, in the six
languages: no page wider than a phone, no serious axe violation; an invitation to
queue together appears in the partner's lobby while it is open (the lobby socket),
and accepting it takes them to the queue.

Screenshots go to SCREENSHOT_DIR when it is set."""

from __future__ import annotations

import pprint
from pathlib import Path

import pytest
from playwright.sync_api import expect

from social import services as social
from tests.browser.test_accessibility import axe_script, serious_violations  # noqa: F401
from tests.browser.test_phone_pages import CONTROLS_OUT_OF_SIGHT, PAST_THE_EDGE
from tests.browser.test_social import LAPTOP, PHONE, log_in, shoot

LOCALES = ["es-ES", "en-GB", "fr-FR", "it-IT", "ko-KR", "th-TH"]


@pytest.fixture(autouse=True)
def _bots_still(settings):
    settings.BOT_RUNNER = "off"
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def make_pair(a, b):
    request = social.friend_request_send(user=a, username=b.username)
    social.friend_request_accept(user=b, request_id=request.pk)
    asked = social.partner_request_send(user=a, username=b.username)
    return social.partner_request_accept(user=b, request_id=asked.pk)


@pytest.fixture
def partners_data(player, make_user):
    pablo = make_user("pablo")
    olga = make_user("olga_fernández")
    quique = make_user("quique_longname")
    pair = make_pair(player, pablo)
    old = make_pair(player, quique)
    social.partnership_dissolve(user=player, pair_id=old.pk)
    request = social.friend_request_send(user=olga, username=player.username)
    social.friend_request_accept(user=player, request_id=request.pk)
    social.partner_request_send(user=olga, username=player.username)
    social.partner_mark_set(user=player, username="quique_longname", kind="avoid")
    social.partner_mark_set(user=player, username="olga_fernández", kind="prefer")
    return {"pair": pair, "old": old, "pablo": pablo}


def test_the_partner_pages_fit_a_phone_and_a_laptop_and_are_axe_clean(
    asgi_server,
    browser,
    player,
    partners_data,
    axe_script,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
):
    pair = partners_data["pair"]
    paths = [
        "/friends/partners/",
        f"/pairs/{pair.pk}/",
        f"/pairs/{partners_data['old'].pk}/",
        "/pairs/",
        "/play/",
        f"/u/{player.username}/record/",
    ]
    problems: dict[str, object] = {}
    for locale in LOCALES:
        for viewport in (PHONE, LAPTOP):
            context = browser.new_context(
                locale=locale, viewport=viewport, bypass_csp=True, service_workers="block"
            )
            context.set_default_timeout(30_000)
            page = context.new_page()
            log_in(page, asgi_server, player)
            for path in paths:
                response = page.goto(asgi_server.url + path)
                assert response.ok, (path, response.status)
                page.wait_for_load_state("load")
                key = f"{locale} {viewport['width']} {path}"
                width = page.evaluate("document.documentElement.scrollWidth")
                if viewport is PHONE:
                    edge = page.evaluate(PAST_THE_EDGE, PHONE["width"])
                    hidden = page.evaluate(CONTROLS_OUT_OF_SIGHT)
                    if width > PHONE["width"] or edge or hidden:
                        problems[key] = (width, edge, hidden)
                if locale in ("es-ES", "th-TH"):
                    found = serious_violations(page, axe_script)
                    if found:
                        problems[key + " axe"] = found
                if locale in ("es-ES", "en-GB"):
                    name = path.strip("/").replace("/", "_")
                    shoot(page, tmp_path, f"partners-{locale}-{name}-{viewport['width']}")
            context.close()
    assert problems == {}, pprint.pformat(problems, width=200)


def test_an_invitation_to_queue_together_appears_live_and_is_accepted(
    asgi_server, browser, player, partners_data, tmp_path: Path
):
    context = browser.new_context(
        locale="en-GB", viewport=PHONE, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, player)
    page.goto(asgi_server.url + "/play/")
    expect(page.locator("#lobby-root")).to_have_attribute("data-socket", "open")
    expect(page.get_by_text("olga_fernández asks you to be their partner.")).to_be_visible()
    # Pablo invites from his own lobby, in another browser.
    other = browser.new_context(locale="en-GB", viewport=LAPTOP, service_workers="block")
    other.set_default_timeout(30_000)
    pablo = other.new_page()
    log_in(pablo, asgi_server, partners_data["pablo"])
    pablo.goto(asgi_server.url + "/play/")
    pablo.get_by_role("button", name="Invite to queue together").click()
    expect(pablo.get_by_test_id("queue-invitation-sent")).to_contain_text("ana")
    invitation = page.get_by_text("pablo asks you to look for an online match together")
    expect(invitation).to_be_visible()
    shoot(page, tmp_path, "partners-lobby-invitation-390")
    page.get_by_role("button", name="Accept · pablo").click()
    page.wait_for_url("**/play/online/")
    expect(page.get_by_test_id("queued-with")).to_contain_text("pablo")
    shoot(page, tmp_path, "partners-queued-together-390")
    # Pablo's lobby says so too, by its socket: a push, then a fetch of the region, in
    # another browser (beyond expect's 5 s once on a machine busy with three other loads).
    expect(pablo.get_by_test_id("queued-with")).to_contain_text("ana", timeout=15_000)
    context.close()
    other.close()


def test_the_partners_page_works_by_keyboard_and_says_refusals(
    asgi_server, browser, player, partners_data
):
    context = browser.new_context(
        locale="en-GB", viewport=PHONE, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, player)
    page.goto(asgi_server.url + "/friends/partners/")
    field = page.get_by_label("Friend's username")
    field.fill("nadie")
    field.press("Enter")
    expect(page.get_by_role("alert")).to_contain_text("There is no player with that name.")
    expect(page.get_by_label("Friend's username")).to_have_value("nadie")
    page.get_by_role("button", name="Accept · olga_fernández").click()
    expect(page.get_by_test_id("partners-notice")).to_have_text("You are now partners.")
    expect(page.get_by_test_id("partner-list")).to_contain_text("olga_fernández")
    context.close()

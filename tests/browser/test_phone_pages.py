"""Issue 41's phone pass, in Chromium at 390×844: the navigation folds into a menu,
and no page of the site is wider than the phone.

Screenshots go to SCREENSHOT_DIR when it is set."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.browser.test_accessibility import axe_script, serious_violations  # noqa: F401
from tests.browser.test_social import LAPTOP, PHONE, log_in, shoot


@pytest.fixture(autouse=True)
def _bots_still(settings):
    settings.BOT_RUNNER = "off"
    settings.BOT_MOVE_PAUSE_SECONDS = 0


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        locale="es-ES", viewport=PHONE, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()


def header_height(page) -> float:
    return page.locator(".site-header").bounding_box()["height"]


def test_the_navigation_folds_into_a_menu_on_a_phone(
    asgi_server,
    phone,
    player,
    axe_script,  # noqa: F811 (the fixture imported above)
    tmp_path: Path,
):
    log_in(phone, asgi_server, player)
    phone.goto(asgi_server.url + "/ratings/")
    menu = phone.get_by_role("button", name="Menú")
    links = phone.get_by_role("navigation", name="Principal")
    expect(menu).to_be_visible()
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(links).to_be_hidden()
    assert header_height(phone) <= 70
    assert serious_violations(phone, axe_script) == []
    shoot(phone, tmp_path, "nav-folded-390x844")

    # By keyboard: the skip link, then the brand, then the menu button; Enter opens it.
    phone.keyboard.press("Tab")
    phone.keyboard.press("Tab")
    phone.keyboard.press("Tab")
    expect(menu).to_be_focused()
    phone.keyboard.press("Enter")
    expect(menu).to_have_attribute("aria-expanded", "true")
    expect(links).to_be_visible()
    phone.keyboard.press("Tab")
    expect(links.get_by_role("link", name="Cómo se juega")).to_be_focused()
    for name in ("Jugar", "Mirar", "Liga", "Torneos", "Ranking"):
        phone.keyboard.press("Tab")
        expect(links.get_by_role("link", name=name)).to_be_focused()
    assert serious_violations(phone, axe_script) == []
    shoot(phone, tmp_path, "nav-open-390x844")
    # Escape folds it again and the focus goes back to the button.
    phone.keyboard.press("Escape")
    expect(menu).to_have_attribute("aria-expanded", "false")
    expect(menu).to_be_focused()
    expect(links).to_be_hidden()
    # A link of the open menu takes you there.
    menu.click()
    links.get_by_role("link", name="Liga").click()
    expect(phone).to_have_url(asgi_server.url + "/league/")
    assert header_height(phone) <= 70

    # On a laptop the links are always there, and no menu button.
    phone.set_viewport_size(LAPTOP)
    expect(menu).to_be_hidden()
    expect(links).to_be_visible()
    expect(links.get_by_role("link", name="Historial")).to_be_visible()
    shoot(phone, tmp_path, "nav-1280x800")

    # Signed out too.
    phone.context.clear_cookies()
    phone.set_viewport_size(PHONE)
    phone.goto(asgi_server.url + "/")
    assert header_height(phone) <= 70
    menu.click()
    expect(links.get_by_role("link", name="Registrarse")).to_be_visible()
    shoot(phone, tmp_path, "nav-signed-out-open-390x844")


# Elements that scroll sideways inside the page, or clip what they hold, at this size:
# a table scroller with an accessible name (role=region, aria-label) may scroll.
INNER_SCROLLERS = """() => {
  const found = [];
  for (const el of document.querySelectorAll('body *')) {
    if (el.scrollWidth <= el.clientWidth + 1) continue;
    const style = getComputedStyle(el);
    if (!['auto', 'scroll'].includes(style.overflowX)) continue;
    const named = el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
    if (named && el.querySelector('table')) continue;
    if (el.closest('[hidden], details:not([open])')) continue;
    found.push((el.id ? '#' + el.id : el.tagName.toLowerCase()) + '.' +
               [...el.classList].join('.') + ' ' + el.scrollWidth + '>' + el.clientWidth);
  }
  return found;
}"""
# What runs past the right edge of the screen (cut off), even when the page does not scroll.
PAST_THE_EDGE = """(width) => {
  const found = [];
  for (const el of document.querySelectorAll('main *, header *')) {
    const box = el.getBoundingClientRect();
    if (!box.width || box.right <= width + 1) continue;
    if (el.closest('[hidden], details:not([open]), [aria-hidden=true]')) continue;
    let clipped = false;
    for (let up = el.parentElement; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX !== 'visible') {
        if (up.getBoundingClientRect().right <= width + 1 && up.scrollWidth > up.clientWidth + 1
            && (up.getAttribute('aria-label') || up.getAttribute('aria-labelledby'))
            && up.querySelector('table')) clipped = true;
        break;
      }
    }
    if (!clipped) found.push(el.tagName.toLowerCase() + '.' + [...el.classList].join('.') + ' '
                             + (el.textContent || '').trim().slice(0, 30) + ' '
                             + Math.round(box.right));
  }
  return found.slice(0, 8);
}"""

# Controls (buttons, links, fields) an inner box hides, wholly or in part, until it is
# scrolled: "Empezar la partida" in the room's scrolling board, the end panel's buttons.
CONTROLS_OUT_OF_SIGHT = """() => {
  const found = [];
  const controls = 'main button, main a[href], main input, main select';
  for (const el of document.querySelectorAll(controls)) {
    const box = el.getBoundingClientRect();
    if (!box.width || !box.height || el.closest('[hidden], details:not([open])')) continue;
    for (let up = el.parentElement; up && up !== document.body; up = up.parentElement) {
      const style = getComputedStyle(up);
      if (style.overflowX === 'visible' && style.overflowY === 'visible') continue;
      const named = up.getAttribute('aria-label') || up.getAttribute('aria-labelledby');
      // A named table scroller may hold what it scrolls to.
      if (named && up.querySelector('table') && style.overflowY !== 'hidden') break;
      const room = up.getBoundingClientRect();
      if (box.bottom > room.bottom + 1 || box.right > room.right + 1 ||
          box.top < room.top - 1 || box.left < room.left - 1) {
        found.push((el.textContent || el.name || '').trim().slice(0, 30) + ' in ' +
                   up.tagName.toLowerCase() + '.' + [...up.classList].join('.'));
      }
      break;
    }
  }
  return found.slice(0, 8);
}"""


def site_with_data(make_user, player, settings):
    """Real data behind every page: finished matches with a replay and a coach analysis,
    ratings, a daily day with its ranking, a friends room waiting, a finished table."""
    from datetime import timedelta

    from django.utils import timezone

    from coach import services as coach
    from daily import services as daily
    from games import services as games
    from ratings.models import Rating
    from tests.coach.conftest import QUINTOLA_FAILS, failing_quintola_deals, store_one_hand
    from tests.daily.conftest import results_day
    from tests.games.conftest import play_out
    from tests.history.conftest import store_finished, store_played

    settings.DAILY_SECRET = "a-test-secret-for-the-daily-deal-0123456789"
    settings.DAILY_BOT_LEVEL = "easy"
    others = [make_user(name) for name in ("olga_fernández", "pablo", "quique_longname")]
    replay = store_played([player, others[0], others[1], None], mode="online")
    store_finished([player, others[0], None, None], 3)
    first, _ = failing_quintola_deals()
    analysed = store_one_hand([player, None, None, None], first, QUINTOLA_FAILS)
    analysis = coach.analysis_request(user=player, match_id=analysed.pk)
    coach.analysis_run(analysis_id=analysis.pk, samples=20)
    for i, user in enumerate([player, *others]):
        Rating.objects.create(
            user=user, value=1640 - 37 * i, matches=12 + i, last_rated_at=timezone.now()
        )
    yesterday = daily.day_of(timezone.now()) - timedelta(days=1)
    results_day(
        yesterday,
        {u: [i - 2 or 1, 2, -1, 4, 1, i % 3 + 1] for i, u in enumerate([player, *others])},
    )
    daily.days_close_due()
    # A friends room played to its end (the end panel), then one waiting for players.
    finished = games.table_create_friends(user=others[2])
    for position in (1, 2, 3):
        games.seat_set_bot(user=others[2], table_id=finished.pk, position=position, bot=True)
    games.match_start(user=others[2], table_id=finished.pk, seed=5)
    play_out(finished, {0: others[2]})
    room = games.table_create_friends(user=player)
    return {
        "replay": replay,
        "analysed": analysed,
        "yesterday": yesterday.isoformat(),
        "finished": finished,
        "room": room,
        "owner_of_finished": others[2],
    }


def test_no_page_is_wider_than_a_phone(
    asgi_server, browser, make_user, player, settings, tmp_path: Path
):
    data = site_with_data(make_user, player, settings)
    signed_out = [
        "/",
        "/how-to-play/",
        "/ratings/",
        "/tournaments/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
    ]
    signed_in = [
        "/",
        "/play/",
        "/play/online/",
        "/play/stakes/",
        "/watch/",
        "/history/",
        f"/history/matches/{data['replay'].pk}/",
        f"/history/matches/{data['analysed'].pk}/",
        "/daily/",
        f"/daily/{data['yesterday']}/ranking/",
        "/league/",
        "/league/weeks/",
        "/tournaments/",
        "/ratings/",
        f"/u/{player.username}/",
        f"/u/{player.username}/record/",
        "/u/pablo/",
        "/friends/",
        "/shop/",
        "/wallet/",
        "/accounts/email/",
        "/accounts/password/change/",
        f"/tables/{data['room'].pk}/",
    ]
    problems = {}
    for who, paths in (("out", signed_out), ("in", signed_in)):
        context = browser.new_context(
            locale="es-ES", viewport=PHONE, bypass_csp=True, service_workers="block"
        )
        context.set_default_timeout(30_000)
        page = context.new_page()
        if who == "in":
            log_in(page, asgi_server, player)
        for path in paths:
            response = page.goto(asgi_server.url + path)
            assert response.ok, (path, response.status)
            page.wait_for_load_state("load")
            width = page.evaluate("document.documentElement.scrollWidth")
            inner = page.evaluate(INNER_SCROLLERS)
            edge = page.evaluate(PAST_THE_EDGE, PHONE["width"])
            hidden = page.evaluate(CONTROLS_OUT_OF_SIGHT)
            if width > PHONE["width"] or inner or edge or hidden:
                problems[f"{who} {path}"] = (width, inner, edge, hidden)
            name = f"page-{who}-{path.strip('/').replace('/', '_') or 'home'}"
            shoot(page, tmp_path, name + "-390x844")
        context.close()
    # A finished table's end panel, seen by its owner.
    context = browser.new_context(
        locale="es-ES", viewport=PHONE, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, data["owner_of_finished"])
    page.goto(f"{asgi_server.url}/tables/{data['finished'].pk}/")
    page.wait_for_selector("#table-view:not([hidden]) .tv-result")
    for path, found in (
        ("end panel", page.evaluate(PAST_THE_EDGE, PHONE["width"])),
        ("end panel inner", page.evaluate(INNER_SCROLLERS)),
        ("end panel controls", page.evaluate(CONTROLS_OUT_OF_SIGHT)),
    ):
        if found:
            problems[path] = found
    shoot(page, tmp_path, "page-end-panel-390x844")
    # And on a laptop, the pages fixed for the phone still look as they did.
    page.set_viewport_size(LAPTOP)
    shoot(page, tmp_path, "page-end-panel-1280x800")
    for path in (
        f"/history/matches/{data['analysed'].pk}/",
        f"/daily/{data['yesterday']}/ranking/",
        "/history/",
        "/ratings/",
    ):
        page.goto(asgi_server.url + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= LAPTOP["width"], path
        shoot(page, tmp_path, f"page-{path.strip('/').replace('/', '_')}-1280x800")
    context.close()
    for where, found in problems.items():
        print(where, found)  # what runs past the edge, where (shown on a failure)
    assert problems == {}

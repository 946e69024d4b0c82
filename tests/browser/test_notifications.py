"""The bell, the list and the settings in Chromium: the count live over the lobby
socket, marking read with htmx, axe-clean at phone and desktop sizes (screenshots
in SCREENSHOTS when it is set, else the test's tmp_path); the push offer's subscribe flow
and the service worker's push and notificationclick handlers.

Headless Chromium here reaches no push service (no network, no Google push
account), so PushManager.subscribe() fails (`real_subscribe` says how); the page's
flow is then tested with a subscription the page's PushManager hands back from a
stub, and the worker's handlers are called through `self.cuatrolaPush`, as the
browser's push and click events call them."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from django.conf import settings as django_settings
from django.test import Client
from playwright.sync_api import expect

from notifications import kinds, services
from notifications.models import Notification, PushSubscription
from tests.browser.test_accessibility import AXE, serious_violations

SIZES = {"phone": {"width": 390, "height": 844}, "desktop": {"width": 1280, "height": 800}}

STUB_PUSH = """() => {
  const sub = {
    endpoint: "https://push.example/stub-endpoint",
    toJSON() { return {endpoint: this.endpoint, keys: {p256dh: "BStubKey", auth: "stubAuth"}}; },
    unsubscribe() { return Promise.resolve(true); },
  };
  let subscribed = null;
  const proto = PushManager.prototype;
  proto.getSubscription = function () { return Promise.resolve(subscribed); };
  proto.subscribe = function (options) {
    window.__askedKey = options.applicationServerKey.length;
    subscribed = sub; return Promise.resolve(sub);
  };
}"""


@pytest.fixture
def shots(tmp_path) -> Path:
    """Where the screenshots go: SCREENSHOTS, else the test's own folder (a fixed
    folder would be shared by parallel workers and runs)."""
    folder = Path(os.environ.get("SCREENSHOTS") or tmp_path)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture
def axe_file() -> Path:
    if not AXE.exists():
        pytest.fail("axe-core is missing from node_modules (npm ci)")
    return AXE


@pytest.fixture(autouse=True)
def _vapid(settings, tmp_path):
    from notifications import push

    settings.VAPID_PRIVATE_KEY = ""
    settings.VAPID_PUBLIC_KEY = ""
    settings.VAPID_KEY_FILE = str(tmp_path / "vapid.pem")
    push.vapid.cache_clear()
    yield
    push.vapid.cache_clear()


def _signed_in(browser, server, user, **options):
    context = browser.new_context(locale="es-ES", bypass_csp=True, **options)
    context.set_default_timeout(20_000)
    client = Client()
    client.force_login(user)
    name = django_settings.SESSION_COOKIE_NAME
    context.add_cookies([{"name": name, "value": client.cookies[name].value, "url": server.url}])
    return context


def _send(user, key, kind=kinds.FRIEND_REQUEST, params=None):
    return services.notification_send(
        user=user,
        kind=kind,
        params=params or {"name": "pablo"},
        link="/friends/",
        dedup_key=key,
    )


def test_the_bell_counts_live_and_the_list_marks_read_axe_clean(
    asgi_server, browser, axe_file, player, shots
):
    _send(player, "1")
    _send(
        player,
        "2",
        kind=kinds.LEAGUE_RESULT,
        params={"division": 3, "movement": 1, "prize": 250},
    )
    context = _signed_in(browser, asgi_server, player)
    page = context.new_page()
    page.goto(asgi_server.url + "/play/")
    bell = page.locator("#nav-bell")
    expect(bell).to_have_attribute("aria-label", "Notificaciones, 2 sin leer")
    expect(page.locator("#lobby-root")).to_have_attribute("data-socket", "open")
    _send(player, "3", params={"name": "quique"})
    expect(bell).to_have_attribute("aria-label", "Notificaciones, 3 sin leer")
    expect(bell.locator(".nav-bell-count")).to_have_text("3")
    found = {}
    for size, viewport in SIZES.items():
        page.set_viewport_size(viewport)
        page.goto(asgi_server.url + "/notifications/")
        link = page.get_by_role("link", name="quique te ha enviado una solicitud de amistad.")
        expect(link).to_be_visible()
        expect(link).to_have_attribute("href", "/friends/")
        league = page.get_by_role("link", name=re.compile("has subido a Oro. Has ganado un premio"))
        expect(league).to_contain_text("250 monedas.")
        page.screenshot(path=str(shots / f"list-{size}.png"), full_page=True)
        found[f"list-{size}"] = serious_violations(page, axe_file)
        page.goto(asgi_server.url + "/notifications/settings/")
        page.screenshot(path=str(shots / f"settings-{size}.png"), full_page=True)
        found[f"settings-{size}"] = serious_violations(page, axe_file)
    page.goto(asgi_server.url + "/notifications/")
    # Keyboard: tab to the first "mark as read" and press Enter (htmx redraws the list).
    first = page.get_by_role("button", name=re.compile("^Marcar como leída")).first
    first.focus()
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name=re.compile("^Marcar como leída"))).to_have_count(2)
    page.get_by_role("button", name="Marcar todas como leídas").click()
    expect(page.get_by_role("button", name=re.compile("^Marcar como leída"))).to_have_count(0)
    assert not Notification.objects.filter(read_at__isnull=True).exists()
    page.goto(asgi_server.url + "/notifications/")
    expect(page.locator("#nav-bell")).to_have_attribute("aria-label", "Notificaciones, 0 sin leer")
    page.screenshot(path=str(shots / "list-read-desktop.png"), full_page=True)
    context.close()
    assert {k: v for k, v in found.items() if v} == {}


def test_push_subscribe_flow_and_the_workers_push_and_click_handlers(
    asgi_server, browser, player, shots
):
    context = _signed_in(browser, asgi_server, player, service_workers="allow")
    context.grant_permissions(["notifications"], origin=asgi_server.url)
    page = context.new_page()
    page.goto(asgi_server.url + "/notifications/settings/")
    page.wait_for_function("navigator.serviceWorker.controller !== null || true")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    # A real subscription, as a browser with a push service would make.
    real = page.evaluate(
        """() => navigator.serviceWorker.ready
          .then((r) => r.pushManager.subscribe({userVisibleOnly: true,
                applicationServerKey: document.querySelector('[data-push-offer]').dataset.key}))
          .then((s) => 'subscribed: ' + s.endpoint, (e) => e.name + ': ' + e.message)"""
    )
    print("real_subscribe:", real)
    # The page's flow, with the push manager's answer stubbed.
    page.evaluate(STUB_PUSH)
    page.evaluate("document.querySelector('[data-push-offer]').dataset.pushReady = ''")
    page.reload()
    page.evaluate(STUB_PUSH)
    page.evaluate(
        "document.querySelectorAll('[data-push-offer]').forEach(o => {delete o.dataset.pushReady});"
        "document.dispatchEvent(new Event('htmx:afterSettle'))"
    )
    on = page.get_by_role("button", name="Activar notificaciones en este dispositivo", exact=True)
    expect(on).to_be_visible()
    page.set_viewport_size(SIZES["phone"])
    page.screenshot(path=str(shots / "push-offer-phone.png"), full_page=True)
    on.click()
    expect(
        page.get_by_text("Las notificaciones están activadas en este dispositivo.")
    ).to_be_visible()
    assert page.evaluate("window.__askedKey") == 65
    sub = PushSubscription.objects.get()
    assert sub.user == player and sub.endpoint == "https://push.example/stub-endpoint"
    # The worker: a push is shown, and its click opens its link in the site's tab.
    worker = context.service_workers[0]
    shown = worker.evaluate(
        """() => self.cuatrolaPush.show({title: "Cuatrola Online",
                   body: "pablo te ha enviado una solicitud de amistad.",
                   url: "/friends/", tag: "n1"})
          .then(() => self.registration.getNotifications())
          .then((list) => list.map((n) => ({title: n.title, body: n.body, url: n.data.url})))"""
    )
    assert {
        "title": "Cuatrola Online",
        "body": "pablo te ha enviado una solicitud de amistad.",
        "url": "/friends/",
    } in shown
    worker.evaluate("() => self.cuatrolaPush.open('/friends/')")
    expect(page).to_have_url(asgi_server.url + "/friends/")
    # A link to another site is never opened.
    assert worker.evaluate("() => self.cuatrolaPush.open('https://evil.example/')") is None
    context.close()


# The tab shown or hidden, as the browser says it when the player switches tabs.
SHOW = """(state) => {
  Object.defineProperty(document, "visibilityState", {value: state, configurable: true});
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_the_bell_counts_without_reload_on_a_page_without_the_lobby_socket(
    asgi_server, browser, player, settings
):
    """A page with no lobby socket (the clubs list) reads the cached count every
    NOTIFICATIONS_BELL_POLL_SECONDS while visible, and stops while the tab is hidden."""
    settings.NOTIFICATIONS_BELL_POLL_SECONDS = 1
    _send(player, "1")
    context = _signed_in(browser, asgi_server, player)
    page = context.new_page()
    asked = []
    page.on("request", lambda r: asked.append(r.url) if "/notifications/unread/" in r.url else None)
    page.goto(asgi_server.url + "/clubs/")
    assert page.locator("#lobby-root").count() == 0
    bell = page.locator("#nav-bell")
    expect(bell).to_have_attribute("aria-label", "Notificaciones, 1 sin leer")
    _send(player, "2", params={"name": "quique"})
    expect(bell).to_have_attribute("aria-label", "Notificaciones, 2 sin leer")
    expect(bell.locator(".nav-bell-count")).to_have_text("2")
    expect(bell).to_have_class(re.compile("nav-bell-unread"))
    services.notifications_read_all(user=player)
    expect(bell).to_have_attribute("aria-label", "Notificaciones, ninguna sin leer")
    expect(bell.locator(".nav-bell-count")).to_have_text("0")
    assert asked, "the bell never asked for its count"
    # Hidden: no more asking (a negative: two poll periods pass without a request).
    page.evaluate(SHOW, "hidden")
    page.wait_for_timeout(300)  # a request already in flight lands
    before = len(asked)
    page.wait_for_timeout(2500)
    assert len(asked) == before
    # Visible again: it asks at once.
    _send(player, "3", params={"name": "rosa"})
    page.evaluate(SHOW, "visible")
    expect(bell).to_have_attribute("aria-label", "Notificaciones, 1 sin leer")
    context.close()

"""Offline practice's page, engine bundle, service worker and web app manifest."""

from __future__ import annotations

import json
import re

import pytest
from django.urls import reverse

from games import offline

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_version():
    offline.engine_bundle.cache_clear()
    offline.offline_version.cache_clear()
    yield
    offline.engine_bundle.cache_clear()
    offline.offline_version.cache_clear()


def sw_config(client) -> dict:
    body = client.get("/sw.js").content.decode()
    return json.loads(re.search(r"const CONFIG = (\{.*?\});", body).group(1))


def test_the_offline_page_needs_no_login_and_carries_no_ones_name(client, make_user):
    player = make_user("quiet_quokka")
    client.force_login(player)
    response = client.get(reverse("games:offline"))
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="offline-root"' in body
    assert player.username not in body  # the service worker keeps a copy of this page
    assert response["Cache-Control"] == "no-cache"


def test_the_offline_page_offers_the_rule_sets_and_bot_levels_of_online_practice(client):
    body = client.get(reverse("games:offline"), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    for value in ("online", "classic", "easy", "medium", "hard"):
        assert f'value="{value}"' in body
    strings = json.loads(
        re.search(r'id="offline-strings" type="application/json">(.*?)</script>', body).group(1)
    )
    assert strings["files"] == list(offline.PYODIDE_FILES)
    assert strings["table_view"]["words"]["suits"]["e"] == "swords"  # for the live table's renderer


def test_the_page_is_in_the_visitors_language(client):
    body = client.get(reverse("games:offline"), HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "Practicar sin conexión" in body


def test_the_engine_bundle_holds_the_engine_bots_and_driver_sources(client):
    response = client.get(reverse("games:offline_engine"))
    files = json.loads(response.content)
    assert "games/frames/offline_practice.py" in files
    assert "cuatrola/engine/hand.py" in files and "cuatrola/bots/search.py" in files
    assert not any("models" in name or "services" in name for name in files)
    assert (
        files["cuatrola/engine/rules.py"]
        == (offline.ROOT / "cuatrola" / "engine" / "rules.py").read_text()
    )


def test_the_service_worker_caches_the_page_pyodide_and_the_engine(client):
    response = client.get("/sw.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert "no-store" in response["Cache-Control"]
    config = sw_config(client)
    urls = config["urls"]
    assert urls[0] == reverse("games:offline")
    assert reverse("games:offline_engine") + "?v=" + config["version"] in urls
    for name in offline.PYODIDE_FILES:
        assert "/static/vendor/pyodide/" + name in urls
    assert "/static/js/offline-worker.js" in urls
    for url in urls[2:]:  # every cached file is there to be fetched
        assert client.get(url).status_code == 200, url


def test_a_new_engine_gives_a_new_cache_version(client, monkeypatch):
    before = sw_config(client)["version"]
    sources = offline.python_sources()
    monkeypatch.setattr(
        offline, "python_sources", lambda: {**sources, "cuatrola/engine/rules.py": "# changed\n"}
    )
    offline.engine_bundle.cache_clear()
    offline.offline_version.cache_clear()
    after = sw_config(client)["version"]
    assert after != before


def test_pages_link_the_manifest_and_register_the_service_worker(client):
    body = client.get("/").content.decode()
    assert 'rel="manifest" href="/manifest.webmanifest"' in body
    assert 'data-sw-url="/sw.js"' in body
    assert reverse("games:offline") in body


def test_the_manifest_names_the_app_with_icons_and_colours(client):
    response = client.get("/manifest.webmanifest", HTTP_ACCEPT_LANGUAGE="en")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["name"] == "Cuatrola Online"
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    assert manifest["theme_color"] and manifest["background_color"]
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert client.get(icon["src"]).status_code == 200


@pytest.mark.parametrize("url", ["/play/offline/", "/play/offline/engine.json", "/sw.js"])
def test_posting_to_the_offline_urls_is_refused(client, url):
    assert client.post(url).status_code == 405


def test_the_offline_page_works_with_no_section_registered(client, monkeypatch):
    """Games' pages take the regions of the apps above it through `games.hooks`
    (the daily deal's replay of past days): without them the page is whole."""
    from games import hooks

    monkeypatch.setattr(hooks, "_page_sections", {})
    body = client.get(reverse("games:offline")).content.decode()
    assert 'id="offline-root"' in body and 'id="offline-mark"' in body
    assert "daily-past" not in body


def test_a_page_section_is_registered_for_a_page_games_has(monkeypatch):
    from games import hooks

    monkeypatch.setattr(hooks, "_page_sections", {})
    with pytest.raises(ValueError):
        hooks.register_page_section("nowhere", lambda *, user: None)
    hooks.register_page_section("lobby", lambda *, user: None)
    assert hooks.page_sections("lobby", user=None) == []  # None: nothing shown

"""Offline practice in Chromium: Pyodide in a web worker, a service worker, no network."""

from __future__ import annotations

import contextlib
import json
import re

import pytest
from django.core.signals import request_started
from django.utils import translation
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games import offline
from games.frames.offline_practice import OfflinePractice
from games.words import catalogue as words
from games.words.translated import game_words
from tests.browser.table_moves import quick_tricks
from tests.browser.test_cards import _shoot as shoot
from tests.browser.test_tables import LAPTOP, PHONE, assert_hand_fits

# A classic match the clicks below (highest bid, last playable card) end in three hands.
SHORT_MATCH_SEED = 4
READY = "#offline-root:is([data-state=ready], [data-state=failed])"
BOOT_TIMEOUT = 120_000
BROWSER_OWN = {"/sw.js"}  # the first start downloads and compiles ~12 MB of WebAssembly


@pytest.fixture
def server_requests():
    """Counts the HTTP requests that reach Django (pages and static files alike)."""
    seen: list[str] = []

    def count(sender, scope=None, environ=None, **kwargs):
        seen.append((scope or {}).get("path") or (environ or {}).get("PATH_INFO", "?"))

    request_started.connect(count, weak=False)
    yield seen
    request_started.disconnect(count)


@pytest.fixture(autouse=True)
def _fresh_offline_version():
    offline.engine_bundle.cache_clear()
    offline.offline_version.cache_clear()
    yield
    offline.engine_bundle.cache_clear()
    offline.offline_version.cache_clear()


def wait_for_service_worker(page) -> str:
    """Waits until the service worker has cached everything; returns the cache's name."""
    names = page.evaluate(
        """async () => {
            await navigator.serviceWorker.ready;
            return await caches.keys();
        }"""
    )
    [name] = [n for n in names if n.startswith("cuatrola-offline-")]
    return name


def wait_until_ready(page) -> None:
    page.locator(READY).wait_for(timeout=BOOT_TIMEOUT)
    assert page.get_attribute("#offline-root", "data-state") == "ready", page.text_content(
        "#offline-error"
    )


# The live table's controls (static/js/table-view.js): a bid, or a card the rules allow.
MY_MOVE = "#offline-table :is(.tv-bids button, .tv-hand-card--playable)"
OVER = "#offline-root[data-state=over]"


def click_until_the_match_ends(page) -> int:
    """Clicks the highest bid offered, else the last playable card, to the end."""
    clicks = 0
    bids = page.locator("#offline-table .tv-bids button")
    cards = page.locator("#offline-table .tv-hand-card--playable")
    while True:
        page.locator(f"{OVER}, {MY_MOVE}").first.wait_for(timeout=30_000)
        if page.locator(OVER).count():
            return clicks
        button = bids.last if bids.count() else cards.last
        with contextlib.suppress(PlaywrightError):  # redrawn under the pointer: look again
            button.click(timeout=2_000)
            clicks += 1


def test_with_the_network_off_the_start_page_offers_practice_and_a_whole_match_is_played(
    asgi_server, new_page, server_requests
):
    page = new_page("en-GB", service_workers="allow")
    quick_tricks(page)
    page.goto(asgi_server.url + "/")
    cache_name = wait_for_service_worker(page)
    assert cache_name == "cuatrola-offline-" + offline.offline_version()

    page.context.set_offline(True)
    server_requests.clear()
    page.reload()
    expect(page.get_by_role("heading", name="Practice offline")).to_be_visible()
    expect(page.get_by_role("status").filter(has_text="You are offline")).to_be_visible()

    page.goto(f"{asgi_server.url}/play/offline/?pace=0&seed={SHORT_MATCH_SEED}")
    expect(page.get_by_role("progressbar")).to_be_attached()
    wait_until_ready(page)
    # Only the browser's own checks for a new service worker get through (Chromium's
    # offline emulation does not cover them; they come after navigations, at any
    # time): the pages, scripts, Pyodide, the engine and every move stay local.
    assert set(server_requests) <= BROWSER_OWN, server_requests
    page.get_by_role("combobox", name="Rules").select_option("classic")
    page.get_by_role("combobox", name="Bot level").select_option("easy")
    page.set_viewport_size(PHONE)
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("region", name="Your hand")).to_be_visible()
    # The live table's renderer and layout: seats named, the bots' badges, the whole
    # hand on a phone's screen without scrolling.
    page.locator(MY_MOVE).first.wait_for()
    expect(page.locator(".tv-seat")).to_have_count(3)
    expect(page.locator(".tv-seat .tv-badge-bot")).to_have_text(["bot, Easy"] * 3)
    expect(page.locator(".tv-seat--top .tv-badge-partner")).to_be_visible()
    # The player's seat is named "You": no "you" badge repeats it.
    expect(page.locator(".tv-mine-head .tv-name")).to_have_text("You")
    expect(page.locator(".tv-badge-you")).to_have_count(0)
    assert_hand_fits(page)
    shoot(page, "offline-table-390x844")

    clicks = click_until_the_match_ends(page)
    assert clicks >= 5  # a bid and the five cards of a hand at least
    expect(
        page.get_by_role("heading", name="You won the match!").or_(
            page.get_by_role("heading", name="You lost the match.")
        )
    ).to_be_visible()
    assert set(server_requests) <= BROWSER_OWN, server_requests
    # The places as online, from the frame's result: the bots by name, the player's
    # seat "You" (no "(you)" beside it), and no coins or XP in practice.
    places = page.locator(".tv-places li")
    expect(places).to_have_count(4)
    expect(page.locator(".tv-places .tv-place-me")).to_have_text(re.compile(r"^You · "))
    expect(page.locator(".tv-places")).not_to_contain_text("(you)")
    expect(page.locator(".tv-places")).not_to_contain_text("Coins")
    # The last hand's summary, from the frame's `summary`.
    expect(page.locator(".tv-summary")).to_be_visible()

    shoot(page, "offline-over-390x844")

    # Again: a new match starts at once, still offline.
    page.set_viewport_size(LAPTOP)
    page.get_by_role("button", name="Play again").click()
    expect(page.get_by_role("region", name="Your hand")).to_be_visible()
    page.locator(MY_MOVE).first.wait_for()
    expect(page.locator(".tv-summary")).to_have_count(0)  # nothing left from the last match
    assert_hand_fits(page)
    shoot(page, "offline-table-1280x800")
    assert set(server_requests) <= BROWSER_OWN, server_requests

    # A later visit starts Python from the memory snapshot the first one kept.
    assert page.evaluate("window.CuatrolaOffline.fromSnapshot") is False
    page.reload()
    wait_until_ready(page)
    assert page.evaluate("window.CuatrolaOffline.fromSnapshot") is True
    page.get_by_role("button", name="Start the match").click()
    expect(page.get_by_role("region", name="Your hand")).to_be_visible()
    assert click_until_the_match_ends(page) >= 5
    assert set(server_requests) <= BROWSER_OWN, server_requests


def player_pick(legal: list[str], version: int) -> str:
    return legal[version % len(legal)]


# The same loop runs in the page against the browser's worker.
DRIVE_IN_BROWSER = """async ({workerUrl, pyodideUrl, engineUrl, files, games}) => {
    const worker = new Worker(workerUrl);
    const queue = [];
    let wake = null;
    worker.onmessage = (event) => { queue.push(event.data); if (wake) wake(); };
    async function next(type) {
        for (;;) {
            const i = queue.findIndex((m) => m.type === type || m.type === "failed");
            if (i >= 0) return queue.splice(i, 1)[0];
            await new Promise((resolve) => { wake = resolve; });
        }
    }
    worker.postMessage({type: "boot", pyodideUrl, engineUrl, files});
    const ready = await next("ready");
    if (ready.type === "failed") return ready;
    const results = [];
    for (const [rules, level, seed] of games) {
        worker.postMessage({type: "start", rules, level, seed});
        let frame = (await next("frame")).frame;
        const steps = [];
        while (frame.table.status === "playing") {
            const legal = frame.view.hand.legal_actions;
            if (frame.view.to_play === 0) {
                const action = legal[frame.version % legal.length];
                steps.push({seat: 0, legal, action});
                worker.postMessage({type: "play", action});
            } else {
                worker.postMessage({type: "bot"});
            }
            frame = (await next("frame")).frame;
            if (frame.type === "error") return frame;
            if (frame.bot) steps.push({seat: frame.bot.seat, action: frame.bot.action});
        }
        results.push({steps, scores: frame.view.scores, winner: frame.view.winner});
    }
    worker.terminate();
    return results;
}"""

SAME_DEALS = [("online", "easy", 101), ("classic", "easy", 202), ("online", "easy", 303)]


def test_the_browser_engine_gives_the_server_engines_legal_moves_and_results(asgi_server, new_page):
    page = new_page("en-GB", service_workers="allow")
    page.goto(asgi_server.url + "/play/offline/")
    wait_until_ready(page)
    root = page.locator("#offline-root")
    browser_games = page.evaluate(
        DRIVE_IN_BROWSER,
        {
            "workerUrl": root.get_attribute("data-worker-url"),
            "pyodideUrl": root.get_attribute("data-pyodide-url"),
            "engineUrl": root.get_attribute("data-engine-url"),
            "files": list(offline.PYODIDE_FILES),
            "games": [list(game) for game in SAME_DEALS],
        },
    )
    assert isinstance(browser_games, list), browser_games
    for (rules, level, seed), played in zip(SAME_DEALS, browser_games, strict=True):
        server = OfflinePractice(rules=rules, level=level, seed=seed)
        steps = []
        while not server.match.is_over:
            if server.bot_to_play():
                frame = server.bot_play()
                steps.append({"seat": frame["bot"]["seat"], "action": frame["bot"]["action"]})
            else:
                legal = list(server.match.legal_actions())
                action = player_pick(legal, server.version)
                steps.append({"seat": 0, "legal": legal, "action": action})
                server.play(action)
        assert json.loads(json.dumps(steps)) == played["steps"]
        assert list(server.match.scores) == played["scores"]
        assert server.match.winner == played["winner"]


def test_a_new_deployment_replaces_the_cached_files(asgi_server, new_page, monkeypatch):
    page = new_page("en-GB", service_workers="allow")
    page.goto(asgi_server.url + "/")
    old_cache = wait_for_service_worker(page)

    # Deploy a new engine: its source is part of the cache's version.
    sources = offline.python_sources()
    marker = "# deployment two\n"
    monkeypatch.setattr(
        offline, "python_sources", lambda: {**sources, "cuatrola/engine/rules.py": marker}
    )
    offline.engine_bundle.cache_clear()
    offline.offline_version.cache_clear()
    new_version = offline.offline_version()

    after = page.evaluate(
        """async (engineUrl) => {
            const registration = await navigator.serviceWorker.getRegistration();
            await registration.update();
            const fresh = registration.installing || registration.waiting;
            if (!fresh) return {names: ["no new service worker"], engine: null};
            // "activated" once its activate step (which drops the old cache) is done.
            await new Promise((resolve) => {
                if (fresh.state === "activated") resolve();
                fresh.addEventListener("statechange", () => {
                    if (fresh.state === "activated") resolve();
                });
            });
            const names = await caches.keys();
            const kept = await caches.match(engineUrl);
            return {names, engine: kept ? await kept.json() : null};
        }""",
        offline.engine_url(),
    )
    assert after["names"] == ["cuatrola-offline-" + new_version]
    assert old_cache not in after["names"]
    assert after["engine"]["cuatrola/engine/rules.py"] == marker


# Every sentence the table shows or announces, as it appears.
COLLECT_SENTENCES = """() => {
  window.sentences = [];
  const seen = (node) => {
    for (const p of node.querySelectorAll('[role=log] p, .tv-summary p, .tv-trick-caption')) {
      if (p.textContent) window.sentences.push(p.textContent);
    }
  };
  new MutationObserver(() => seen(document.getElementById('offline-table')))
    .observe(document.getElementById('offline-table'), {childList: true, subtree: true});
}"""


def test_offline_sentences_about_the_player_are_in_the_second_person(asgi_server, new_page):
    page = new_page("es-ES", service_workers="allow")
    quick_tricks(page)
    page.goto(f"{asgi_server.url}/play/offline/?pace=0&seed={SHORT_MATCH_SEED}")
    wait_until_ready(page)
    page.locator("#offline-form select[name=rules]").select_option("classic")
    page.locator("#offline-form select[name=bot_level]").select_option("easy")
    page.evaluate(COLLECT_SENTENCES)
    page.get_by_role("button", name="Empezar la partida").click()
    page.locator(MY_MOVE).first.wait_for()
    expect(page.locator(".tv-mine-head .tv-name")).to_have_text("Tú")
    click_until_the_match_ends(page)
    sentences = set(page.evaluate("window.sentences"))
    assert any(s.startswith("Juegas ") for s in sentences), sentences  # each card of ours
    assert any(
        re.match(r"Pediste (Solo|Cuatrola|Quintola): (cumplida|fallada)\.", s) for s in sentences
    ), sentences
    wrong = [s for s in sentences if re.search(r"\bTú (juega|gana|pidió|canta)\b", s)]
    assert wrong == []
    page.set_viewport_size(PHONE)
    shoot(page, "offline-over-es-390x844")
    page.set_viewport_size(LAPTOP)
    shoot(page, "offline-over-es-1280x800")


def test_offline_cards_refused_by_the_rules_say_why_in_the_online_words(asgi_server, new_page):
    """A Spanish page: a card the rules refuse says why as the live table does (the
    game words for the engine's code, the suit to follow named in Spanish).

    The bots search against the clock (in the browser too), so on a loaded machine
    they may choose other moves and the match take another path, with no card of
    this player's refused for a suit to follow (it failed so, twice, after other
    browser tests). Another seed is dealt then, until a refusal was seen."""
    with translation.override("es"):
        found = game_words()
    expected = {
        words.refusal_text(found, code, {"suit": suit})
        for code in words.REFUSAL_WORDS
        for suit in (*words.SUIT_WORDS, "")
    }
    follow = re.compile(r"Debes asistir al palo \((oros|copas|espadas|bastos)\)")
    page = new_page("es-ES", service_workers="allow")
    quick_tricks(page)
    page.set_viewport_size(PHONE)
    titles: set[str] = set()
    shot = False
    for seed in (SHORT_MATCH_SEED, 5, 6, 7):
        page.goto(f"{asgi_server.url}/play/offline/?pace=0&seed={seed}")
        wait_until_ready(page)
        page.get_by_role("button", name="Empezar la partida").click()
        refused = page.locator("#offline-table .tv-hand-card[title]")
        bids = page.locator("#offline-table .tv-bids button")
        cards = page.locator("#offline-table .tv-hand-card--playable")
        while not page.locator(OVER).count():
            page.locator(f"{OVER}, {MY_MOVE}").first.wait_for(timeout=30_000)
            if page.locator(OVER).count():
                break
            if cards.count():
                now = set(refused.evaluate_all("buttons => buttons.map((b) => b.title)"))
                if not shot and any(t.startswith("Debes asistir") for t in now):
                    shoot(page, "offline-refusal-es-390x844")
                    shot = True
                titles |= now
            button = bids.last if bids.count() else cards.last
            with contextlib.suppress(PlaywrightError):
                button.click(timeout=2_000)
        if any(follow.fullmatch(title) for title in titles):
            break
    assert titles and titles <= expected, titles - expected
    assert any(follow.fullmatch(title) for title in titles), titles
    # the end: the places and the deciding hand's summary, from the frames
    expect(page.locator(".tv-places li")).to_have_count(4)
    expect(page.locator(".tv-summary")).to_be_visible()
    shoot(page, "offline-over-es-390x844")


def test_a_past_daily_deal_is_replayed_offline_as_the_server_dealt_it(asgi_server, new_page):
    """Yesterday's deals from the server's deals.json (a 62-bit seed as a decimal
    string, its dealer, one hand), dealt and played in the browser: the player holds
    the cards the server dealt, the bots are named as online, the end offers the next
    deal."""
    from datetime import timedelta

    from django.conf import settings
    from django.utils import timezone

    from daily.deals import deal_dealer, deal_match, deal_seed
    from daily.services import day_of
    from games.frames.builder import player_names

    yesterday = day_of(timezone.now()) - timedelta(days=1)
    seed = deal_seed(secret=settings.DAILY_SECRET, day=yesterday, number=1)
    served = deal_match(seed=seed, dealer=deal_dealer(1))
    page = new_page("en-GB")
    quick_tricks(page)
    page.goto(f"{asgi_server.url}/play/offline/?pace=0")
    wait_until_ready(page)
    page.get_by_label("Day").fill(yesterday.isoformat())
    page.get_by_role("button", name="Replay that day's deals").click()
    expect(page.locator("#offline-mark")).to_have_text(
        f"Daily deal of {yesterday.isoformat()} · deal 1 of 6 · not ranked"
    )
    page.locator(MY_MOVE).first.wait_for()
    held = page.locator("#offline-table .tv-hand-card").evaluate_all(
        "cards => cards.map(card => card.dataset.card)"
    )
    assert sorted(held) == sorted(served.hand.hand_of(0))
    bots = player_names(seed=seed, people={0: "You"}, bots=(1, 2, 3))[1:]
    names = page.locator(".tv-seat .tv-name").evaluate_all("els => els.map(e => e.textContent)")
    assert sorted(names) == sorted(bots)
    click_until_the_match_ends(page)
    next_deal = page.get_by_role("button", name="Next deal (2 of 6)")
    expect(next_deal).to_be_visible()
    next_deal.click()
    expect(page.locator("#offline-mark")).to_contain_text("deal 2 of 6")
    page.locator(MY_MOVE).first.wait_for()

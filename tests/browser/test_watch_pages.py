"""The watchers' pages in Chromium (docs/watching.md): the tables in play at 390×844
and 1280×800 with no serious axe-core violation, then a watcher's table page (the
Watching badge, the watchers' talk panel). Screenshots go to SCREENSHOT_DIR when it
is set."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from playwright.sync_api import expect

from games import services as games
from games.models import Match, MatchStatus, Seat, Table
from tests.browser.test_accessibility import axe_script, serious_violations  # noqa: F401
from tests.browser.test_social import LAPTOP, PHONE, log_in, shoot
from tests.watching import online_table, stake_table


@pytest.fixture(autouse=True)
def _bots_still(settings):
    settings.BOT_RUNNER = "off"  # the tables stay as set up while the pages are looked at
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def tables_in_play(make_user, player) -> list[Table]:
    """An online table, a stake table and a friends room opened to watch, in play."""
    online = online_table(make_user, "ana_", *[make_user(n) for n in ("lucía", "mateo")])
    stake = stake_table(make_user, "jugador", stake=500)
    room = games.table_create_friends(user=make_user("rocío"))
    games.seat_set_bot(user=room.owner, table_id=room.pk, position=1, bot=True)
    games.seat_set_bot(user=room.owner, table_id=room.pk, position=2, bot=True)
    games.seat_set_bot(user=room.owner, table_id=room.pk, position=3, bot=True)
    games.match_start(user=room.owner, table_id=room.pk, seed=3)
    Table.objects.filter(pk=room.pk).update(open_to_watch=True)
    for table, ratings, scores in (
        (online, (1620, 1585, 1710, 1540), (14, 12)),
        (stake, (1490, 1502, 1475, 1530), (6, 9)),
    ):
        for position, value in enumerate(ratings):
            Seat.objects.filter(table=table, position=position).update(rating=value)
        Match.objects.filter(table=table, status=MatchStatus.PLAYING).update(
            score_a=scores[0], score_b=scores[1], hand_no=4
        )
    return [online, stake, room]


def test_a_watcher_finds_a_table_in_play_and_watches_it(
    asgi_server,
    browser,
    axe_script,  # noqa: F811 (the fixture imported above)
    make_user,
    player,
    tmp_path: Path,
):
    online, _stake, _room = tables_in_play(make_user, player)
    context = browser.new_context(
        locale="es-ES", viewport=PHONE, bypass_csp=True, service_workers="block"
    )
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, player)

    page.goto(asgi_server.url + "/watch/")
    rows = page.locator(".watch-row")
    expect(rows).to_have_count(3)
    # The best-rated table first, each with its Watch link.
    expect(rows.first).to_contain_text("lucía")
    expect(page.get_by_role("link", name=f"Mirar la mesa {online.pk}")).to_be_visible()
    assert serious_violations(page, axe_script) == []
    # Nothing runs off the side of a phone.
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, tmp_path, "watch-list-390x844")
    page.set_viewport_size(LAPTOP)
    shoot(page, tmp_path, "watch-list-1280x800")
    page.set_viewport_size(PHONE)

    page.get_by_role("link", name=f"Mirar la mesa {online.pk}").click()
    expect(page).to_have_url(re.compile(rf"/tables/{online.pk}/$"))
    expect(page.get_by_test_id("watching-badge")).to_be_visible()
    page.wait_for_selector("#table-view:not([hidden])")
    expect(page.get_by_role("group", name="Decir a los demás mirones")).to_be_visible()
    expect(page.locator("#table-root")).to_have_attribute("data-socket", "open")
    assert serious_violations(page, axe_script) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    shoot(page, tmp_path, "watcher-table-390x844")
    page.set_viewport_size(LAPTOP)
    shoot(page, tmp_path, "watcher-table-1280x800")
    context.close()


def test_an_empty_list_says_so_at_390(
    asgi_server,
    browser,
    axe_script,  # noqa: F811 (the fixture imported above)
    player,
    tmp_path,
):
    context = browser.new_context(
        locale="es-ES", viewport=PHONE, bypass_csp=True, service_workers="block"
    )
    page = context.new_page()
    log_in(page, asgi_server, player)
    page.goto(asgi_server.url + "/watch/")
    expect(page.get_by_test_id("watch-empty")).to_be_visible()
    assert serious_violations(page, axe_script) == []
    shoot(page, tmp_path, "watch-empty-390x844")
    context.close()


def test_a_watchers_page_draws_the_count_keeps_watcher_talk_apart_and_sends_phrases(
    asgi_server, browser, make_user, player
):
    """The server's side of watching is played by a routed socket: the page's own
    socket reaches the server, and the test adds a `watchers` message and talk lines,
    and answers a phrase the page sends with a watcher's line (docs/watching.md)."""
    table = online_table(make_user, "on")
    context = browser.new_context(locale="es-ES", viewport=PHONE, service_workers="block")
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, player)
    routed = []

    def route(ws):
        server = ws.connect_to_server()

        def from_page(message):
            data = json.loads(message)
            if data.get("type") == "talk":  # answered here, as a watcher's line
                ws.send(
                    json.dumps(
                        {
                            "type": "talk",
                            "seat": None,
                            "watcher": True,
                            "name": player.username,
                            "phrase": data["phrase"],
                            "text": "sent:" + data["phrase"],
                            "label": "sent",
                        }
                    )
                )
            else:
                server.send(message)

        ws.on_message(from_page)
        routed.append(ws)

    page.route_web_socket(re.compile(r"/ws/tables/"), route)
    page.goto(f"{asgi_server.url}/tables/{table.pk}/")
    expect(page.locator("#table-root")).to_have_attribute("data-socket", "open")
    ws = routed[0]
    ws.send(json.dumps({"type": "watchers", "count": 3}))
    expect(page.get_by_test_id("watchers-count")).to_have_text("3 mirones")
    ws.send(json.dumps({"type": "watchers", "count": 1}))
    expect(page.get_by_test_id("watchers-count")).to_have_text("1 mirón")
    ws.send(json.dumps({"type": "watchers", "count": "many"}))  # ignored
    expect(page.get_by_test_id("watchers-count")).to_have_text("1 mirón")
    player_line = {"type": "talk", "seat": 0, "name": "on0", "phrase": "hello"}
    ws.send(json.dumps({**player_line, "text": "¡Hola!", "label": "¡Hola!"}))
    expect(page.locator("#talk-log .talk-line")).to_have_text(["on0: ¡Hola!"])
    expect(page.locator("#watch-log .talk-line")).to_have_count(0)
    page.get_by_role("button", name="¡Suerte!").click()
    expect(page.locator("#watch-log .talk-line")).to_have_text(
        [f"{player.username}: sent:good_luck"]
    )
    expect(page.locator("#talk-log .talk-line")).to_have_count(1)
    expect(page.locator(".talk-mute")).to_have_count(0)  # a watcher mutes nobody
    context.close()


def test_a_follower_is_offered_the_friends_next_table_when_the_match_is_over(
    asgi_server, browser, make_user, player
):
    table = online_table(make_user, "on")
    Match.objects.filter(table=table).update(status=MatchStatus.FINISHED, winner=0)
    Table.objects.filter(pk=table.pk).update(status="finished")
    context = browser.new_context(locale="es-ES", viewport=PHONE, service_workers="block")
    context.set_default_timeout(30_000)
    page = context.new_page()
    log_in(page, asgi_server, player)
    page.goto(f"{asgi_server.url}/tables/{table.pk}/?follow=on0")
    page.wait_for_selector("#table-view:not([hidden])")
    link = page.get_by_role("link", name="Mirar la próxima mesa de on0")
    expect(link).to_be_visible()
    expect(link).to_have_attribute("href", "/friends/on0/watch/")
    context.close()

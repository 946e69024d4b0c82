"""In Chromium: the table page asks for the whole state after 10 s of silence in a live
match (a lost frame costs seconds, not a turn), and opens a new socket when even that
gets no answer (static/js/table.js, docs/protocol.md "Silence")."""

from __future__ import annotations

import re

import pytest

from games import bot_runner, services
from games.models import Match, MatchStatus
from games.state import engine_match
from tests.browser.table_moves import MOVED_PAST, quick_tricks
from tests.browser.test_tables import log_in, start_practice

# Every socket the page opens is kept; while `window.deaf` is set, the first one's
# frames never reach the page (lost on the way), and what the page sends is noted.
DEAF_FIRST_SOCKET = """
  const Native = window.WebSocket;
  window.sockets = [];
  window.sent = [];
  window.deaf = false;
  window.heard = [];
  window.lost = [];
  window.lostVersions = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.sockets.push(this); }
    addEventListener(type, listener, ...rest) {
      if (type === "message") {
        const socket = this;
        const inner = listener;
        listener = (event) => {
          if (socket === window.sockets[0]) {
            const frame = JSON.parse(event.data);
            (window.deaf ? window.lost : window.heard).push(frame.type);
            if (window.deaf) window.lostVersions.push(frame.version);
          }
          if (!(window.deaf && socket === window.sockets[0])) inner(event);
        };
      }
      return super.addEventListener(type, listener, ...rest);
    }
    send(data) { window.sent.push(data); return super.send(data); }
  };
"""
SYNCS_SENT = "() => window.sent.filter((m) => JSON.parse(m).type === 'sync').length"
SILENCE_MS = 10_000
# Open, and its first state heard: an open socket's state may still be on its way, and
# a state read after the "unheard" move would carry that move (a busy machine).
FIRST_OPEN = (
    "() => window.sockets.length === 1 && window.sockets[0].readyState === 1"
    " && window.heard.includes('state')"
)


@pytest.fixture(autouse=True)
def _nothing_moves_by_itself(settings):
    """No bot moves unless the test makes it: the table is silent in between."""
    settings.BOT_RUNNER = "off"
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def _move_unheard(table_id: int, player) -> None:
    """One move at the table, made on the server (its frame is the one lost)."""
    match = Match.objects.get(table_id=table_id, status=MatchStatus.PLAYING)
    engine = engine_match(match)
    if engine.to_play == 0:
        services.match_play(
            user=player, table_id=table_id, action=engine.legal_actions()[0], version=match.version
        )
    else:
        assert bot_runner.play_one(table_id)


def test_a_silent_live_table_asks_for_the_state_then_reconnects(asgi_server, new_page, player):
    page = new_page()
    page.add_init_script(DEAF_FIRST_SOCKET)
    page.clock.install()  # real pace; the test jumps it over the silences
    quick_tricks(page)
    log_in(page, asgi_server, player)
    start_practice(page, asgi_server.url)
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    page.wait_for_function(FIRST_OPEN)
    board = page.locator("#table-view")

    # A frame lost on the way: the page still shows the move before.
    version = board.get_attribute("data-version")
    page.evaluate("window.deaf = true")
    _move_unheard(table_id, player)
    # The move's frame is sent after its commit: deaf until it has been lost.
    page.wait_for_function(f"() => window.lostVersions.some((v) => v > {version})")
    page.evaluate("window.deaf = false")
    assert page.evaluate(SYNCS_SENT) == 0
    assert board.get_attribute("data-version") == version
    # Ten seconds of silence in a live match: the page asks, and draws the answer.
    page.clock.fast_forward(SILENCE_MS)
    page.wait_for_function(MOVED_PAST, arg=version)
    assert page.evaluate(SYNCS_SENT) == 1

    # A socket that hears nothing at all any more (half-open): asked once, then
    # given up for a new one, which draws the table as it is.
    version = board.get_attribute("data-version")
    page.evaluate("window.deaf = true")
    _move_unheard(table_id, player)
    page.clock.fast_forward(SILENCE_MS)
    page.wait_for_function(f"() => ({SYNCS_SENT})() === 2")
    assert board.get_attribute("data-version") == version
    page.clock.fast_forward(SILENCE_MS)
    page.wait_for_function("() => window.sockets.length === 2")
    page.wait_for_function(MOVED_PAST, arg=version)
    assert page.evaluate("window.sockets[0].readyState") == 3  # the silent one is closed

"""In Chromium: a move made while the table's socket is not open is not lost. Made
before the page's socket has opened (a slow start) or sent on a socket that closed
before its answer, it goes on the next socket once that socket's first state shows
the same version; if the match moved on meanwhile, it is dropped without an error
(static/js/table.js, docs/protocol.md "A play without an answer")."""

from __future__ import annotations

import json
import re

import pytest
from playwright.sync_api import expect

from games import bot_runner, services
from games.models import Match, MatchStatus
from games.state import engine_match
from tests.browser.table_moves import MOVED_PAST, quick_tricks
from tests.browser.test_tables import log_in, start_practice

# Table sockets as a slow network makes them: while `window.holdNext` is set, the next
# one stays "connecting" until `window.releaseSocket()`; `window.dropNextPlay` loses
# the next play with its socket (closed before any answer). What is sent is noted.
SLOW_SOCKETS = """
  const Native = window.WebSocket;
  window.sent = [];
  window.holdNext = true;
  window.dropNextPlay = false;
  window.releaseSocket = null;
  class Noted extends Native {
    send(data) {
      const message = JSON.parse(data);
      if (message.type === "play" && window.dropNextPlay) {
        window.dropNextPlay = false;
        window.sent.push({lost: message});
        this.close();
        return;
      }
      window.sent.push(message);
      super.send(data);
    }
  }
  class Held {
    constructor(url) {
      this.url = url;
      this.real = null;
      this.listeners = [];
      window.releaseSocket = () => this.open();
    }
    get readyState() { return this.real ? this.real.readyState : 0; }
    addEventListener(type, listener) {
      this.listeners.push([type, listener]);
      if (this.real) this.real.addEventListener(type, listener);
    }
    open() {
      this.real = new Noted(this.url);
      for (const [type, listener] of this.listeners) this.real.addEventListener(type, listener);
    }
    send(data) {
      if (!this.real) throw new DOMException("still connecting", "InvalidStateError");
      this.real.send(data);
    }
    close(...args) { if (this.real) this.real.close(...args); }
  }
  window.WebSocket = function (url, protocols) {
    if (window.holdNext && String(url).includes("/ws/tables/")) {
      window.holdNext = false;
      return new Held(url);
    }
    return new Noted(url, protocols);
  };
  Object.assign(window.WebSocket, {CONNECTING: 0, OPEN: 1, CLOSING: 2, CLOSED: 3});
"""
PLAYS_SENT = "() => window.sent.filter((m) => m.type === 'play')"
SENDING = "Enviando…"


@pytest.fixture(autouse=True)
def _nothing_moves_by_itself(settings):
    """No bot moves unless the test makes it."""
    settings.BOT_RUNNER = "off"
    settings.BOT_MOVE_PAUSE_SECONDS = 0


def _bots_until_our_turn(table_id: int) -> Match:
    """The bots move (on the server) until seat 0, the player's, is to play."""
    for _ in range(10):
        match = Match.objects.get(table_id=table_id, status=MatchStatus.PLAYING)
        if engine_match(match).to_play == 0:
            return match
        assert bot_runner.play_one(table_id)
    raise AssertionError("seat 0 never came to play")


def _our_table_at_our_turn(page, server, player) -> tuple[int, Match]:
    """A practice table drawn at the player's turn from the page's own first frame,
    its socket held "connecting"."""
    page.add_init_script(SLOW_SOCKETS)
    quick_tricks(page)
    log_in(page, server, player)
    start_practice(page, server.url)
    table_id = int(re.search(r"/tables/(\d+)/", page.url).group(1))
    match = _bots_until_our_turn(table_id)
    page.reload()  # drawn from the page's first frame; its socket is held again
    expect(page.locator("#table-view")).to_have_attribute("data-version", str(match.version))
    return table_id, match


def _move(page) -> None:
    """The first bid offered, else the first playable card, clicked."""
    bids = page.locator(".tv-bids button")
    (bids.first if bids.count() else page.locator(".tv-hand-card--playable").first).click()


def test_a_move_made_before_the_socket_opens_is_sent_once_it_opens(asgi_server, new_page, player):
    page = new_page()
    _table_id, match = _our_table_at_our_turn(page, asgi_server, player)
    assert page.evaluate("document.getElementById('table-root').dataset.socket") is None

    _move(page)
    # Not an error: the move is on its way, and nothing else can be played meanwhile.
    expect(page.locator(".tv-status")).to_have_text(SENDING)
    expect(page.locator(".tv-hand-card--playable")).to_have_count(0)
    assert page.evaluate(PLAYS_SENT) == []

    page.evaluate("window.releaseSocket()")
    page.wait_for_function(MOVED_PAST, arg=str(match.version))
    plays = page.evaluate(PLAYS_SENT)
    assert [play["version"] for play in plays] == [match.version]
    match.refresh_from_db()
    assert match.version > plays[0]["version"]
    expect(page.locator(".tv-status.tv-error")).to_have_count(0)


def test_a_move_whose_socket_closed_before_its_answer_goes_again_on_the_next(
    asgi_server, new_page, player
):
    page = new_page()
    _table_id, match = _our_table_at_our_turn(page, asgi_server, player)
    page.evaluate("window.releaseSocket()")
    expect(page.locator("#table-root")).to_have_attribute("data-socket", "open")

    page.evaluate("window.dropNextPlay = true")
    _move(page)
    # Lost with its socket; the page reconnects, reads the same version, sends it again.
    page.wait_for_function(MOVED_PAST, arg=str(match.version))
    lost = page.evaluate("() => window.sent.filter((m) => m.lost).map((m) => m.lost)")
    plays = page.evaluate(PLAYS_SENT)
    assert [json.dumps(play) for play in plays] == [json.dumps(lost[0])]
    match.refresh_from_db()
    assert match.version == plays[0]["version"] + 1  # played once, not twice
    expect(page.locator(".tv-status.tv-error")).to_have_count(0)


def test_a_move_left_behind_by_the_match_is_dropped_without_an_error(asgi_server, new_page, player):
    page = new_page()
    table_id, match = _our_table_at_our_turn(page, asgi_server, player)
    _move(page)
    expect(page.locator(".tv-status")).to_have_text(SENDING)
    # Meanwhile the seat's move is made another way (its turn ran out: a bot played
    # for it), so the move the page holds belongs to a state that is gone.
    engine = engine_match(match)
    services.match_play(
        user=player, table_id=table_id, action=engine.legal_actions()[-1], version=match.version
    )
    match.refresh_from_db()

    page.evaluate("window.releaseSocket()")
    expect(page.locator("#table-view")).to_have_attribute("data-version", str(match.version))
    assert page.evaluate(PLAYS_SENT) == []  # never sent: it would only be refused
    expect(page.locator(".tv-status.tv-error")).to_have_count(0)
    expect(page.locator(".tv-status")).not_to_have_text(SENDING)

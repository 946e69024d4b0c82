"""In Chromium: what the table page says when a message is too large for the site
(over 4 KiB: an error frame, the socket stays) or for the server itself (over 1 MiB:
the socket is closed with 1009, the page says why and reconnects)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.table_moves import play_one, quick_tricks, wait_for_turn_or_end
from tests.browser.test_tables import log_in, start_practice

# Keeps every socket the page opens, so the test can send through the page's own.
KEEP_SOCKETS = """
  const Native = window.WebSocket;
  window.openSockets = [];
  window.WebSocket = class extends Native {
    constructor(...args) { super(...args); window.openSockets.push(this); }
  };
"""
SEND_ON_LAST = "(size) => window.openSockets.at(-1).send('x'.repeat(size))"
LAST_IS_OPEN = (
    "(n) => window.openSockets.length === n && window.openSockets.at(-1).readyState === 1"
)


@pytest.fixture(autouse=True)
def _bots_in_threads(settings):
    settings.BOT_RUNNER = "thread"
    # Paced, not instant: from the 1009 close until the page is back (half a second
    # at least), a bot plays our seat. Without a pause, bots made some sixty moves for
    # it meanwhile and could end the whole match; at a quarter second a move they make
    # two or three.
    settings.BOT_MOVE_PAUSE_SECONDS = 0.25


def test_a_too_large_message_is_explained_and_the_table_reconnects(asgi_server, new_page, player):
    page = new_page()
    page.add_init_script(KEEP_SOCKETS)
    # The page's clock runs at its real pace; the test jumps it past the 8 s the
    # explanation stays, instead of waiting for them.
    page.clock.install()
    quick_tricks(page)
    log_in(page, asgi_server, player)
    start_practice(page, asgi_server.url)
    page.wait_for_function(LAST_IS_OPEN, arg=1)
    page.evaluate(
        "window.openSockets[0].addEventListener('close', (e) => window.closeCode = e.code)"
    )

    # Over the site's 4 KiB: an error frame; the same socket stays open.
    page.evaluate(SEND_ON_LAST, 5000)
    expect(page.locator("#table-view .tv-status.tv-error")).to_have_text(
        "Envía tramas de texto JSON de 4 KiB como mucho."
    )
    assert page.evaluate("window.openSockets[0].readyState") == 1

    # Over the server's 1 MiB: closed with 1009 before the site sees it; the page
    # says why (not "connection lost") and opens a new socket at once.
    page.evaluate(SEND_ON_LAST, 1024 * 1024 + 1)
    page.wait_for_function("() => window.closeCode !== undefined")
    assert page.evaluate("window.closeCode") == 1009
    expect(page.locator("#connection-status")).to_have_text(
        "El servidor cerró la conexión: un mensaje superaba su límite de 1 MiB y no se "
        "recibió. Reconectando…"
    )
    page.wait_for_function(LAST_IS_OPEN, arg=2)
    # Reconnected, the explanation stays 8 s (static/js/table.js), then goes.
    page.clock.fast_forward(8000)
    expect(page.locator("#connection-status")).to_have_text("")
    # The table still plays: our next bid or card goes through the new socket.
    assert not wait_for_turn_or_end(page)
    play_one(page)
    assert page.evaluate("window.openSockets.length") == 2

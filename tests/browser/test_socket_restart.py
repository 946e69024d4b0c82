"""In Chromium: after its web process closes the table's socket for a restart (4500),
the page reconnects at once and, while the front door cannot yet reach a process,
tries again about every second instead of backing off, so the player is back within
the seat's reconnection grace (static/js/table.js, docs/protocol.md "4500")."""

from __future__ import annotations

import pytest

from tests.browser.test_tables import log_in, start_practice

# Sockets opened while `window.failNext` is above zero fail without ever opening
# (the front door answering 502 while it looks for a process). The others are real,
# seen through a wrapper that `window.restart()` cuts as a process's restart would:
# the page hears close code 4500 and nothing more from that socket.
FAILING_SOCKETS = """
  const Native = window.WebSocket;
  window.failNext = 0;
  window.failed = 0;
  window.real = 0;
  window.WebSocket = function (url, protocols) {
    const socket = new EventTarget();
    socket.send = function () {};
    socket.close = function () {};
    if (window.failNext > 0) {
      window.failNext -= 1;
      socket.readyState = Native.CONNECTING;
      Promise.resolve().then(function () {
        window.failed += 1;
        socket.readyState = Native.CLOSED;
        socket.dispatchEvent(new CloseEvent("close", { code: 1006 }));
      });
      return socket;
    }
    window.real += 1;
    const native = new Native(url, protocols);
    let cut = false;
    Object.defineProperty(socket, "readyState", { get: () => native.readyState });
    socket.send = (data) => native.send(data);
    socket.close = (...args) => native.close(...args);
    native.addEventListener("open", () => cut || socket.dispatchEvent(new Event("open")));
    native.addEventListener("message", (event) => {
      if (!cut) socket.dispatchEvent(new MessageEvent("message", { data: event.data }));
    });
    native.addEventListener("close", (event) => {
      if (!cut) socket.dispatchEvent(new CloseEvent("close", { code: event.code }));
    });
    window.restart = function () {
      cut = true;
      native.close();
      socket.dispatchEvent(new CloseEvent("close", { code: 4500 }));
    };
    return socket;
  };
  Object.assign(window.WebSocket, {
    CONNECTING: Native.CONNECTING, OPEN: Native.OPEN, CLOSING: Native.CLOSING,
    CLOSED: Native.CLOSED,
  });
"""
SOCKET_OPEN = "() => document.getElementById('table-root').dataset.socket === 'open'"
FAILURES = 5


@pytest.fixture(autouse=True)
def _nothing_moves_by_itself(settings):
    settings.BOT_RUNNER = "off"


def test_after_a_restart_the_page_retries_every_second_until_a_process_answers(
    asgi_server, new_page, player
):
    page = new_page()
    page.add_init_script(FAILING_SOCKETS)
    page.clock.install()  # real pace; the test moves it over the retries
    log_in(page, asgi_server, player)
    start_practice(page, asgi_server.url)
    page.wait_for_function(SOCKET_OPEN)
    assert page.evaluate("window.real") == 1

    # From here the page's time moves only when the test moves it.
    page.clock.pause_at(page.evaluate("Date.now()") + 1)
    # The process restarts; for a while every attempt fails.
    page.evaluate(f"window.failNext = {FAILURES}; window.restart()")
    page.clock.run_for(500)  # the first attempt, within half a second
    failed = page.evaluate("window.failed")
    assert failed >= 1
    # Each failed attempt is followed by another within 1.3 s: no backing off
    # (which would wait 0.5, 1, 2, 4, 8 s).
    while failed < FAILURES:
        page.clock.run_for(1300)
        before, failed = failed, page.evaluate("window.failed")
        assert failed > before
    page.clock.run_for(1300)
    page.wait_for_function(SOCKET_OPEN)
    assert page.evaluate("window.real") == 2  # a process answers: the table is back

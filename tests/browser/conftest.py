"""Browser tests: a real ASGI server (HTTP and websockets) and Debian's Chromium.

The server runs in a thread of the test process, so it shares the test
database (tests use `transactional_db`) and, in the embedded default, the
in-process channel layer. Every test here is marked `browser` automatically.
"""

from __future__ import annotations

import asyncio
import socket
import threading
from collections.abc import Iterator

import pytest

from tests.conftest import CHROMIUM_PATH

CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser/" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class AsgiServer:
    """uvicorn serving the site's ASGI application from a background thread."""

    def __init__(self) -> None:
        import importlib

        import uvicorn

        import cuatrola_site.asgi

        # A fresh application per server: an instance built earlier in the run (a
        # test module importing cuatrola_site.asgi at collection) stalls websockets.
        application = importlib.reload(cuatrola_site.asgi).application

        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # Production's web server with docker-compose.yml's flags (docs/operations.md,
        # "Web server"): messages over 1 MiB refused (close 1009), no compression, no
        # proxy headers believed, the lifespan run. In a thread uvicorn installs no
        # signal handlers, so nothing drains on SIGTERM here (tests/cuatrola_site/
        # test_shutdown.py runs the drain in a real process). asyncio's own loop: the
        # test's thread runs it.
        config = uvicorn.Config(
            application,
            host="127.0.0.1",
            port=self.port,
            log_level="warning",
            http="httptools",
            ws="websockets-sansio",
            ws_max_size=1024 * 1024,
            ws_per_message_deflate=False,
            lifespan="on",
            proxy_headers=False,
            timeout_keep_alive=130,
        )
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.run(self.server.serve())

    def start(self) -> None:
        self.thread.start()
        for _ in range(500):
            if self.server.started:
                return
            self.thread.join(0.01)
        raise RuntimeError("the test server did not start")

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(10)


@pytest.fixture
def _allow_sync_db_beside_playwright(monkeypatch):
    # Playwright's sync API keeps an event loop running in the main thread, which
    # Django's async-safety check mistakes for async code during database set-up
    # and flush. Requested before transactional_db so it outlives its teardown.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def asgi_server(
    _allow_sync_db_beside_playwright, transactional_db, settings
) -> Iterator[AsgiServer]:
    settings.ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
    settings.DEBUG = False
    server = AsgiServer()
    server.start()
    yield server
    server.stop()
    # Bots and analyses still at work would write while the database is emptied
    # after the test (a deadlock with its TRUNCATE, failing this test's teardown
    # and the next test's set-up): wait for them first.
    from coach import runner as coach_runner
    from games import bot_runner

    bot_runner.drain()
    coach_runner.drain()


@pytest.fixture(scope="module")
def browser():
    # Module scope, not session: Playwright's sync API keeps an event loop running
    # in the main thread while it is open, and Django refuses database work from a
    # thread with a running loop. Closing it with the module lets the database
    # tests that pytest-django orders after these run normally.
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser):
    """Opens pages in fresh browser contexts (separate cookies, like separate people)."""
    contexts = []

    def open_page(locale: str = "es-ES", service_workers: str = "block"):
        # The site's service worker caches ~12 MB for offline practice on a first
        # visit; only the offline tests let it run ("allow"), so the others stay light.
        context = browser.new_context(locale=locale, service_workers=service_workers)
        context.set_default_timeout(10_000)
        contexts.append(context)
        return context.new_page()

    yield open_page
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_page):
    return new_page()

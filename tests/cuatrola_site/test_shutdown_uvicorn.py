"""A graceful restart under uvicorn (cuatrola_site/shutdown.py, docs/operations.md,
"Web server"): its SIGTERM handler is wrapped at the lifespan's startup, so the drain
runs before uvicorn is told to stop. bench/servers_check.py checks the whole of it
against a real uvicorn process (503 during the notice, 4500, the exit)."""

from __future__ import annotations

import asyncio
import signal

import pytest
import uvicorn

from cuatrola_site import shutdown as site_shutdown
from ops import shutdown


@pytest.fixture
def sigterm():
    """SIGTERM's handler as it was, back after the test; no drain left running."""
    before = signal.getsignal(signal.SIGTERM)
    yield
    signal.signal(signal.SIGTERM, before)
    site_shutdown._drain_task = None


async def test_under_uvicorn_sigterm_drains_before_uvicorn_stops(sigterm, monkeypatch):
    server = uvicorn.Server(uvicorn.Config(app="cuatrola_site.asgi:application"))
    signal.signal(signal.SIGTERM, server.handle_exit)  # as uvicorn's capture_signals
    told_during_drain = []

    async def drain() -> int:
        told_during_drain.append(server.should_exit)
        return 0

    async def leave() -> int:
        return 0

    monkeypatch.setattr(shutdown, "drain", drain)
    monkeypatch.setattr(site_shutdown, "leave", leave)
    assert site_shutdown.install_on_signal()
    signal.getsignal(signal.SIGTERM)(signal.SIGTERM, None)  # as the signal would
    for _ in range(100):
        if server.should_exit:
            break
        await asyncio.sleep(0.01)
    assert told_during_drain == [False]  # drained first
    assert server.should_exit  # then uvicorn stops as it would have


async def test_without_uvicorns_handler_nothing_is_installed(sigterm):
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    assert not site_shutdown.install_on_signal()
    assert signal.getsignal(signal.SIGTERM) is signal.SIG_DFL

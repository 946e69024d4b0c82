"""Daphne's SIGTERM starts the drain of ops/shutdown.py (a graceful restart:
/healthz 503, every socket closed with 4500 once its move in flight ended, then the
reactor stopped). A second SIGTERM stops at once. Installed from the ASGI module;
outside daphne (uvicorn, the test client) nothing is installed.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from typing import Any

from ops import shutdown

logger = logging.getLogger(__name__)

_drain_task: asyncio.Task[None] | None = None


def install_on_daphne() -> None:
    """Under daphne (its Twisted reactor installed), SIGTERM drains before it stops."""
    if "twisted.internet.reactor" not in sys.modules:
        return
    from twisted.internet import reactor

    # After the reactor's own signal handlers (installed as it starts running).
    reactor.callWhenRunning(_take_sigterm, reactor)


def _take_sigterm(reactor: Any) -> None:
    loop = asyncio.get_event_loop()

    def on_sigterm(signum: int, frame: Any) -> None:
        loop.call_soon_threadsafe(_start, reactor)

    signal.signal(signal.SIGTERM, on_sigterm)


def _start(reactor: Any) -> None:
    global _drain_task
    if _drain_task is not None:
        logger.warning("restarting: a second SIGTERM, stopping now")
        reactor.stop()
        return

    async def run() -> None:
        try:
            await shutdown.drain()
        except Exception:
            logger.exception("restarting: the drain failed")
        finally:
            reactor.stop()

    _drain_task = asyncio.ensure_future(run())

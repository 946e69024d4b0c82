"""Daphne's SIGTERM starts the drain of ops/shutdown.py (a graceful restart:
/healthz 503, every socket closed with 4500 once its move in flight ended, then the
reactor stopped). A second SIGTERM stops at once. Installed from the ASGI module;
outside daphne (uvicorn, the test client) nothing is installed.

Once drained, the process takes itself off the seats' counts and deletes its row
(`services.web_process_left`: whatever a socket that outlived the drain still
counted), so nothing waits for the sweep to find it silent.
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
# At most this long for `leave` (compose's stop_grace_period is 20 s, the drain 15 s).
LEAVE_SECONDS = 3.0


async def leave() -> int:
    """`services.web_process_left` for this process, in a thread of its own (its
    database connection closed after); returns the seats it changed."""
    from asgiref.sync import sync_to_async
    from django.db import connection

    from games import services

    def run() -> int:
        try:
            return services.web_process_left()
        finally:
            connection.close()

    changed: int = await sync_to_async(run, thread_sensitive=False)()
    logger.info("restarting: this process's row removed, %s seat(s) counted off", changed)
    return changed


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
        try:
            await asyncio.wait_for(leave(), timeout=LEAVE_SECONDS)
        except Exception:  # the sweep counts it off once it is silent
            logger.exception("restarting: counting this process off failed")
        finally:
            reactor.stop()

    _drain_task = asyncio.ensure_future(run())

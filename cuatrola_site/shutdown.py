"""The web server's SIGTERM starts the drain of ops/shutdown.py (a graceful restart:
/healthz 503, every socket closed with 4500 once its move in flight ended, then the
server stopped). A second SIGTERM stops at once.

uvicorn, the web server (docs/operations.md, "Web server"; it runs the ASGI lifespan,
`--lifespan on`): its SIGTERM handler is wrapped as the lifespan starts
(`install_on_signal`), so the drain runs first and uvicorn's own graceful stop after
it (it would otherwise close every socket at once, with 1012). Only from the main
thread, where signal handlers live (the browser tests' uvicorn runs in a thread:
nothing is installed).

daphne (the benches still run it; it sends no lifespan): the drain is installed on its
Twisted reactor from the ASGI module (`install_on_daphne`). granian handles signals
in its own main process, not in the worker that runs the application: under granian
nothing drains.

Once drained, the process takes itself off the seats' counts and deletes its row
(`services.web_process_left`: whatever a socket that outlived the drain still
counted), so nothing waits for the sweep to find it silent.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
import threading
from collections.abc import Callable
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


def install_on_signal() -> bool:
    """Under a server whose SIGTERM handler is a Python callable in this process
    (uvicorn's `handle_exit`), SIGTERM drains first, then calls that handler (a second
    SIGTERM calls it again: uvicorn then stops at once). True if installed."""
    if threading.current_thread() is not threading.main_thread():
        return False
    previous = signal.getsignal(signal.SIGTERM)
    owner = type(getattr(previous, "__self__", None)).__module__
    if not callable(previous) or not owner.startswith("uvicorn."):
        return False  # daphne drains through its reactor; granian's worker gets no signal
    loop = asyncio.get_running_loop()

    def stop() -> None:
        previous(signal.SIGTERM, None)

    def on_sigterm(signum: int, frame: Any) -> None:
        if _drain_task is not None:
            previous(signum, frame)  # a second SIGTERM: the server's own, at once
            return
        loop.call_soon_threadsafe(_start_drain, stop)

    signal.signal(signal.SIGTERM, on_sigterm)
    return True


def _take_sigterm(reactor: Any) -> None:
    loop = asyncio.get_event_loop()

    def on_sigterm(signum: int, frame: Any) -> None:
        loop.call_soon_threadsafe(_start, reactor)

    signal.signal(signal.SIGTERM, on_sigterm)


def _start(reactor: Any) -> None:
    if _drain_task is not None:
        logger.warning("restarting: a second SIGTERM, stopping now")
        reactor.stop()
        return
    _start_drain(reactor.stop)


def _start_drain(stop: Callable[[], object]) -> None:
    """The drain, then counting this process off, then `stop()` (the server's stop)."""
    global _drain_task
    if _drain_task is not None:
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
            stop()

    _drain_task = asyncio.ensure_future(run())

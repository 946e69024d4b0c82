"""A web process's graceful restart: the registry of its sockets and the drain
(docs/operations.md, "Mechanisms"; close code 4500 in docs/protocol.md). Here, below
every app, so that the socket consumers register with it; cuatrola_site/shutdown.py
starts the drain on the web server's SIGTERM (uvicorn's, and daphne's in the benches).

On SIGTERM (a deploy's `docker compose up`, a rolling restart) uvicorn would close
every socket at once (1012): a move under way would end with its socket, and the
pages would learn it only from a dropped connection. Instead SIGTERM starts a drain:

1. `/healthz` answers 503, so the front door (Caddy's health check, every 2 s)
   takes the process out of the rotation; for SHUTDOWN_NOTICE_SECONDS the sockets
   go on as usual while it notices, and a socket that opens then is served too (the
   front door still sends this process its tables: closing it would only send the
   page back here, again and again, until the front door noticed);
2. every socket is closed with 4500 ("server restarting, reconnect now") once its
   database call in flight has ended (a move commits or not, whole); a socket that
   opens from then on is closed with 4500 too. The pages reconnect at once, to the
   other process;
3. once every socket's application has ended (their seats counted off), or after
   SHUTDOWN_DRAIN_SECONDS, the server stops as it would have on SIGTERM (uvicorn's
   own graceful stop, with nothing left to close).

A second SIGTERM stops at once. Where no handler can be installed (uvicorn in a
thread, as in the browser tests; the test client) nothing is; `drain()` is what the
tests call.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import weakref
from typing import Any, Protocol

from django.conf import settings

logger = logging.getLogger(__name__)


class Restartable(Protocol):
    async def restart_close(self) -> None: ...


_sockets: weakref.WeakSet[Any] = weakref.WeakSet()
_draining = False
_closing = False  # the notice is over: sockets are being closed
_all_ended: asyncio.Event | None = None  # set by the drain, when no socket is left


def draining() -> bool:
    """True from SIGTERM on: /healthz answers 503."""
    return _draining


def closing() -> bool:
    """True once the notice is over: new sockets are closed with 4500."""
    return _closing


def opened(socket: Restartable) -> None:
    """A socket's application started (its consumer, for the life of the socket)."""
    _sockets.add(socket)


def ended(socket: Restartable) -> None:
    _sockets.discard(socket)
    if _all_ended is not None and not _sockets:
        _all_ended.set()


def open_sockets() -> int:
    return len(_sockets)


async def drain(*, notice: float | None = None, limit: float | None = None) -> int:
    """Steps 1 and 2 above, then waits (at most `limit` seconds) for every socket's
    application to end; returns how many were still open at the end."""
    global _draining, _closing, _all_ended
    _draining = True
    notice = settings.SHUTDOWN_NOTICE_SECONDS if notice is None else notice
    limit = settings.SHUTDOWN_DRAIN_SECONDS if limit is None else limit
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    logger.info("restarting: %s socket(s) to close in %.1f s", len(_sockets), notice)
    if notice > 0:
        await asyncio.sleep(notice)
    _closing = True
    closing = [asyncio.ensure_future(socket.restart_close()) for socket in list(_sockets)]
    if closing:
        await asyncio.wait(closing, timeout=max(0.1, deadline - loop.time()))
    _all_ended = asyncio.Event()
    if not _sockets:
        _all_ended.set()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(_all_ended.wait(), timeout=max(0.1, deadline - loop.time()))
    left = len(_sockets)
    logger.info("restarting: sockets closed, %s left", left)
    return left


def reset() -> None:
    """Back to serving (tests)."""
    global _draining, _closing, _all_ended
    _draining = False
    _closing = False
    _all_ended = None

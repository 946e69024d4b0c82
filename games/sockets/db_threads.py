"""The database threads of a web process's sockets: moves first, and every user in turn.

Socket work that touches the database (a move, a socket opening or closing, a
`sync`, the presence heartbeat) runs on WEB_DB_THREADS threads, each with its own
database connection, never on the event loop. Which call a free thread takes next:

- **lanes, by priority**: `BEAT` (the process's and its seats' heartbeats) before
  `PLAY` (moves) before `SEAT` (sockets opening and closing, the table's list of
  processes) before `READ` (states sent again: `sync`, after a stale move). A move
  waits at most for the calls already running and a heartbeat, whatever is queued
  behind it. A heartbeat goes first because the sweep takes a process silent for
  WEB_PROCESS_STALE_SECONDS for dead and counts its sockets off: behind a surge of
  moves (the other process killed, its tables all here) a live process's beat waited
  that long and its players were counted off with the dead one's;
- **owners in turn** within a lane: each user's calls wait in their own queue and
  the users take turns, one call each. A user flooding one lane delays their own
  calls there, and everyone else's by one call per turn at most.

The queue is bounded by the sockets: a socket has at most one call queued or
running (its messages are handled one at a time, and its deferred `sync` waits for
them: games/sockets/consumers.py), and SOCKETS_PER_USER caps a user's sockets
(docs/operations.md, "Socket limits and the database threads").

A call still queued when its caller is cancelled never runs. A call already running
goes on to its end (a transaction cannot be stopped half-way): `submit` returns the
future of its result, so a caller that must undo what the call did (a socket's
connect, cancelled) can wait for it.
"""

from __future__ import annotations

import asyncio
import contextvars
import enum
import functools
import logging
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Hashable
from typing import Any

from django.db import close_old_connections
from django.db import connections as db_connections

logger = logging.getLogger(__name__)

# Seconds: a connection that answered within this time skips Django's health check.
HEALTHY_FOR = 5.0


class Lane(enum.IntEnum):
    """What a call is for; a lower value is taken first."""

    BEAT = 0
    PLAY = 1
    SEAT = 2
    READ = 3


class Call:
    """One queued call: `future` holds its result (on the caller's loop)."""

    __slots__ = ("context", "func", "future", "loop", "started", "withdrawn")

    def __init__(self, func: Callable[[], Any], loop: asyncio.AbstractEventLoop) -> None:
        self.func = func
        self.loop = loop
        self.future: asyncio.Future[Any] = loop.create_future()
        self.context = contextvars.copy_context()
        self.started = False
        self.withdrawn = False


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


# Sockets' calls queued in the seats' and reads' lanes above which a surge thread starts;
# seconds it stays (and keeps its connection) once it finds the queue empty.
SURGE_QUEUE = 16
SURGE_IDLE = 5.0


class DatabaseThreads:
    """`threads` threads taking calls by lane, then by owner in turn; and, while more
    than SURGE_QUEUE calls of sockets opening, closing or reading their state wait (a
    web process's death sends all its tables' sockets to the other at once), up to
    `surge` more, each gone once it has found the queue empty for SURGE_IDLE seconds.
    In steady play more threads only contend for the GIL with the event loop
    (docs/benchmarks.md); in such a surge the threads mostly wait on PostgreSQL, and
    more of them bring the pages back sooner (docs/operations.md, "When something
    dies")."""

    def __init__(self, threads: int, surge: int = 0) -> None:
        self.size = threads
        self.surge = surge
        self._surging = 0
        self._ready = threading.Condition()
        # Per lane: owner -> their calls in order; the first owner is the next served.
        self._lanes: list[OrderedDict[Hashable, deque[Call]]] = [OrderedDict() for _ in Lane]
        self._threads: list[threading.Thread] = []
        self._surge_threads: list[threading.Thread] = []
        self._closed = False

    def submit(
        self, func: Callable[..., Any], *args: Any, lane: Lane, owner: Hashable, **kwargs: Any
    ) -> Call:
        """Queues `func(*args, **kwargs)` (from an event loop): its result will be in
        the returned call's `future`, on that loop."""
        call = Call(functools.partial(func, *args, **kwargs), asyncio.get_running_loop())
        with self._ready:
            if self._closed:
                raise RuntimeError("the database threads are shut down")
            self._lanes[lane].setdefault(owner, deque()).append(call)
            while len(self._threads) < self.size:
                self._start_thread()
            if self._surging < self.surge and self._sockets_waiting() > SURGE_QUEUE:
                self._start_surge_thread()
            self._ready.notify()
        return call

    def _sockets_waiting(self) -> int:
        """Calls queued in the seats' and reads' lanes (the lock held)."""
        return sum(
            len(calls) for lane in (Lane.SEAT, Lane.READ) for calls in self._lanes[lane].values()
        )

    def surging(self) -> int:
        """Surge threads running now."""
        with self._ready:
            return self._surging

    def withdraw(self, call: Call) -> bool:
        """True when `call` will never run (it was still queued: it is dropped); False
        when a thread has taken it (it runs to its end, its result in `future`)."""
        with self._ready:
            if call.started:
                return False
            call.withdrawn = True
        call.future.cancel()
        return True

    async def run(
        self, func: Callable[..., Any], *args: Any, lane: Lane, owner: Hashable, **kwargs: Any
    ) -> Any:
        """`func(*args, **kwargs)` in a database thread: its result, or its exception.
        Cancelled while queued, the call is dropped; while running, it runs to its end
        and its result is lost."""
        call = self.submit(func, *args, lane=lane, owner=owner, **kwargs)
        try:
            return await asyncio.shield(call.future)
        except asyncio.CancelledError:
            self.withdraw(call)
            raise

    def waiting(self, lane: Lane | None = None) -> int:
        """Calls queued and not yet taken by a thread (a withdrawn one may still count)."""
        with self._ready:
            lanes = self._lanes if lane is None else [self._lanes[lane]]
            return sum(len(calls) for owners in lanes for calls in owners.values())

    def shutdown(self) -> None:
        """Stops the threads once the calls queued have run (tests)."""
        with self._ready:
            self._closed = True
            self._ready.notify_all()
            threads = self._threads + self._surge_threads
        for thread in threads:
            thread.join(10)

    def _start_thread(self) -> None:
        thread = threading.Thread(
            target=self._work, name=f"web-db-{len(self._threads)}", daemon=True
        )
        self._threads.append(thread)
        thread.start()

    def _start_surge_thread(self) -> None:
        """One more thread for the surge (the lock held); it counts itself off as it leaves."""
        self._surging += 1
        thread = threading.Thread(target=self._work, args=(True,), name="web-db-surge", daemon=True)
        self._surge_threads = [t for t in self._surge_threads if t.is_alive()]
        self._surge_threads.append(thread)
        thread.start()

    def _take(self, surge: bool = False) -> Call | None:
        """The next call to run (the lock held); None once shut down with none left,
        or, for a surge thread, once none has been queued for SURGE_IDLE seconds."""
        idle_since = None
        while True:
            for owners in self._lanes:
                while owners:
                    owner, calls = next(iter(owners.items()))
                    call = calls.popleft()
                    if calls:
                        owners.move_to_end(owner)  # the other owners' turn first
                    else:
                        del owners[owner]
                    if not call.withdrawn:
                        call.started = True
                        return call
            if self._closed:
                return None
            if surge:
                now = time.monotonic()
                idle_since = now if idle_since is None else idle_since
                if now - idle_since >= SURGE_IDLE:
                    return None
                self._ready.wait(SURGE_IDLE - (now - idle_since))
                continue
            self._ready.wait()

    def _work(self, surge: bool = False) -> None:
        while True:
            with self._ready:
                call = self._take(surge)
                if call is None and surge:
                    self._surging -= 1
            if call is None:
                if surge:
                    db_connections.close_all()  # its own connection, not kept
                return
            result, error = None, None
            try:
                result = call.context.run(_in_thread, call.func)
            except BaseException as failure:  # handed to the caller, whatever it is
                error = failure
            try:
                call.loop.call_soon_threadsafe(_settle, call.future, result, error)
            except RuntimeError:  # the caller's loop has closed: nobody waits for it
                logger.warning("a database call ended after its event loop closed")


def _in_thread(func: Callable[[], Any]) -> Any:
    """As channels' DatabaseSyncToAsync: stale connections are closed before and
    after the call. But with CONN_HEALTH_CHECKS that close re-arms Django's health
    check, a `SELECT 1` round trip before every call (every move); a connection that
    completed a call less than HEALTHY_FOR seconds ago is known to work, so it is
    checked only when it has been idle longer than that."""
    close_old_connections()
    now = time.monotonic()
    for conn in db_connections.all(initialized_only=True):
        if conn.connection is not None and now - getattr(conn, "answered_at", 0) < HEALTHY_FOR:
            # Django's own flag (since 4.1), missing from django-stubs' BaseDatabaseWrapper.
            conn.health_check_done = True  # type: ignore[attr-defined]
    try:
        return func()
    finally:
        now = time.monotonic()
        for conn in db_connections.all(initialized_only=True):
            if conn.connection is not None and not conn.errors_occurred:
                # Our marker on the wrapper, read back above with getattr (a default for
                # connections that never answered); the stubs' class has no such attribute.
                conn.answered_at = now  # type: ignore[attr-defined]
        close_old_connections()

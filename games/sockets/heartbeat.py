"""Which seats this web process holds sockets for, and the heartbeat vouching for them.

`Seat.connections` is counted by the processes serving the sockets: one that
dies (killed, out of memory, a lost machine) never counts its sockets down, and
the seat would look occupied for ever, with no bot playing for its absent
player. So every process with open table sockets refreshes `Seat.seen_at` of
their seats every PRESENCE_HEARTBEAT_SECONDS (one small transaction), and the
table sweep treats a seat not heard from for PRESENCE_STALE_SECONDS as
disconnected (`services.seat_presence_lost`).

The seats also record which process holds each socket (`Seat.sockets`), and the
process beats quicker for itself: its row (`WebProcess`) every
WEB_PROCESS_HEARTBEAT_SECONDS while it holds any seat's socket. The sweep counts off
the sockets of a process silent for WEB_PROCESS_STALE_SECONDS
(`services.seat_process_gone`): a killed process's seats are free in seconds, and a
player who reconnected to another process keeps only that process's count.
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from collections.abc import Awaitable, Callable

from django.conf import settings

logger = logging.getLogger(__name__)

# seat primary key -> sockets open on it in this process
_open: Counter[int] = Counter()
_heartbeat: asyncio.Task | None = None
_process_heartbeat: asyncio.Task | None = None
# mark(): stores this process's sign of life (its WebProcess row), off the event loop.
_mark: Callable[[], Awaitable[object]] | None = None


def on_process_beat(mark: Callable[[], Awaitable[object]]) -> None:
    """What writes the process's own beat (the consumers set it)."""
    global _mark
    _mark = mark


def open_seats() -> list[int]:
    return sorted(seat_id for seat_id, count in _open.items() if count > 0)


def opened(seat_id: int, vouch: Callable[[list[int]], Awaitable[object]]) -> None:
    """A socket on this seat was accepted; starts the heartbeat on this loop if needed.
    `vouch(seat_ids)` stores the sign of life (run off the event loop)."""
    global _heartbeat, _process_heartbeat
    _open[seat_id] += 1
    loop = asyncio.get_running_loop()
    if _heartbeat is None or _heartbeat.done() or _heartbeat.get_loop() is not loop:
        _heartbeat = loop.create_task(_beat(vouch), name="presence-heartbeat")
    running = _process_heartbeat
    if _mark is not None and (running is None or running.done() or running.get_loop() is not loop):
        _process_heartbeat = loop.create_task(_process_beat(_mark), name="process-heartbeat")


def closed(seat_id: int) -> None:
    """A socket on this seat closed; the heartbeat stops with the last one."""
    global _heartbeat, _process_heartbeat
    _open[seat_id] -= 1
    if _open[seat_id] <= 0:
        del _open[seat_id]
    if not _open and _heartbeat is not None:
        _heartbeat.cancel()
        _heartbeat = None
    if not _open and _process_heartbeat is not None:
        _process_heartbeat.cancel()
        _process_heartbeat = None


async def _beat(vouch: Callable[[list[int]], Awaitable[object]]) -> None:
    while True:
        await asyncio.sleep(settings.PRESENCE_HEARTBEAT_SECONDS)
        seat_ids = open_seats()
        if not seat_ids:
            continue
        try:
            await vouch(seat_ids)
        except Exception:  # a missed beat is repaired by the next; never stop beating
            logger.exception("presence heartbeat failed")


async def _process_beat(mark: Callable[[], Awaitable[object]]) -> None:
    while True:
        await asyncio.sleep(settings.WEB_PROCESS_HEARTBEAT_SECONDS)
        try:
            await mark()
        except Exception:  # a missed beat is repaired by the next, well within the bound
            logger.exception("web process heartbeat failed")

"""Which seats this web process holds sockets for, and the heartbeat vouching for them.

`Seat.connections` is counted by the processes serving the sockets: one that
dies (killed, out of memory, a lost machine) never counts its sockets down, and
the seat would look occupied for ever, with no bot playing for its absent
player. So every process with open table sockets refreshes `Seat.seen_at` of
their seats every PRESENCE_HEARTBEAT_SECONDS (one small transaction), and the
table sweep treats a seat not heard from for PRESENCE_STALE_SECONDS as
disconnected (`services.seat_presence_lost`).
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


def open_seats() -> list[int]:
    return sorted(seat_id for seat_id, count in _open.items() if count > 0)


def opened(seat_id: int, vouch: Callable[[list[int]], Awaitable[object]]) -> None:
    """A socket on this seat was accepted; starts the heartbeat on this loop if needed.
    `vouch(seat_ids)` stores the sign of life (run off the event loop)."""
    global _heartbeat
    _open[seat_id] += 1
    loop = asyncio.get_running_loop()
    if _heartbeat is None or _heartbeat.done() or _heartbeat.get_loop() is not loop:
        _heartbeat = loop.create_task(_beat(vouch), name="presence-heartbeat")


def closed(seat_id: int) -> None:
    """A socket on this seat closed; the heartbeat stops with the last one."""
    global _heartbeat
    _open[seat_id] -= 1
    if _open[seat_id] <= 0:
        del _open[seat_id]
    if not _open and _heartbeat is not None:
        _heartbeat.cancel()
        _heartbeat = None


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

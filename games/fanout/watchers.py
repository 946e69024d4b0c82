"""How many watch a table, told to its sockets (docs/watching.md).

When a watching socket of this process opens or closes (or stops watching: its user
sat down), `changed(table_id)` reads the table's count across every process
(games/fanout/presence.py) and sends `table.watchers` to the table's group, at most
once every COUNT_SECONDS a table from this process: the changes meanwhile make one
send, at the end of that interval, with the count read then. Each table socket also
gets the count right after its first state (the consumer reads it itself).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from games.fanout import presence, transport

logger = logging.getLogger(__name__)

COUNT_SECONDS = 1.0
# Forgotten beyond this many tables' last sends (the older ones first).
_KEEP = 10_000

_sent_at: dict[int, float] = {}  # table -> when its count was last sent (loop time)
_due: dict[int, asyncio.Task[None]] = {}  # table -> its send to come


def changed(table_id: int, layer: Any) -> None:
    """A watcher of the table came or went in this process: its count goes to the
    table's group now, or when COUNT_SECONDS have passed since the last send."""
    if layer is None or table_id in _due:
        return  # a send to come reads the count then
    loop = asyncio.get_running_loop()
    wait = _sent_at.get(table_id, float("-inf")) + COUNT_SECONDS - loop.time()
    _due[table_id] = loop.create_task(_send(table_id, layer, max(0.0, wait)))


async def _send(table_id: int, layer: Any, wait: float) -> None:
    try:
        if wait > 0:
            await asyncio.sleep(wait)
    finally:
        # A change from now on makes another send: it reads a count after this one.
        _due.pop(table_id, None)
    _sent_at[table_id] = asyncio.get_running_loop().time()
    if len(_sent_at) > _KEEP:
        for old in sorted(_sent_at, key=_sent_at.__getitem__)[: len(_sent_at) - _KEEP]:
            del _sent_at[old]
    try:
        count = await presence.watchers_counted(table_id)
        await layer.group_send(
            transport.table_group(table_id), {"type": "table.watchers", "count": count}
        )
    except Exception:  # the next change, or the next socket's first count, repairs it
        logger.exception("sending table %s's watcher count failed", table_id)


def frame(count: int) -> dict[str, Any]:
    """The `watchers` frame a socket receives (docs/protocol.md)."""
    return {"type": "watchers", "count": count}

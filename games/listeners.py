"""Which web processes hold sockets of a table, so a move's frames skip Redis when
they can.

Behind a proxy that routes a table's websockets by its id (docs/operations.md,
"Several web processes") all four players and the spectators of a table are in
one process, the one that applies their moves. Publishing each move's frames to
Redis, only for the same process to read them back, cost about a tenth of a
move's server CPU. So each table row lists (`Table.listeners`) the processes with
a socket open on it, and a move whose process is the only one listed delivers its
frames in-process; any other process listed, the frames go over Redis as always.

Why no frame is lost: a process lists itself, under the table row's lock, before
its socket reads the table's state, and a move reads the list with that same
lock. So a move either sees the new process (and publishes) or commits before the
process is listed, and then that socket's state read already holds the move. A
process takes itself off the list only when its last socket of the table has
closed; a process that dies stays listed, which only costs the Redis publish.
Register and unregister run one at a time per table in a process, so the list
always matches the process's sockets once they finish.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections import Counter
from collections.abc import Awaitable, Callable

logger = logging.getLogger(__name__)

# This process, as written in `Table.listeners` (unique per start).
PROCESS_ID = uuid.uuid4().hex[:16]

# store(table id, process, listening): adds the process to the table's row, or
# takes it off, and commits.
Store = Callable[[int, str, bool], Awaitable[object]]
# Keyed by (process, table id): the process is this one, except in tests that play
# another process from a second event loop.
Key = tuple[str, int]

_sockets: Counter[Key] = Counter()  # sockets open on the table in this process
_listed: set[Key] = set()  # tables whose row lists the process (as committed)
_locks: dict[Key, tuple[asyncio.Lock, list[int]]] = {}  # (lock, [its users])


def only_here(listeners: str) -> bool:
    """True when no process but this one holds sockets of a table whose row lists
    `listeners` (read with the row's lock): its frames may stay in-process."""
    return all(process == PROCESS_ID for process in listeners.split())


def listed(listeners: str, process: str, listening: bool) -> str:
    """`listeners` with `process` added (at the end, if missing) or removed."""
    processes = listeners.split()
    if listening:
        return " ".join(processes if process in processes else [*processes, process])
    return " ".join(p for p in processes if p != process)


class _TableTurn:
    """One register or unregister at a time per table, in this process."""

    def __init__(self, key: Key) -> None:
        self.key = key

    async def __aenter__(self) -> None:
        lock, users = _locks.setdefault(self.key, (asyncio.Lock(), [0]))
        users[0] += 1
        await lock.acquire()

    async def __aexit__(self, *exc: object) -> None:
        lock, users = _locks[self.key]
        lock.release()
        users[0] -= 1
        if not users[0]:
            del _locks[self.key]


async def opened(table_id: int, store: Store, process: str = PROCESS_ID) -> None:
    """A socket of the table is open here; returns once the process is listed in the
    table's row (`store` commits that), so the socket may read the state. Pair every
    call with `closed`, even when this one raised."""
    key = (process, table_id)
    async with _TableTurn(key):
        _sockets[key] += 1
        if key not in _listed:
            await store(table_id, process, True)
            _listed.add(key)


async def closed(table_id: int, store: Store, process: str = PROCESS_ID) -> None:
    """A socket of the table closed; with none left here, the process is taken off
    the table's list (a failure only leaves it listed: frames then go over Redis)."""
    key = (process, table_id)
    async with _TableTurn(key):
        _sockets[key] -= 1
        if _sockets[key] > 0:
            return
        del _sockets[key]
        if key in _listed:
            _listed.discard(key)
            try:
                await store(table_id, process, False)
            except Exception:
                logger.exception("table %s: this process stays among its listeners", table_id)

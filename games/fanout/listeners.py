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
always matches the process's sockets once they finish; a register or unregister
whose socket is cancelled still finishes writing the row before the next one.

The row is checked again every PRESENCE_HEARTBEAT_SECONDS (`keep_listed`): a row
restored from a backup, or rewritten by a process that did not know of this one,
would otherwise leave this process's sockets without another process's frames.
The table page asks for the whole state after a silence (docs/protocol.md), so such
a loss costs seconds, not a player's turn.
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
        try:
            await lock.acquire()
        except BaseException:  # cancelled while waiting: no turn taken, none to give back
            self._leave(lock, users)
            raise

    async def __aexit__(self, *exc: object) -> None:
        lock, users = _locks[self.key]
        lock.release()
        self._leave(lock, users)

    def _leave(self, lock: asyncio.Lock, users: list[int]) -> None:
        users[0] -= 1
        if not users[0]:
            del _locks[self.key]


async def _stored(table_id: int, store: Store, process: str, listening: bool) -> None:
    """`store`, then `_listed` as the row now is. Run to its end even when the caller
    is cancelled (the turn stays held until the row is written or not, so the next
    listing of the table comes after it); the cancellation goes on afterwards."""
    key = (process, table_id)
    task = asyncio.ensure_future(store(table_id, process, listening))
    try:
        await asyncio.shield(task)
    except asyncio.CancelledError:
        if not task.done():
            await asyncio.wait([task])
        if not task.cancelled() and task.exception() is None:
            _note(key, listening)
        raise
    _note(key, listening)


def _note(key: Key, listening: bool) -> None:
    if listening:
        _listed.add(key)
    else:
        _listed.discard(key)


async def _take_off(table_id: int, store: Store, process: str) -> None:
    try:
        await _stored(table_id, store, process, False)
    except Exception:
        logger.exception("table %s: this process stays among its listeners", table_id)


async def opened(table_id: int, store: Store, process: str = PROCESS_ID) -> None:
    """A socket of the table is open here; returns once the process is listed in the
    table's row (`store` commits that), so the socket may read the state. Pair with
    `closed` once it has returned; if it raises (or is cancelled) it has counted
    nothing, and left the process listed only if another socket here needs it."""
    key = (process, table_id)
    async with _TableTurn(key):
        _sockets[key] += 1
        try:
            if key not in _listed:
                await _stored(table_id, store, process, True)
        except BaseException:
            if _count_down(key) <= 0 and key in _listed:
                await _take_off(table_id, store, process)
            raise


def _count_down(key: Key) -> int:
    _sockets[key] -= 1
    left = _sockets[key]
    if left <= 0:
        del _sockets[key]
    return left


async def closed(table_id: int, store: Store, process: str = PROCESS_ID) -> None:
    """A socket of the table closed; with none left here, the process is taken off
    the table's list (a failure only leaves it listed: frames then go over Redis)."""
    key = (process, table_id)
    async with _TableTurn(key):
        if _count_down(key) <= 0 and key in _listed:
            await _take_off(table_id, store, process)


# check(table ids, process): the ids of those tables whose row does not list the process.
Check = Callable[[list[int], str], Awaitable[list[int]]]
_checker: asyncio.Task[None] | None = None


def keep_listed(check: Check, store: Store) -> None:
    """Starts, on this loop, the check that every table with sockets here still lists
    this process, every PRESENCE_HEARTBEAT_SECONDS while any socket is open. The row
    is the truth a move reads, and this process's record of it (`_listed`) is a copy:
    a row restored from a backup, or written by a process that did not know of this
    one (a rolling upgrade), would otherwise leave these sockets without the frames
    of another process's moves. A missing listing is written again (`relist`)."""
    global _checker
    loop = asyncio.get_running_loop()
    if _checker is None or _checker.done() or _checker.get_loop() is not loop:
        _checker = loop.create_task(_check_often(check, store), name="listeners-check")


async def _check_often(check: Check, store: Store) -> None:
    from django.conf import settings

    while _sockets:
        await asyncio.sleep(settings.PRESENCE_HEARTBEAT_SECONDS)
        try:
            await relist(check, store)
        except Exception:  # a missed check is repaired by the next
            logger.exception("checking the tables' listeners failed")


async def relist(check: Check, store: Store) -> list[Key]:
    """Lists this process again on every table with sockets here whose row lost it;
    returns those (process, table id) keys."""
    by_process: dict[str, list[int]] = {}
    for process, table_id in list(_sockets):
        by_process.setdefault(process, []).append(table_id)
    repaired: list[Key] = []
    for process, table_ids in by_process.items():
        for table_id in await check(sorted(table_ids), process):
            key = (process, table_id)
            async with _TableTurn(key):
                if _sockets.get(key, 0) <= 0:
                    continue  # its last socket closed meanwhile
                logger.warning("table %s: its row had lost process %s, listed again", *key[::-1])
                await _stored(table_id, store, process, True)
                repaired.append(key)
    return repaired

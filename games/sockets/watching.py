"""A watcher's socket counted as one (docs/watching.md): a socket with no seat, and
not staff's, counts among the table's and its user's watching sockets
(games/fanout/presence.py) from before it joins anything until it closes, or until
its user takes a seat at the table (a seated player is no watcher). Each change of
the count is told to the table (games/fanout/watchers.py). Staff count among their
own watching sockets only, never among a table's watchers.

A socket whose user leaves their seat forwards the spectators' frames from then on
but does not start counting as a watcher (it was admitted as a player's; its next
connection is counted).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from games.fanout import presence, watchers
from games.sockets import admission

logger = logging.getLogger(__name__)


class WatchCount:
    """One socket's place among the watchers of its table."""

    def __init__(
        self, *, socket: str, user: Any, table_id: int, address: str | None, layer: Any
    ) -> None:
        self.socket, self.user, self.table_id = socket, user, table_id
        self.address, self.layer = address, layer
        self.counted = False  # counted as a watcher of the table
        self.seated: asyncio.Future[None] | None = None  # counted off once its user sat

    async def admit(self) -> int | None:
        """Counts the socket as a watcher (staff: of no table, only among their own
        watching sockets); None, or the close code that refuses it."""
        self.counted = True  # before the count: a cancelled admission is released too
        refused = await presence.watch_admit(
            socket=self.socket,
            user_id=self.user.pk,
            table_id=None if self.user.is_staff else self.table_id,
            address=self.address,
        )
        if refused is None:
            if not self.user.is_staff:
                watchers.changed(self.table_id, self.layer)
            return None
        self.counted = False
        return {
            presence.USER: admission.CLOSE_WATCHING_ENOUGH,
            presence.ADDRESS: admission.CLOSE_WATCHERS_FROM_ADDRESS,
        }.get(refused, admission.CLOSE_WATCHERS_FULL)

    async def release(self) -> None:
        """The socket no longer counts as a watcher (closed, or its user sat down)."""
        if not self.counted:
            return
        self.counted = False
        await presence.watch_release(socket=self.socket)
        if not self.user.is_staff:
            watchers.changed(self.table_id, self.layer)

    def sitting(self, sitting: dict[str, Any]) -> None:
        """A broadcast says where the table's users sit: a watcher who took a seat here
        is counted off (in the background: a frame's delivery never waits on it)."""
        if self.counted and str(self.user.pk) in sitting:
            self.seated = asyncio.ensure_future(self.release())


async def watchers_now(table_id: int) -> int:
    """How many watch the table now, for a socket's first count (0 when it cannot be
    read: the count is a courtesy, never a reason to fail a socket)."""
    try:
        return await presence.watchers_counted(table_id)
    except Exception:
        logger.exception("table %s: reading its watcher count failed", table_id)
        return 0

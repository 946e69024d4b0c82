"""A table's watching sockets in this web process, served as one (docs/watching.md,
"What a watcher receives").

A change's frames are built and encoded once, in the service (games/frames/live.py),
and travel as one channel-layer message to the table's group. A watcher's socket is
not a member of that group itself: the process's `Audience` of the table is, once,
whatever the number of its watchers here. So a message crosses Redis once per
process (channels-redis's pub/sub layer publishes a group message once, and each
subscribed process reads it once), and here it wakes one task, not one per socket.
For a change's frames the audience wraps the spectators' JSON text in one ASGI
`websocket.send` message and hands that same message, the same string, to every
watcher's socket (`Spectator.spectate`): nothing is built, encoded or copied per
watcher. Every other message of the table's group (its talk, its watcher count, a
close) is handed to each socket's own handler, as the group would have.

A socket joins before it reads its first state (`join` returns once the audience is
a member of the group: no change falls in between) and leaves when it closes; the
last to leave takes the audience out of the group. A socket's failure to take its
frame (closed meanwhile) is logged and never stops the others'.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any, Protocol

from games.fanout import transport

logger = logging.getLogger(__name__)


class Spectator(Protocol):
    """A watching socket, as the audience serves it (the table consumer)."""

    channel_name: str

    async def spectate(self, event: dict[str, Any], shared: dict[str, Any] | None) -> None:
        """A change's frames: `shared` is the ASGI message carrying the spectators'
        frame (the same object for every watcher), or None if there is none."""

    async def dispatch(self, message: dict[str, Any]) -> None:
        """Any other message of the table's group, to its handler."""


# (event loop, table id) -> its audience (a test may play another process on a loop of its own)
_audiences: dict[tuple[asyncio.AbstractEventLoop, int], Audience] = {}


class Audience:
    """The watching sockets of one table in this process: one member of its group."""

    def __init__(self, table_id: int, layer: Any, frame_key: str) -> None:
        self.table_id = table_id
        self.layer = layer
        self.frame_key = frame_key  # the spectators' frame among a change's frames
        self.group = transport.table_group(table_id)
        self.members: dict[str, Spectator] = {}
        self.channel: str | None = None
        self.receiver: asyncio.Task[None] | None = None
        self.started = asyncio.ensure_future(self._start())
        self.messages = 0  # messages handled (read by the tests)

    async def _start(self) -> None:
        self.channel = await self.layer.new_channel()
        self.receiver = asyncio.ensure_future(self._receive(self.channel))
        try:
            await self.layer.group_add(self.group, self.channel)
        except BaseException:
            self.receiver.cancel()  # a failed audience leaves nothing behind
            raise

    async def _receive(self, channel: str) -> None:
        while True:
            message = await self.layer.receive(channel)
            try:
                await self.deliver(message)
            except Exception:  # one message's failure never stops the next
                logger.exception("table %s: delivering to its watchers failed", self.table_id)

    async def deliver(self, message: dict[str, Any]) -> None:
        """Hands `message` to every watching socket of the table here."""
        self.messages += 1
        members = list(self.members.values())
        if message.get("type") == "table.frames":
            frames = message.get("frames") or {}
            text = frames.get(self.frame_key)
            # Built once per change, whatever the number of watchers.
            shared = None if text is None else {"type": "websocket.send", "text": text}
            for member in members:
                try:
                    await member.spectate(message, shared)
                except Exception as error:  # closed meanwhile: the others still get it
                    logger.warning("table %s: a watcher missed a frame (%r)", self.table_id, error)
            return
        for member in members:
            try:
                await member.dispatch(message)
            except Exception:
                logger.exception("table %s: a watcher's %s failed", self.table_id, message["type"])

    async def _stop(self) -> None:
        with contextlib.suppress(BaseException):
            await self.started
        if self.channel is not None:
            try:
                await self.layer.group_discard(self.group, self.channel)
            except Exception:
                logger.exception("table %s: leaving its group failed", self.table_id)
        if self.receiver is not None:
            self.receiver.cancel()  # the layer forgets the channel as its receive ends
            with contextlib.suppress(BaseException):
                await self.receiver


async def join(table_id: int, member: Spectator, layer: Any, *, frame_key: str) -> None:
    """`member` watches the table from now on, taking the frames under `frame_key`:
    returns once this process's audience of the table is a member of its group
    (raises if it could not become one; `leave` is still due then)."""
    key = (asyncio.get_running_loop(), table_id)
    audience = _audiences.get(key)
    if audience is None or _failed(audience):
        audience = _audiences[key] = Audience(table_id, layer, frame_key)
    audience.members[member.channel_name] = member
    await asyncio.shield(audience.started)


def _failed(audience: Audience) -> bool:
    started = audience.started
    return started.done() and (started.cancelled() or started.exception() is not None)


async def leave(table_id: int, member: Spectator) -> None:
    """`member` no longer watches; the last to leave takes the audience out of the group."""
    key = (asyncio.get_running_loop(), table_id)
    audience = _audiences.get(key)
    if audience is None or audience.members.pop(member.channel_name, None) is None:
        return
    if not audience.members:
        del _audiences[key]
        await asyncio.shield(audience._stop())


def audience_of(table_id: int) -> Audience | None:
    """This loop's audience of the table (tests, metrics)."""
    return _audiences.get((asyncio.get_running_loop(), table_id))

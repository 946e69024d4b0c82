"""The transport: channel-layer messages to the sockets, sent from sync code after
commit (a table's frames, built by games/frames/live.py; balances; lobby
notices), from the server's event loop or a private one.
"""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from ops import metrics

logger = logging.getLogger(__name__)

# The event loop serving websockets in this process (set by the consumers): the
# in-process channel layer must be used from that loop only.
_server_loop: asyncio.AbstractEventLoop | None = None


def register_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    global _server_loop
    _server_loop = loop


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


_private_loop: asyncio.AbstractEventLoop | None = None
_private_lock = threading.Lock()


def _broadcast_loop() -> asyncio.AbstractEventLoop:
    """The loop that sends from sync code: the server's when this process serves
    websockets, else one private loop thread, so channel-layer connections are reused."""
    global _private_loop
    if _server_loop is not None and _server_loop.is_running():
        return _server_loop
    with _private_lock:
        if _private_loop is None or not _private_loop.is_running():
            loop = asyncio.new_event_loop()
            started = threading.Event()

            def run() -> None:
                asyncio.set_event_loop(loop)
                loop.call_soon(started.set)
                loop.run_forever()

            threading.Thread(target=run, name="broadcast-loop", daemon=True).start()
            started.wait(5)
            _private_loop = loop
        return _private_loop


async def _send_all(
    layer: Any,
    messages: list[tuple[str, dict[str, Any]]],
    in_process: bool = False,
    on_sent: Callable[[], None] | None = None,
) -> None:
    # The Redis layer's in-process send (cuatrola_site/channel_layer.py); the
    # in-memory layer's group_send is in-process already.
    send = (getattr(layer, "group_send_local", None) if in_process else None) or layer.group_send
    failed = 0
    for group, message in messages:
        try:
            # The Redis layer tries once more itself when Redis restarts
            # (cuatrola_site/channel_layer.py); a second failure loses this message
            # only: the pages resync after a silence (docs/protocol.md).
            await send(group, message)
        except Exception as error:
            failed += 1
            logger.error("broadcast to %s failed: %r", group, error)
    if on_sent is not None and not failed:
        on_sent()


def _send_many(
    messages: list[tuple[str, dict[str, Any]]],
    *,
    wait: bool = True,
    in_process: bool = False,
    on_sent: Callable[[], None] | None = None,
) -> None:
    """Sends from sync code. Outside a server process it waits for the send (a
    worker's table frames stay in order) unless `wait` is false. `in_process`: only
    this process's sockets are members (games/fanout/listeners.py), so the message is
    handed to them without Redis."""
    layer = get_channel_layer()
    if layer is None or not messages:
        return
    loop = _broadcast_loop()
    try:
        running = asyncio.get_running_loop()
    except RuntimeError:
        running = None
    if running is loop:  # already on that loop (never blocks it)
        loop.create_task(_send_all(layer, messages, in_process, on_sent))
        return
    if isinstance(layer, InMemoryChannelLayer) and loop is not _server_loop:
        # No server loop in this process (a shell, a test): send from a fresh loop.
        async_to_sync(_send_all)(layer, messages, False, on_sent)
        return
    future = asyncio.run_coroutine_threadsafe(_send_all(layer, messages, in_process, on_sent), loop)
    if loop is _server_loop or not wait:
        # In a server process the one database thread must not wait on Redis; the
        # frames carry `seq`, so a client ignores any that arrive out of order.
        future.add_done_callback(_log_failure)
        return
    try:
        future.result(timeout=10)  # keeps a worker's frames in order
    except Exception:  # a lost broadcast is repaired by the client's resync, never fatal
        logger.exception("broadcast failed")


def _log_failure(future: Any) -> None:
    if not future.cancelled() and future.exception() is not None:
        logger.error("broadcast failed: %r", future.exception())


def group_send(group: str, message: dict[str, Any]) -> None:
    """Sends one channel-layer message from sync code, safely in either layer mode
    (registered as accounts' group sender: bans, logouts, password changes)."""
    _send_many([(group, message)])


def send_table_frames(
    *,
    table_id: int,
    seq: int,
    frames: dict[str, str],
    sitting: dict[str, list[int]],
    in_process: bool = False,
) -> None:
    """A change's frames (games/frames/live.py: every seat's and the
    spectators', as JSON text by frame key) to the table's group, in one message.
    `sitting` says where each seated user now sits, and `seq` lets a socket drop a
    message older than a frame it was already given (and its `sitting`, which would
    move it back to a seat left since)."""
    message = {"type": "table.frames", "frames": frames, "sitting": sitting, "seq": seq}
    _send_many([(table_group(table_id), message)], in_process=in_process, on_sent=_move_timer())


def _move_timer() -> Callable[[], None] | None:
    """For the frames of a move a socket received (ops.metrics.move_received set by
    the consumer): observes the time from receiving it to its frames sent."""
    received = metrics.move_received.get()
    if received is None:
        return None
    metrics.move_received.set(None)  # once per move, not for any later send

    def observe() -> None:
        metrics.MOVE_SECONDS.observe(time.perf_counter() - received)

    return observe


def send_balances(balances: dict[int, dict[str, int]]) -> None:
    """Each user's new coins, XP and level, to every socket of theirs (the nav shows
    them). Not waited for: a ledger transaction never waits on Redis (each frame
    carries the whole balance, so a later one repairs any out of order)."""
    _send_many(
        [
            (user_group(user_id), {"type": "user.balance", **amounts})
            for user_id, amounts in balances.items()
        ],
        wait=False,
    )


def notify_user(user_id: int, what: str) -> None:
    group_send(user_group(user_id), {"type": "lobby.changed", "what": what})


def watchers_close(table_id: int, keep: list[int]) -> None:
    """Closes the table's watching sockets (4433), but those of the users in `keep`
    and of staff (the consumer knows its own): watchers were forbidden there."""
    group_send(table_group(table_id), {"type": "table.unwatchable", "keep": keep})


def watching_end(user_ids: list[int], *, playing_at: int) -> None:
    """These users' matches started at table `playing_at`: their sockets watching any
    other table close (4436). One message to each user's group."""
    _send_many(
        [
            (user_group(user_id), {"type": "user.playing", "table": playing_at})
            for user_id in user_ids
        ]
    )

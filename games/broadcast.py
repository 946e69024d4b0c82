"""Frames sent to the sockets of a table, after commit.

Each seat has its own group and receives only its own view; spectators share
the watchers' group and receive the public view. Frames are built in the
service (which already holds the engine state), so consumers only forward.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games.engine import Match as EngineMatch
from games.engine import public_view, seat_view

logger = logging.getLogger(__name__)

# The event loop serving websockets in this process (set by the consumers): the
# in-process channel layer must be used from that loop only.
_server_loop: asyncio.AbstractEventLoop | None = None


def register_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    global _server_loop
    _server_loop = loop


def seat_group(table_id: int, position: int) -> str:
    return f"table-{table_id}-seat-{position}"


def watch_group(table_id: int) -> str:
    return f"table-{table_id}-watch"


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def table_info(table: Any, seats: list[Any], match: Any | None) -> dict[str, Any]:
    deadline = match.turn_deadline if match is not None else None
    return {
        "id": table.pk,
        "mode": table.mode,
        "rules": table.rules,
        "status": table.status,
        "owner": table.owner.username,
        "match": match.pk if match is not None else None,
        "deadline": deadline.isoformat() if deadline else None,
        "deadline_ms": int(deadline.timestamp() * 1000) if deadline else None,
        "seats": [
            {
                "position": seat.position,
                "kind": seat.kind,
                "name": seat.user.username if seat.user_id else None,
                "connected": seat.connections > 0,
                "absent": seat.absent_since is not None,
                "abandoned": seat.abandoned,
            }
            for seat in seats
        ],
    }


def build_frame(
    *,
    kind: str,
    table: Any,
    seats: list[Any],
    match: Any | None,
    engine: EngineMatch | None,
    position: int | None,
    events: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """One frame for one seat (`position`) or for spectators (`None`)."""
    view = None
    if engine is not None:
        view = seat_view(engine, position) if position is not None else public_view(engine)
    frame: dict[str, Any] = {
        "type": kind,
        "seq": table.seq,
        "version": match.version if match is not None else 0,
        "table": table_info(table, seats, match),
        "view": view,
    }
    if events is not None:
        frame["events"] = events
    return frame


def _send(group: str, message: dict[str, Any]) -> None:
    layer = get_channel_layer()
    if layer is None:
        return
    if isinstance(layer, InMemoryChannelLayer) and _server_loop is not None:
        if _server_loop.is_running():
            asyncio.run_coroutine_threadsafe(layer.group_send(group, message), _server_loop)
        return
    try:
        async_to_sync(layer.group_send)(group, message)
    except Exception:  # a lost broadcast is repaired by the client's resync, never fatal
        logger.exception("broadcast to %s failed", group)


def group_send(group: str, message: dict[str, Any]) -> None:
    """Sends one channel-layer message from sync code, safely in either layer mode."""
    _send(group, message)


def send_table_frames(
    *,
    table: Any,
    seats: list[Any],
    match: Any | None,
    engine: EngineMatch | None,
    events: list[dict[str, Any]],
) -> None:
    for seat in seats:
        frame = build_frame(
            kind="update",
            table=table,
            seats=seats,
            match=match,
            engine=engine,
            position=seat.position,
            events=events,
        )
        _send(seat_group(table.pk, seat.position), {"type": "table.frame", "frame": frame})
    frame = build_frame(
        kind="update",
        table=table,
        seats=seats,
        match=match,
        engine=engine,
        position=None,
        events=events,
    )
    _send(watch_group(table.pk), {"type": "table.frame", "frame": frame})


def notify_user(user_id: int, what: str) -> None:
    _send(user_group(user_id), {"type": "lobby.changed", "what": what})

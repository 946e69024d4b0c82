"""Frames sent to the sockets of a table, after commit.

One channel-layer message per change goes to the table's group: it carries
every seat's frame and the spectators' frame, each already serialised to JSON
in the service (which holds the engine state). Each consumer forwards only the
frame of its own seat (spectators the public one), so a socket never receives
another seat's view; the other frames only cross the server's own Redis. One
message instead of five keeps Redis round trips and event-loop work per move
small (see docs/operations.md, "Tables benchmark").
"""

from __future__ import annotations

import asyncio
import logging
import threading
from typing import Any

import orjson
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, get_channel_layer

from games import presenters
from games.engine import Match as EngineMatch
from games.engine import public_view, seat_fields, seat_view
from games.modes import mode_policy

logger = logging.getLogger(__name__)

# The event loop serving websockets in this process (set by the consumers): the
# in-process channel layer must be used from that loop only.
_server_loop: asyncio.AbstractEventLoop | None = None


def register_server_loop(loop: asyncio.AbstractEventLoop) -> None:
    global _server_loop
    _server_loop = loop


def table_group(table_id: int) -> str:
    return f"table-{table_id}"


WATCH_KEY = "watch"


def frame_key(position: int | None) -> str:
    """The key of a seat's frame (or the spectators') in a `table.frames` message."""
    return str(position) if position is not None else WATCH_KEY


def user_group(user_id: int) -> str:
    return f"user-{user_id}"


def table_info(table: Any, seats: list[Any], match: Any | None) -> dict[str, Any]:
    deadline = match.turn_deadline if match is not None else None
    names = presenters.seat_names(table=table, seats=seats, match=match)
    stakes = mode_policy(table.mode).table_stakes(table=table)
    return {
        "id": table.pk,
        "mode": table.mode,
        "rules": table.rules,
        "stake": stakes.stake if stakes is not None else None,
        "pot": stakes.pot if stakes is not None else None,
        "status": table.status,
        "owner": table.owner.username,
        "bot_level": table.bot_level,
        "match": match.pk if match is not None else None,
        "deadline": deadline.isoformat() if deadline else None,
        "deadline_ms": int(deadline.timestamp() * 1000) if deadline else None,
        "seats": [
            {
                "position": seat.position,
                "kind": seat.kind,
                "name": names[seat.position],
                "level": table.bot_level if seat.kind == "bot" else None,
                "pair": seat.position % 2,
                "connected": seat.connections > 0,
                "absent": seat.absent_since is not None,
                "abandoned": seat.abandoned,
                "reliability": seat.reliability if seat.user_id else None,
            }
            for seat in seats
        ],
    }


def result_for(
    outcome: dict[str, Any] | None, seats: list[Any], position: int | None
) -> dict[str, Any] | None:
    """A finished match's result as `position` sees it: every seat's place, and under
    `you` the viewer's own (won, coins, XP earned and their new balance)."""
    if outcome is None:
        return None
    you = None
    if position is not None:
        you = dict(outcome["places"][position])
        user_id = seats[position].user_id
        you["balance"] = outcome["balances"].get(user_id) if user_id else None
    return {
        "winner": outcome["winner"],
        "scores": outcome["scores"],
        "places": outcome["places"],
        "you": you,
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
    info: dict[str, Any] | None = None,
    outcome: dict[str, Any] | None = None,
    extras: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """One frame for one seat (`position`) or for spectators (`None`): everything that
    seat draws (docs/protocol.md). `info` and `extras` (last trick, summary) are the
    parts every seat shares, when the caller built them once for all seats."""
    view = None
    if engine is not None:
        view = seat_view(engine, position) if position is not None else public_view(engine)
    if extras is None:
        extras = shared_extras(engine)
    frame: dict[str, Any] = {
        "type": kind,
        "seq": table.seq,
        "version": match.version if match is not None else 0,
        "seat": position,
        "table": info if info is not None else table_info(table, seats, match),
        "view": view,
        **extras,
        "result": result_for(outcome, seats, position),
    }
    if events is not None:
        frame["events"] = events
    return frame


def shared_extras(engine: EngineMatch | None) -> dict[str, Any]:
    """The last completed trick and the summary of the hand just finished."""
    if engine is None:
        return {"last_trick": None, "summary": None}
    return {"last_trick": presenters.last_trick(engine), "summary": presenters.last_summary(engine)}


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
    layer: Any, messages: list[tuple[str, dict[str, Any]]], in_process: bool = False
) -> None:
    # The Redis layer's in-process send (cuatrola_site/channel_layer.py); the
    # in-memory layer's group_send is in-process already.
    send = (getattr(layer, "group_send_local", None) if in_process else None) or layer.group_send
    for group, message in messages:
        await send(group, message)


def _send_many(
    messages: list[tuple[str, dict[str, Any]]], *, wait: bool = True, in_process: bool = False
) -> None:
    """Sends from sync code. Outside a server process it waits for the send (a
    worker's table frames stay in order) unless `wait` is false. `in_process`: only
    this process's sockets are members (games/sockets/listeners.py), so the message is
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
        loop.create_task(_send_all(layer, messages, in_process))
        return
    if isinstance(layer, InMemoryChannelLayer) and loop is not _server_loop:
        # No server loop in this process (a shell, a test): send from a fresh loop.
        async_to_sync(_send_all)(layer, messages)
        return
    future = asyncio.run_coroutine_threadsafe(_send_all(layer, messages, in_process), loop)
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


def _encode(value: Any) -> str:
    """Compact JSON, for every frame (orjson: the frames' encoding was the largest
    part of building them; non-ASCII text is written as UTF-8, not escaped)."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


# The seat's own part of a view, always last in `view.hand` (docs/engine.md).
_SEAT_KEYS = ("seat", "positions", "hand", "legal_actions")


def _view_texts(engine: EngineMatch | None, positions: list[int | None]) -> dict[Any, str]:
    """Each position's view as JSON text: the public part is encoded once and each
    seat's own part (its cards, legal actions) appended to it."""
    if engine is None:
        return dict.fromkeys(positions, "null")
    public = public_view(engine)
    for key in _SEAT_KEYS:
        del public["hand"][key]
    head = _encode(public)[:-2]  # without the closing braces of `hand` and the view
    return {
        position: f"{head},{_encode(seat_fields(engine.hand, position))[1:]}}}"
        for position in positions
    }


def table_frames(
    *,
    table: Any,
    seats: list[Any],
    match: Any | None,
    engine: EngineMatch | None,
    events: list[dict[str, Any]],
    outcome: dict[str, Any] | None = None,
) -> dict[str, str]:
    """Every seat's `update` frame and the spectators', as JSON text by frame key:
    what all of them share is built and encoded once, then each frame is its own
    seat's part (`seat`, `view`, `result`) followed by the shared part. The frames
    are those of `build_frame`, in a different key order."""
    shared = {
        "type": "update",
        "seq": table.seq,
        "version": match.version if match is not None else 0,
        "table": table_info(table, seats, match),
        **shared_extras(engine),
        "events": events,
    }
    tail = _encode(shared)[1:]
    positions = [*(seat.position for seat in seats), None]
    views = _view_texts(engine, positions)
    return {
        frame_key(position): (
            f'{{"seat":{_encode(position)},"view":{views[position]},'
            f'"result":{_encode(result_for(outcome, seats, position))},{tail}'
        )
        for position in positions
    }


def send_table_frames(
    *,
    table: Any,
    seats: list[Any],
    match: Any | None,
    engine: EngineMatch | None,
    events: list[dict[str, Any]],
    outcome: dict[str, Any] | None = None,
    in_process: bool = False,
) -> None:
    frames = table_frames(
        table=table, seats=seats, match=match, engine=engine, events=events, outcome=outcome
    )
    # Where each seated user now sits (seats can be swapped in a room): a socket
    # keyed to its old seat would otherwise forward another seat's view.
    sitting = {str(seat.user_id): [seat.position, seat.pk] for seat in seats if seat.user_id}
    # `seq` lets a socket drop a message older than a frame it was already given
    # (and its `sitting`, which would move it back to a seat left since).
    message = {"type": "table.frames", "frames": frames, "sitting": sitting, "seq": table.seq}
    _send_many([(table_group(table.pk), message)], in_process=in_process)


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

"""What the table socket records for operators (ops.metrics): a move counted and
timed from its receipt to its frames sent, and the open sockets by kind."""

from __future__ import annotations

import asyncio
import json

import pytest
from prometheus_client import REGISTRY

from tests.games.sockets.test_consumers import (
    TIMEOUT,
    a_humans_turn,
    communicator,
    receive,
    receive_until,
)

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def sample(name: str, labels: dict[str, str] | None = None) -> float:
    return REGISTRY.get_sample_value(name, labels or {}) or 0.0


async def until(predicate) -> None:
    """The histogram is observed once the frames are sent, which may be just after
    the socket under test got its own: wait for it, with a bound."""
    for _ in range(200):
        if predicate():
            return
        await asyncio.sleep(0.025)
    raise AssertionError("never happened")


async def test_a_move_is_counted_and_timed_from_receipt_to_its_frames_sent(
    started_room, player, partner, opponent
):
    match, seat, action = await a_humans_turn(started_room)
    comm = communicator({0: player, 1: opponent, 2: partner}[seat], started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    moves = {"mode": "friends", "source": "player"}
    moves_before = sample("cuatrola_moves_total", moves)
    timed_before = sample("cuatrola_move_seconds_count")
    await comm.send_to(
        text_data=json.dumps({"type": "play", "action": action, "version": match.version})
    )
    await receive_until(comm, lambda f: f["type"] == "update" and f["version"] > match.version)
    await until(lambda: sample("cuatrola_move_seconds_count") == timed_before + 1)
    assert sample("cuatrola_moves_total", moves) == moves_before + 1
    assert sample("cuatrola_move_seconds_sum") > 0
    await comm.disconnect()


async def test_a_refused_move_is_neither_counted_nor_timed(started_room, player, partner, opponent):
    match, seat, action = await a_humans_turn(started_room)
    comm = communicator({0: player, 1: opponent, 2: partner}[seat], started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    moves_before = sample("cuatrola_moves_total", {"mode": "friends", "source": "player"})
    timed_before = sample("cuatrola_move_seconds_count")
    stale = {"type": "play", "action": action, "version": match.version + 5}
    await comm.send_to(text_data=json.dumps(stale))
    await receive_until(comm, lambda f: f["type"] == "error")
    await comm.send_to(text_data=json.dumps({"type": "ping", "id": "after"}))
    await receive_until(comm, lambda f: f["type"] == "pong")
    assert sample("cuatrola_moves_total", {"mode": "friends", "source": "player"}) == moves_before
    assert sample("cuatrola_move_seconds_count") == timed_before
    await comm.disconnect()


async def test_open_sockets_are_counted_by_kind_until_they_close(started_room, player, staff_user):
    players_before = sample("cuatrola_sockets_open", {"kind": "player"})
    watchers_before = sample("cuatrola_sockets_open", {"kind": "watcher"})
    seated = communicator(player, started_room.pk)
    await seated.connect(timeout=TIMEOUT)
    await receive(seated)
    watching = communicator(staff_user, started_room.pk)
    await watching.connect(timeout=TIMEOUT)
    await receive(watching)
    assert sample("cuatrola_sockets_open", {"kind": "player"}) == players_before + 1
    assert sample("cuatrola_sockets_open", {"kind": "watcher"}) == watchers_before + 1
    await seated.disconnect()
    await watching.disconnect()
    await until(lambda: sample("cuatrola_sockets_open", {"kind": "player"}) == players_before)
    assert sample("cuatrola_sockets_open", {"kind": "watcher"}) == watchers_before

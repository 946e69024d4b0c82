"""Database faults on the socket path (a PostgreSQL restart, its connections killed)
become "retry", never a closed table (docs/protocol.md, "`retry`"): the message is
answered with a `retry` frame, the dead connection is dropped, and the message sent
again is handled."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.db import database_sync_to_async
from django.db import OperationalError, connection, connections

from games.sockets import admission, consumers
from games.sockets.db_threads import DatabaseThreads
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


@pytest.fixture
def test_pid() -> int:
    """The test's own connection (its teardown empties the tables with it)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _kill_other_connections(spare: int) -> int:
    """What `pg_terminate_backend` of a restart does to every web process's connection
    (the database threads'), sparing the test's."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid() AND pid <> %s",
            [spare],
        )
        return cursor.fetchone()[0]


async def test_a_move_whose_connection_was_killed_is_retried_and_played_once(
    started_room, player, partner, opponent, monkeypatch, test_pid
):
    # Connections kept between calls, as in production (DATABASE_CONN_MAX_AGE=600), by
    # one database thread of this test's own (its connection dies with the test): the
    # connection the socket opened with is the one the move meets, killed.
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 600)
    threads = DatabaseThreads(1)
    monkeypatch.setattr(consumers, "_threads", threads)
    match, seat, action = await a_humans_turn(started_room)
    comm = communicator({0: player, 1: opponent, 2: partner}[seat], started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    assert await database_sync_to_async(_kill_other_connections)(test_pid) >= 1
    play = {"type": "play", "action": action, "version": match.version, "id": 1}
    retries = 0
    await comm.send_to(text_data=json.dumps(play))
    while True:
        frame = await receive(comm)
        if frame["type"] == "retry":
            assert frame == {"type": "retry", "of": "play", "after_ms": 1000, "id": 1}
            retries += 1
            assert retries <= threads.size  # one per dead connection at most
            await comm.send_to(text_data=json.dumps(play))  # as the page does
            continue
        if frame["type"] == "update":
            break
        assert frame["type"] in ("ack", "watchers"), frame
    assert retries == 1
    assert frame["version"] == match.version + 1
    # Sent once more (the page's retry crossing its update): stale, never played twice.
    await comm.send_to(text_data=json.dumps(play))
    refused = await receive_until(comm, lambda f: f["type"] in ("error", "retry"))
    while refused["type"] == "retry":  # a database thread whose connection was killed too
        await comm.send_to(text_data=json.dumps(play))
        refused = await receive_until(comm, lambda f: f["type"] in ("error", "retry"))
    assert refused["code"] == "stale_version"
    state = await receive_until(comm, lambda f: f["type"] in ("state", "retry"))
    while state["type"] == "retry":  # the state read after it met a killed connection
        await comm.send_to(text_data=json.dumps({"type": "sync"}))
        state = await receive_until(comm, lambda f: f["type"] in ("state", "retry"))
    assert state["version"] == match.version + 1
    await comm.disconnect()
    # The database threads' kept connections, closed so the test database can go.
    await asyncio.to_thread(threads.shutdown)
    await database_sync_to_async(_kill_other_connections)(test_pid)


async def test_a_sync_that_meets_a_database_fault_is_answered_with_retry(
    started_room, player, monkeypatch
):
    comm = communicator(player, started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)

    def down(**kwargs):
        raise OperationalError("the server closed the connection unexpectedly")

    monkeypatch.setattr(consumers.selectors, "seat_frame", down)
    await asyncio.sleep(1.1)  # past SOCKET_SYNC_SECONDS since the first state
    await comm.send_to(text_data=json.dumps({"type": "sync", "id": "s"}))
    frame = await receive_until(comm, lambda f: f["type"] != "watchers")
    assert frame == {"type": "retry", "of": "sync", "after_ms": 1000, "id": "s"}
    monkeypatch.undo()
    await asyncio.sleep(1.1)
    await comm.send_to(text_data=json.dumps({"type": "sync", "id": "s"}))
    frame = await receive_until(comm, lambda f: f["type"] == "state")
    assert frame["id"] == "s"
    await comm.disconnect()


async def test_a_socket_that_cannot_reach_the_database_as_it_opens_closes_with_4503(
    started_room, player, monkeypatch
):
    def down(*args, **kwargs):
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(admission, "read", down)
    comm = communicator(player, started_room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected  # accepted, so that the browser sees the code
    message = await comm.receive_output(timeout=TIMEOUT)
    assert message == {"type": "websocket.close", "code": admission.CLOSE_RETRY_SOON}

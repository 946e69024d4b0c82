"""A web process's graceful restart (ops/shutdown.py, cuatrola_site/shutdown.py):
/healthz answers 503, every socket is closed with 4500 once its database call in
flight has ended, a socket opening during the notice is served and closed with the
rest, one opening after it is closed with 4500, and the drain ends
when every socket's application has."""

from __future__ import annotations

import asyncio
import json

import pytest
from channels.routing import URLRouter
from channels.testing import HttpCommunicator, WebsocketCommunicator

from cuatrola_site.asgi import http_application
from games import services
from games.sockets import admission
from games.sockets.routing import websocket_urlpatterns
from ops import shutdown
from tests.games.sockets.test_consumers import TIMEOUT, communicator, receive

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture(autouse=True)
def _serving():
    shutdown.reset()
    yield
    shutdown.reset()


async def _drain_started() -> None:
    """One turn of the loop: the drain task marks the process draining before its
    first wait, so it has once it has run at all (no guess at how long that takes)."""
    await asyncio.sleep(0)
    assert shutdown.draining()


async def _health() -> tuple[int, bytes]:
    response = await HttpCommunicator(http_application, "GET", "/healthz").get_response()
    return response["status"], response["body"]


async def test_a_restart_closes_every_socket_with_4500_and_ends_when_they_have(
    started_room, player, partner
):
    table = communicator(player, started_room.pk)
    await table.connect(timeout=TIMEOUT)
    await receive(table)
    lobby = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    lobby.scope["user"] = partner
    assert (await lobby.connect(timeout=TIMEOUT))[0]
    assert await _health() == (200, b"ok")
    assert shutdown.open_sockets() == 2

    drain = asyncio.ensure_future(shutdown.drain(notice=2, limit=10))
    await _drain_started()
    assert await _health() == (503, b"restarting")  # the front door takes it out
    # Within the notice the sockets still work.
    await table.send_to(text_data=json.dumps({"type": "ping", "id": 1}))
    assert (await receive(table)) == {"type": "pong", "id": 1}
    for comm in (table, lobby):
        closed = await comm.receive_output(timeout=TIMEOUT)
        while closed["type"] != "websocket.close":  # frames sent before it
            closed = await comm.receive_output(timeout=TIMEOUT)
        assert closed["code"] == admission.CLOSE_RESTARTING
        await comm.disconnect()  # the page closes its side and reconnects elsewhere
    assert await asyncio.wait_for(drain, TIMEOUT) == 0
    assert shutdown.open_sockets() == 0


async def test_a_socket_opening_during_the_notice_is_served_then_closed_with_the_rest(
    started_room, player
):
    """The front door still sends this process its tables until its health check sees
    the 503: a socket opening then is served (refused, its page would only come back
    here), and closed with the others when the notice ends."""
    drain = asyncio.ensure_future(shutdown.drain(notice=3, limit=10))
    await _drain_started()
    assert not shutdown.closing()
    comm = communicator(player, started_room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    assert json.loads(await comm.receive_from(timeout=TIMEOUT))["type"] == "state"
    closed = await comm.receive_output(timeout=TIMEOUT)
    while closed["type"] != "websocket.close":
        closed = await comm.receive_output(timeout=TIMEOUT)
    assert closed["code"] == admission.CLOSE_RESTARTING
    await comm.disconnect()
    assert await asyncio.wait_for(drain, TIMEOUT) == 0


async def test_a_socket_opening_once_the_sockets_are_closing_is_closed_with_4500(
    started_room, player
):
    drain = asyncio.ensure_future(shutdown.drain(notice=0, limit=1))
    await asyncio.wait_for(drain, TIMEOUT)
    comm = communicator(player, started_room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected  # accepted, so that the browser sees the code
    message = await comm.receive_output(timeout=TIMEOUT)
    assert message == {"type": "websocket.close", "code": admission.CLOSE_RESTARTING}


async def test_a_move_in_flight_ends_before_its_socket_is_closed(started_room, player, partner):
    """The close waits for the socket's database call (its move commits whole)."""
    from games.sockets.consumers import TableConsumer

    held = asyncio.Event()
    released = asyncio.Event()

    class Holding(TableConsumer):
        async def receive(self, text_data=None, bytes_data=None):
            async with self.db_turn:  # as a move's database call does
                held.set()
                await released.wait()

    comm = WebsocketCommunicator(Holding.as_asgi(), f"/ws/tables/{started_room.pk}/")
    comm.scope["user"] = player
    comm.scope["url_route"] = {"kwargs": {"table_id": started_room.pk}}
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    await asyncio.wait_for(held.wait(), TIMEOUT)
    drain = asyncio.ensure_future(shutdown.drain(notice=0, limit=10))
    assert await comm.receive_nothing(timeout=0.3)  # not closed while the move runs
    released.set()
    closed = await comm.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": admission.CLOSE_RESTARTING}
    await comm.disconnect()
    assert await asyncio.wait_for(drain, TIMEOUT) == 0


async def test_a_player_whose_socket_a_restart_closed_is_not_marked_absent(
    started_room, player, settings
):
    from channels.db import database_sync_to_async

    from games.models import Seat

    comm = communicator(player, started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    drain = asyncio.ensure_future(shutdown.drain(notice=0, limit=10))
    closed = await comm.receive_output(timeout=TIMEOUT)
    while closed["type"] != "websocket.close":
        closed = await comm.receive_output(timeout=TIMEOUT)
    await comm.disconnect()
    assert await asyncio.wait_for(drain, TIMEOUT) == 0
    seat = await database_sync_to_async(Seat.objects.get)(table=started_room, user=player)
    assert seat.connections == 0 and seat.absent_since is None
    # Nor a no-show while the page reconnects (to the other process).
    done = await database_sync_to_async(services.tables_sweep)()
    assert done["no_shows"] == 0


async def test_after_the_drain_the_process_deletes_its_row_and_counts_nothing(started_room, player):
    from channels.db import database_sync_to_async

    from cuatrola_site.shutdown import leave
    from games.fanout import listeners
    from games.models import Seat, WebProcess

    table = communicator(player, started_room.pk)
    await table.connect(timeout=TIMEOUT)
    await receive(table)
    rows = database_sync_to_async(lambda: list(WebProcess.objects.values_list("pk", flat=True)))
    assert await rows() == [listeners.PROCESS_ID]  # written as it counted the socket
    drain = asyncio.ensure_future(shutdown.drain(notice=0, limit=10))
    closed = await table.receive_output(timeout=TIMEOUT)
    while closed["type"] != "websocket.close":
        closed = await table.receive_output(timeout=TIMEOUT)
    await table.disconnect()
    await asyncio.wait_for(drain, TIMEOUT)
    await leave()
    assert await rows() == []
    seat = await database_sync_to_async(Seat.objects.get)(table=started_room, user=player)
    assert seat.connections == 0 and seat.sockets == {}

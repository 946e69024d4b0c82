"""A table socket's connect that fails or is cancelled at any step leaves nothing
behind (games/sockets/consumers.py): not in the layer's direct delivery, not in a group,
not listed on the table, not vouched for, not counted on its seat, not counted
against its user's open sockets."""

from __future__ import annotations

import asyncio
import threading
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from channels.testing import WebsocketCommunicator

from cuatrola_site.channel_layer import PipelinedLoopLayer
from games import selectors
from games.fanout import listeners, presence
from games.models import Seat, Table
from games.sockets import admission, heartbeat, inbound
from games.sockets.consumers import TableConsumer

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

TIMEOUT = 10


class Recorded(TableConsumer):
    """Keeps its instances, so the test can look at what each one set up."""

    instances: list[TableConsumer] = []

    async def connect(self) -> None:
        Recorded.instances.append(self)
        await super().connect()


def socket(user, table_id) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(Recorded.as_asgi(), f"/ws/tables/{table_id}/")
    comm.scope["user"] = user
    comm.scope["url_route"] = {"kwargs": {"table_id": table_id}}
    comm.scope["session"] = SimpleNamespace(session_key="a-session-key")
    comm.scope["client"] = ("203.0.113.9", 50000)
    return comm


class Fault:
    """Where connect stops: `fail` raises there; `cancel` waits there until the task
    is cancelled (a database call waits in its thread, and ends after the cancel)."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.reached = asyncio.Event()
        self.loop = asyncio.get_running_loop()
        self.gate = threading.Event()  # a database call's, opened after the cancel

    async def stop(self) -> None:
        self.reached.set()
        if self.mode == "fail":
            raise RuntimeError("injected")
        await asyncio.Event().wait()  # until cancelled

    def stop_in_thread(self) -> None:
        self.loop.call_soon_threadsafe(self.reached.set)
        if self.mode == "fail":
            raise RuntimeError("injected")
        assert self.gate.wait(TIMEOUT)


STEPS = [
    "limits",
    "admit",
    "table group",
    "user group",
    "session group",
    "accept",
    "direct delivery",
    "listing",
    "join",
    "first frame",
]


def inject(step: str, fault: Fault, monkeypatch) -> None:
    if step == "limits":
        real_admit = presence.admit

        async def admit(**kwargs):
            result = await real_admit(**kwargs)  # counted, then stopped
            await fault.stop()
            return result

        monkeypatch.setattr(presence, "admit", admit)
    elif step == "admit":
        monkeypatch.setattr(admission, "read", lambda user, table_id: fault.stop_in_thread())
    elif step in ("table group", "user group", "session group"):
        prefix = {"table group": "table-", "user group": "user-", "session group": "session-"}
        real_add = PipelinedLoopLayer.group_add

        async def group_add(self, group, channel):
            await real_add(self, group, channel)  # added, then stopped
            if group.startswith(prefix[step]):
                await fault.stop()

        monkeypatch.setattr(PipelinedLoopLayer, "group_add", group_add)
    elif step == "accept":
        real_accept = TableConsumer.accept

        async def accept(self, *args, **kwargs):
            await real_accept(self, *args, **kwargs)
            await fault.stop()

        monkeypatch.setattr(TableConsumer, "accept", accept)
    elif step == "direct delivery":
        real_direct = PipelinedLoopLayer.deliver_directly

        def deliver_directly(self, channel, handler):
            real_direct(self, channel, handler)
            if fault.mode == "fail":
                fault.reached.set()
                raise RuntimeError("injected")

        monkeypatch.setattr(PipelinedLoopLayer, "deliver_directly", deliver_directly)
        if fault.mode == "cancel":  # stops right after it, at the listing's start
            real_opened = listeners.opened

            async def opened(*args, **kwargs):
                await fault.stop()
                await real_opened(*args, **kwargs)

            monkeypatch.setattr(listeners, "opened", opened)
    elif step == "listing":
        real_listed = listeners.listed

        def listed(listeners_now, process, listening):
            if listening:  # in the listing's transaction (failing: rolled back)
                fault.stop_in_thread()
            return real_listed(listeners_now, process, listening)

        monkeypatch.setattr(listeners, "listed", listed)
    elif step == "join":
        real_frame = selectors.state_frame

        def state_frame(**kwargs):
            # In the join's transaction, the seat already counting the socket: failing,
            # it is rolled back; cancelled, it commits once the gate opens.
            fault.stop_in_thread()
            return real_frame(**kwargs)

        monkeypatch.setattr(selectors, "state_frame", state_frame)
    elif step == "first frame":
        real_send = TableConsumer.send

        async def send(self, text_data=None, *args, **kwargs):
            if text_data and '"type": "state"' in text_data:
                await fault.stop()
            await real_send(self, text_data, *args, **kwargs)

        monkeypatch.setattr(TableConsumer, "send", send)


async def _nothing_left(consumer: TableConsumer, table, user) -> None:
    layer = get_channel_layer()._get_layer()
    assert consumer.channel_name not in layer._direct
    channel = consumer.channel_name
    assert not [group for group, members in layer.groups.items() if channel in members]
    key = (listeners.PROCESS_ID, table.pk)
    assert key not in listeners._sockets and key not in listeners._locks
    row = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert listeners.PROCESS_ID not in row.listeners.split()
    seat = await database_sync_to_async(Seat.objects.get)(table=table, user=user)
    assert seat.connections == 0
    assert seat.pk not in heartbeat.open_seats()
    assert await presence.counted(user_id=user.pk, address="203.0.113.9") == (0, 0)


@pytest.mark.parametrize("mode", ["fail", "cancel"])
@pytest.mark.parametrize("step", STEPS)
async def test_a_connect_stopped_at_any_step_leaves_nothing_behind(
    started_room, player, step, mode, monkeypatch
):
    Recorded.instances = []
    fault = Fault(mode)
    inject(step, fault, monkeypatch)
    comm = socket(player, started_room.pk)
    await comm.send_input({"type": "websocket.connect"})
    await asyncio.wait_for(fault.reached.wait(), TIMEOUT)
    if mode == "cancel":
        comm.future.cancel()
        fault.gate.set()  # a database call stopped in its thread ends now
    await asyncio.wait([comm.future], timeout=TIMEOUT)
    assert comm.future.done()
    if mode == "fail":
        assert isinstance(comm.future.exception(), RuntimeError)
    else:
        assert comm.future.cancelled()
    await _nothing_left(Recorded.instances[0], started_room, player)
    # And the user's next socket works as ever.
    monkeypatch.undo()
    comm = socket(player, started_room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    frame = await comm.receive_json_from(timeout=TIMEOUT)
    assert frame["type"] == "state" and frame["seat"] == 0
    await comm.disconnect()
    await _nothing_left(Recorded.instances[-1], started_room, player)


async def test_a_socket_that_closes_normally_leaves_nothing_behind(started_room, player):
    Recorded.instances = []
    comm = socket(player, started_room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    await comm.receive_json_from(timeout=TIMEOUT)
    seat = await database_sync_to_async(Seat.objects.get)(table=started_room, user=player)
    assert seat.connections == 1 and seat.pk in heartbeat.open_seats()
    await comm.disconnect()
    await _nothing_left(Recorded.instances[0], started_room, player)


class ClientGone(OSError):
    """What uvicorn's `send` raises once the client is gone (its ClientDisconnected)."""


class LostClient:
    """The server side of a socket whose client goes: once `gone`, its `send` raises
    ClientGone, and each message it refused is put in `refused`."""

    def __init__(self) -> None:
        self.gone = False
        self.refused: asyncio.Queue[dict] = asyncio.Queue()


def socket_that_loses_its_client(user, table_id) -> tuple[WebsocketCommunicator, LostClient]:
    client = LostClient()
    app = Recorded.as_asgi()

    async def served(scope, receive, send):
        async def sending(message):
            if client.gone:
                client.refused.put_nowait(message)
                raise ClientGone()
            await send(message)

        await app(scope, receive, sending)

    comm = WebsocketCommunicator(served, f"/ws/tables/{table_id}/")
    comm.scope.update(socket(user, table_id).scope)
    return comm, client


async def test_frames_for_a_client_already_gone_are_dropped_and_its_disconnect_releases_it(
    started_room, player, caplog
):
    Recorded.instances = []
    comm, client = socket_that_loses_its_client(player, started_room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    await comm.receive_json_from(timeout=TIMEOUT)
    consumer = Recorded.instances[0]
    client.gone = True
    # Its own answer (a pong), then a table's frame handed straight from the layer.
    await comm.send_json_to({"type": "ping", "id": 1})
    await asyncio.wait_for(client.refused.get(), TIMEOUT)
    await consumer.dispatch(
        {"type": "table.frames", "seq": 10**6, "frames": {consumer.seat.frame_key: "{}"}}
    )
    await asyncio.wait_for(client.refused.get(), TIMEOUT)
    # Still there: it answers the next message too (a consumer ended by the first
    # refusal never would), and is released by the disconnect that follows.
    await comm.send_json_to({"type": "ping", "id": 2})
    await asyncio.wait_for(client.refused.get(), TIMEOUT)
    assert not comm.future.done()
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    await comm.send_input({"type": "websocket.disconnect", "code": 1006})
    await asyncio.wait([comm.future], timeout=TIMEOUT)
    assert comm.future.done() and comm.future.exception() is None
    await _nothing_left(consumer, started_room, player)


async def test_a_socket_whose_handler_fails_after_it_opened_leaves_nothing_behind(
    started_room, player, monkeypatch
):
    Recorded.instances = []
    comm = socket(player, started_room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    await comm.receive_json_from(timeout=TIMEOUT)

    def parse(text):
        raise RuntimeError("injected")

    monkeypatch.setattr(inbound, "parse", parse)
    await comm.send_json_to({"type": "ping", "id": 1})
    await asyncio.wait([comm.future], timeout=TIMEOUT)
    assert isinstance(comm.future.exception(), RuntimeError)
    await _nothing_left(Recorded.instances[0], started_room, player)


async def test_a_socket_opens_in_two_calls_in_the_seats_lane_not_behind_the_reads(
    started_room, player, monkeypatch
):
    # After a web process's death the tables waiting for its players all send `sync`
    # (reads) at once: a socket opening there must not wait behind them for its state.
    from games.sockets import db_threads as threads_module

    lanes = []
    real_submit = threads_module.DatabaseThreads.submit

    def submit(self, func, *args, lane, owner, **kwargs):
        if owner == player.pk:
            lanes.append((getattr(func, "__name__", repr(func)), lane))
        return real_submit(self, func, *args, lane=lane, owner=owner, **kwargs)

    monkeypatch.setattr(threads_module.DatabaseThreads, "submit", submit)
    Recorded.instances = []
    comm = socket(player, started_room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    assert (await comm.receive_json_from(timeout=TIMEOUT))["type"] == "state"
    opening = list(lanes)
    await comm.disconnect()
    # The join and the talk read are one call: each call of an opening waits its turn
    # behind one call of every other socket opening at the same time.
    assert [name for name, _ in opening] == ["read", "_join_and_talk"], opening
    assert {lane for _, lane in opening} == {threads_module.Lane.SEAT}, opening

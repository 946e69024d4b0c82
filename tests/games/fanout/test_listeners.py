"""Which web processes hold a table's sockets (games/fanout/listeners.py), and the frames
of a move delivered in-process when its process is the only one."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db import connection, transaction

from games import services
from games.fanout import listeners, transport
from games.models import Match, Table
from games.state import rebuild
from tests.games.sockets.test_consumers import TIMEOUT, communicator, receive
from tests.threads import someone_waits_on_a_lock

ME = listeners.PROCESS_ID


def test_frames_stay_in_process_only_when_no_other_process_is_listed():
    assert listeners.only_here("")
    assert listeners.only_here(ME)
    assert not listeners.only_here(f"{ME} other")
    assert not listeners.only_here("other")


def test_a_process_is_listed_once_and_taken_off_alone():
    assert listeners.listed("", "a", True) == "a"
    assert listeners.listed("a", "a", True) == "a"
    assert listeners.listed("a b", "a", True) == "a b"
    assert listeners.listed("a b", "c", True) == "a b c"
    assert listeners.listed("a b", "a", False) == "b"
    assert listeners.listed("b", "a", False) == "b"


class FakeStore:
    """Records each listing as committed; `hold` keeps a taking-off in flight."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str, bool]] = []
        self.hold: asyncio.Event | None = None
        self.in_flight = asyncio.Event()

    async def __call__(self, table_id: int, process: str, listening: bool) -> None:
        if self.hold is not None and not listening:
            self.in_flight.set()
            await self.hold.wait()
        self.calls.append((table_id, process, listening))


async def test_only_the_first_socket_lists_the_process_and_only_the_last_takes_it_off():
    store = FakeStore()
    for _ in range(3):
        await listeners.opened(901, store)
    assert store.calls == [(901, ME, True)]
    await listeners.closed(901, store)
    await listeners.closed(901, store)
    assert store.calls == [(901, ME, True)]
    await listeners.closed(901, store)
    assert store.calls == [(901, ME, True), (901, ME, False)]


async def test_a_socket_opening_while_the_last_one_is_taken_off_lists_the_process_again():
    """Otherwise the row would end without this process while it holds a socket, and
    another process's moves would stop publishing to it."""
    store = FakeStore()
    await listeners.opened(902, store)
    store.hold = asyncio.Event()
    closing = asyncio.ensure_future(listeners.closed(902, store))
    await store.in_flight.wait()  # taking it off is in flight
    # Unserialised, this listing would commit first and the taking-off after it.
    opening = asyncio.ensure_future(listeners.opened(902, store))
    for _ in range(5):
        await asyncio.sleep(0)
    assert not opening.done()  # waits for its turn
    store.hold.set()
    await asyncio.gather(closing, opening)
    assert store.calls == [(902, ME, True), (902, ME, False), (902, ME, True)]
    await listeners.closed(902, store)


async def test_a_listing_that_failed_is_tried_again_by_the_next_socket():
    calls = []

    async def failing(table_id, process, listening):
        calls.append(listening)
        if len(calls) == 1:
            raise ConnectionError("database down")

    with pytest.raises(ConnectionError):
        await listeners.opened(903, failing)
    await listeners.opened(903, failing)
    assert calls == [True, True]
    await listeners.closed(903, failing)
    await listeners.closed(903, failing)
    assert calls == [True, True, False]


async def test_another_process_has_its_own_count():
    store = FakeStore()
    await listeners.opened(904, store)
    await listeners.opened(904, store, "other")
    await listeners.closed(904, store)
    assert store.calls == [(904, ME, True), (904, "other", True), (904, ME, False)]
    await listeners.closed(904, store, "other")


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_table_row_lists_the_processes_with_sockets(started_room):
    services.table_listening(table_id=started_room.pk, process="a", listening=True)
    services.table_listening(table_id=started_room.pk, process="b", listening=True)
    services.table_listening(table_id=started_room.pk, process="a", listening=True)
    assert Table.objects.get(pk=started_room.pk).listeners == "a b"
    services.table_listening(table_id=started_room.pk, process="a", listening=False)
    assert Table.objects.get(pk=started_room.pk).listeners == "b"
    services.table_listening(table_id=999999, process="a", listening=True)  # no such table


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_listing_a_process_waits_for_a_move_that_holds_the_table(started_room):
    """A move reads the list with the table's lock: a process listed meanwhile is
    listed after the move commits (and its socket's state read then holds it)."""
    locked, listed = threading.Event(), threading.Event()
    release = threading.Event()

    def move():
        try:
            with transaction.atomic():
                services.table_lock_live(table_id=started_room.pk)
                locked.set()
                assert release.wait(30)
                assert not listed.is_set()  # still waiting on our lock
        finally:
            connection.close()

    def listen():
        try:
            assert locked.wait(30)
            services.table_listening(table_id=started_room.pk, process="late", listening=True)
            listed.set()
        finally:
            connection.close()

    threads = [threading.Thread(target=move), threading.Thread(target=listen)]
    for thread in threads:
        thread.start()
    assert locked.wait(30)
    for _ in range(600):  # until the listing waits on the move's lock
        if someone_waits_on_a_lock():
            break
        threading.Event().wait(0.05)
    else:
        pytest.fail("the listing never waited for the move")
    release.set()
    for thread in threads:
        thread.join(30)
    assert listed.is_set()
    assert Table.objects.get(pk=started_room.pk).listeners.split()[-1] == "late"


async def _to_play(room, users):
    """Connects every human seat's socket; returns (match, mover's socket, action,
    every socket)."""
    match = await database_sync_to_async(Match.objects.get)(table=room)
    if match.to_play == 3:
        from games import bot_runner

        await database_sync_to_async(bot_runner.play_one)(room.pk)
        match = await database_sync_to_async(Match.objects.get)(table=room)
    sockets = {}
    for seat, user in users.items():
        sockets[seat] = communicator(user, room.pk)
        await sockets[seat].connect(timeout=TIMEOUT)
        await receive(sockets[seat])
    state = await database_sync_to_async(rebuild)(match)
    return match, sockets[match.to_play], state.legal_actions()[0], sockets


@pytest.fixture
async def sends(monkeypatch):
    """The groups this process sends to, over Redis ("redis") or in-process ("here")."""
    groups: dict[str, list[str]] = {"redis": [], "here": []}
    loop_layer = get_channel_layer()._get_layer()
    for name, way in (("group_send", "redis"), ("group_send_local", "here")):
        real = getattr(loop_layer, name)

        async def send(group, message, real=real, way=way):
            groups[way].append(group)
            await real(group, message)

        monkeypatch.setattr(loop_layer, name, send)
    return groups


async def _a_move_reaches_every_socket(room, users, also=None):
    """Every human seat connects (and, with `also`, another process is listed on
    the table); the seat to play moves; returns once each socket has its frame."""
    match, mover, action, sockets = await _to_play(room, users)
    listed = await database_sync_to_async(Table.objects.get)(pk=room.pk)
    assert listed.listeners == ME
    if also:
        await database_sync_to_async(services.table_listening)(
            table_id=room.pk, process=also, listening=True
        )
    await mover.send_to(
        text_data=json.dumps({"type": "play", "action": action, "version": match.version})
    )
    for comm in sockets.values():
        while True:
            frame = json.loads(await comm.receive_from(timeout=TIMEOUT))
            if frame["type"] == "update" and frame["version"] == match.version + 1:
                break
    return sockets


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_a_move_at_a_table_held_by_this_process_alone_skips_redis(
    started_room, player, partner, opponent, sends
):
    sockets = await _a_move_reaches_every_socket(started_room, {0: player, 1: opponent, 2: partner})
    group = transport.table_group(started_room.pk)
    assert group not in sends["redis"] and sends["here"] == [group]
    for comm in sockets.values():
        await comm.disconnect()
    table = await database_sync_to_async(Table.objects.get)(pk=started_room.pk)
    assert table.listeners == ""  # the last socket took the process off


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_a_move_at_a_table_another_process_listens_to_goes_over_redis_once(
    started_room, player, partner, opponent, sends
):
    sockets = await _a_move_reaches_every_socket(
        started_room, {0: player, 1: opponent, 2: partner}, also="another-process"
    )
    # Over Redis once (this process's sockets get it from there too), not also here.
    group = transport.table_group(started_room.pk)
    assert sends["redis"].count(group) == 1 and sends["here"] == []
    for comm in sockets.values():
        await comm.disconnect()


async def test_a_socket_cancelled_while_waiting_for_its_turn_leaves_no_turn_behind():
    store = FakeStore()
    await listeners.opened(905, store)
    store.hold = asyncio.Event()
    closing = asyncio.ensure_future(listeners.closed(905, store))
    await store.in_flight.wait()  # the taking-off holds the table's turn
    opening = asyncio.ensure_future(listeners.opened(905, store))
    for _ in range(5):
        await asyncio.sleep(0)
    opening.cancel()  # while it waits for the turn
    with pytest.raises(asyncio.CancelledError):
        await opening
    store.hold.set()
    await closing
    key = (ME, 905)
    assert key not in listeners._locks and key not in listeners._sockets
    assert store.calls == [(905, ME, True), (905, ME, False)]


async def test_a_listing_cancelled_while_it_is_written_ends_and_is_taken_off_again():
    """The row was written after the socket gave up: with no other socket here, the
    process is taken off the row again, not left listed for ever."""
    written = asyncio.Event()
    release = asyncio.Event()
    calls = []

    async def slow(table_id, process, listening):
        if listening:
            written.set()
            await release.wait()
        calls.append(listening)

    opening = asyncio.ensure_future(listeners.opened(906, slow))
    await written.wait()
    opening.cancel()
    for _ in range(5):
        await asyncio.sleep(0)
    assert not opening.done()  # the row's write is waited for
    release.set()
    with pytest.raises(asyncio.CancelledError):
        await opening
    assert calls == [True, False]
    key = (ME, 906)
    assert key not in listeners._listed and key not in listeners._sockets
    assert key not in listeners._locks


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_a_row_that_lost_this_process_lists_it_again_while_its_sockets_are_open(
    started_room, player, settings, monkeypatch
):
    """A row restored from a backup (or rewritten by a process that did not know of
    this one) no longer lists the process: the periodic check writes it again, so
    another process's moves publish to these sockets once more."""
    from games.sockets import consumers

    settings.PRESENCE_HEARTBEAT_SECONDS = 0.05
    relisted = asyncio.Event()
    real = consumers._list_process

    async def list_process(table_id, process, listening):
        await real(table_id, process, listening)
        if listening:
            relisted.set()

    monkeypatch.setattr(consumers, "_list_process", list_process)
    comm = communicator(player, started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    assert relisted.is_set()  # the socket's own listing
    relisted.clear()
    await database_sync_to_async(Table.objects.filter(pk=started_room.pk).update)(listeners="")
    await asyncio.wait_for(relisted.wait(), TIMEOUT)
    table = await database_sync_to_async(Table.objects.get)(pk=started_room.pk)
    assert table.listeners == ME
    await comm.disconnect()
    table = await database_sync_to_async(Table.objects.get)(pk=started_room.pk)
    assert table.listeners == ""

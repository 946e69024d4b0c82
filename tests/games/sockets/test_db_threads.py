"""The sockets' database threads (games/sockets/db_threads.py): moves first, users in turn,
calls withdrawn while queued, stale connections and health checks."""

from __future__ import annotations

import asyncio
import threading

import pytest
from django.db import connection, connections

from games.models import Seat
from games.sockets import db_threads
from games.sockets.db_threads import DatabaseThreads, Lane

WAIT = 10


@pytest.fixture
def pings(monkeypatch):
    """Counts Django's health checks (`SELECT 1` before a call's first query)."""
    calls = []
    wrapper = type(connections["default"])
    real = wrapper.is_usable

    def is_usable(self):
        calls.append(self.alias)
        return real(self)

    monkeypatch.setattr(wrapper, "is_usable", is_usable)
    return calls


def count_seats() -> int:
    assert connection.settings_dict["CONN_HEALTH_CHECKS"]  # as in production
    return Seat.objects.count()


def close_this_threads_connection() -> None:
    connection.close()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
async def test_a_connection_that_just_answered_is_not_pinged_again(pings, monkeypatch):
    threads = DatabaseThreads(1)  # one thread, one connection
    monkeypatch.setitem(connections.settings["default"], "CONN_MAX_AGE", 600)  # as in production

    async def call():
        return await threads.run(count_seats, lane=Lane.READ, owner=1)

    await call()
    await call()
    await call()
    assert pings == []  # connected afresh, then answered every time
    monkeypatch.setattr(db_threads, "HEALTHY_FOR", 0.0)
    await call()
    assert pings == ["default"]  # idle longer than HEALTHY_FOR: checked first
    await threads.run(close_this_threads_connection, lane=Lane.READ, owner=1)
    threads.shutdown()


class Gate:
    """A call that holds the one thread until the test opens the gate."""

    def __init__(self) -> None:
        self.entered = threading.Event()
        self.open = threading.Event()

    def __call__(self) -> str:
        self.entered.set()
        assert self.open.wait(WAIT)
        return "gate"


async def _held(threads: DatabaseThreads) -> tuple[Gate, db_threads.Call]:
    """The thread busy with a gate's call (the test opens it)."""
    gate = Gate()
    held = threads.submit(gate, lane=Lane.READ, owner="holder")
    assert await asyncio.to_thread(gate.entered.wait, WAIT)
    return gate, held


async def test_a_move_is_taken_before_every_read_queued_ahead_of_it():
    threads = DatabaseThreads(1)
    gate, held = await _held(threads)
    order: list[str] = []
    reads = [
        threads.submit(order.append, f"flood {n}", lane=Lane.READ, owner="flooder").future
        for n in range(50)
    ]
    seat = threads.submit(order.append, "seat", lane=Lane.SEAT, owner="b").future
    move = threads.submit(order.append, "move", lane=Lane.PLAY, owner="c").future
    gate.open.set()
    await asyncio.gather(held.future, *reads, seat, move)
    assert order[:2] == ["move", "seat"]
    assert order[2:] == [f"flood {n}" for n in range(50)]
    threads.shutdown()


async def test_users_take_turns_within_a_lane():
    threads = DatabaseThreads(1)
    gate, held = await _held(threads)
    order: list[str] = []
    calls = [
        threads.submit(order.append, f"a{n}", lane=Lane.READ, owner="a").future for n in range(4)
    ]
    calls += [threads.submit(order.append, "b0", lane=Lane.READ, owner="b").future]
    calls += [
        threads.submit(order.append, f"c{n}", lane=Lane.READ, owner="c").future for n in range(2)
    ]
    gate.open.set()
    await asyncio.gather(held.future, *calls)
    # The flooder's four reads do not keep b and c waiting: one call each in turn.
    assert order == ["a0", "b0", "c0", "a1", "c1", "a2", "a3"]
    threads.shutdown()


async def test_a_call_withdrawn_while_queued_never_runs_and_a_running_one_ends():
    threads = DatabaseThreads(1)
    gate, held = await _held(threads)
    ran: list[str] = []
    queued = threads.submit(ran.append, "queued", lane=Lane.READ, owner="a")
    assert threads.withdraw(queued)
    assert queued.future.cancelled()
    # The gate's call is running: it cannot be withdrawn, its result still comes.
    assert not threads.withdraw(held)
    gate.open.set()
    assert await held.future == "gate"
    assert await threads.run(ran.append, "next", lane=Lane.READ, owner="a") is None
    assert ran == ["next"]
    threads.shutdown()


async def test_a_caller_cancelled_while_its_call_waits_drops_the_call():
    threads = DatabaseThreads(1)
    gate, held = await _held(threads)
    ran: list[str] = []
    waiting = asyncio.ensure_future(threads.run(ran.append, "late", lane=Lane.READ, owner="a"))
    await asyncio.sleep(0)  # the task runs up to its wait: its call is queued
    assert threads.waiting(Lane.READ) == 1
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    gate.open.set()
    await held.future
    assert await threads.run(ran.append, "next", lane=Lane.READ, owner="a") is None
    assert ran == ["next"]
    threads.shutdown()


async def test_a_calls_exception_reaches_its_caller():
    threads = DatabaseThreads(2)

    def fails():
        raise LookupError("no such row")

    with pytest.raises(LookupError, match="no such row"):
        await threads.run(fails, lane=Lane.PLAY, owner=1)
    assert await threads.run(lambda: 7, lane=Lane.PLAY, owner=1) == 7
    threads.shutdown()


async def test_a_heartbeat_is_taken_before_the_moves_and_sockets_queued_ahead_of_it():
    # Behind a surge (the other process killed: its moves and reconnecting sockets all
    # here) a beat that waited WEB_PROCESS_STALE_SECONDS got a live process taken for
    # dead by the sweep.
    threads = DatabaseThreads(1)
    gate, held = await _held(threads)
    order: list[str] = []
    queued = [
        threads.submit(order.append, f"move {n}", lane=Lane.PLAY, owner=f"p{n}").future
        for n in range(20)
    ]
    queued += [
        threads.submit(order.append, f"socket {n}", lane=Lane.SEAT, owner=f"s{n}").future
        for n in range(20)
    ]
    beat = threads.submit(order.append, "beat", lane=Lane.BEAT, owner="heartbeat").future
    gate.open.set()
    await asyncio.gather(held.future, *queued, beat)
    assert order[0] == "beat"
    threads.shutdown()


async def test_a_surge_of_sockets_opening_gets_more_threads_and_they_leave_once_it_is_served(
    monkeypatch,
):
    # After a web process's death the other's threads mostly wait on PostgreSQL for
    # the sockets reopening there: more of them bring the pages back sooner. Moves
    # alone never start one (in steady play more threads only contend for the GIL).
    monkeypatch.setattr(db_threads, "SURGE_IDLE", 0.05)
    threads = DatabaseThreads(1, surge=2)
    gate, held = await _held(threads)
    moves = [
        threads.submit(lambda: None, lane=Lane.PLAY, owner=f"p{n}").future
        for n in range(db_threads.SURGE_QUEUE + 5)
    ]
    assert threads.surging() == 0
    names: list[str] = []
    go = threading.Event()

    def opening() -> None:
        names.append(threading.current_thread().name)
        assert go.wait(WAIT)  # the surge threads stay busy until every call is queued

    openings = [
        threads.submit(opening, lane=Lane.SEAT, owner=f"s{n}").future
        for n in range(db_threads.SURGE_QUEUE + 5)
    ]
    assert threads.surging() == 2  # never more than `surge`
    go.set()
    await asyncio.wait_for(asyncio.gather(*openings, *moves), WAIT)
    assert names.count("web-db-surge") == len(openings)  # the base thread is still held
    for surge_thread in threads._surge_threads:  # each leaves once idle SURGE_IDLE
        await asyncio.to_thread(surge_thread.join, WAIT)
    assert threads.surging() == 0
    gate.open.set()
    await held.future
    threads.shutdown()

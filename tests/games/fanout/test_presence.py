"""Open sockets per user and per address, counted across processes in Redis
(games/fanout/presence.py), and the close codes of the sockets refused."""

from __future__ import annotations

import asyncio
import json
import threading

import pytest
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.fanout import presence
from games.sockets.guard import (
    CLOSE_TOO_MANY_SOCKETS_ADDRESS,
    CLOSE_TOO_MANY_SOCKETS_USER,
    socket_address,
)
from games.sockets.routing import websocket_urlpatterns

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

TIMEOUT = 10


def opened(user, path, client="198.51.100.7", forwarded=None) -> WebsocketCommunicator:
    headers = [(b"x-forwarded-for", forwarded.encode())] if forwarded else []
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), path, headers=headers)
    comm.scope["user"] = user
    comm.scope["client"] = (client, 40000)
    return comm


async def connect(comm) -> int | None:
    """None when the socket stays open; else the code it was closed with at once."""
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected  # a refused socket is accepted, then closed: the browser sees the code
    # An open socket answers anything (a table's state comes first, a lobby answers
    # an error); a refused one is closed and reads nothing.
    await comm.send_to(text_data=json.dumps({"type": "ping"}))
    output = await comm.receive_output(timeout=TIMEOUT)
    if output["type"] == "websocket.close":
        return output["code"]
    return None


@pytest.fixture(autouse=True)
def _small_limits(settings):
    settings.SOCKETS_PER_USER = 3
    settings.SOCKETS_PER_ADDRESS = 5


async def test_a_users_socket_over_the_limit_is_closed_with_4430(started_room, player):
    paths = [f"/ws/tables/{started_room.pk}/", "/ws/lobby/", f"/ws/tables/{started_room.pk}/"]
    open_ = [opened(player, path) for path in paths]
    for comm in open_:
        assert await connect(comm) is None
    assert await presence.counted(user_id=player.pk, address="198.51.100.7") == (3, 3)
    for path in paths[:2]:  # table and lobby sockets count alike
        assert await connect(opened(player, path)) == CLOSE_TOO_MANY_SOCKETS_USER
    # One closes: a place is free again.
    await open_[0].disconnect()
    again = opened(player, paths[0])
    assert await connect(again) is None
    for comm in [*open_[1:], again]:
        await comm.disconnect()
    assert await presence.counted(user_id=player.pk, address="198.51.100.7") == (0, 0)


async def test_an_addresss_socket_over_the_limit_is_closed_with_4431(
    started_room, player, partner, opponent, spectator
):
    sockets = []
    for user in (player, partner):
        for _ in range(2):
            sockets.append(opened(user, "/ws/lobby/"))
            assert await connect(sockets[-1]) is None
    sockets.append(opened(opponent, "/ws/lobby/"))
    assert await connect(sockets[-1]) is None  # the address's fifth
    assert await connect(opened(spectator, "/ws/lobby/")) == CLOSE_TOO_MANY_SOCKETS_ADDRESS
    # Another address is another count.
    other = opened(spectator, "/ws/lobby/", client="198.51.100.8")
    assert await connect(other) is None
    for comm in [*sockets, other]:
        await comm.disconnect()


async def test_behind_the_proxies_the_address_is_the_one_they_vouch_for(settings, player, partner):
    """With one trusted proxy, the address it appended counts: a client writing its
    own X-Forwarded-For entries (to the left) changes nothing."""
    settings.TRUSTED_PROXY_COUNT = 1
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    settings.SOCKETS_PER_USER = 10
    sockets = []
    for n in range(5):
        # Every one through the same proxy (peer 10.0.0.2), from the same client.
        forged = f"203.0.113.{n}, 192.0.2.50"
        sockets.append(opened(player, "/ws/lobby/", client="10.0.0.2", forwarded=forged))
        assert await connect(sockets[-1]) is None
    refused = opened(partner, "/ws/lobby/", client="10.0.0.2", forwarded="1.2.3.4, 192.0.2.50")
    assert await connect(refused) == CLOSE_TOO_MANY_SOCKETS_ADDRESS
    # The proxy's own address is not the client's: another client behind it is free.
    other = opened(partner, "/ws/lobby/", client="10.0.0.2", forwarded="192.0.2.51")
    assert await connect(other) is None
    for comm in [*sockets, other]:
        await comm.disconnect()


@pytest.mark.parametrize(
    ("proxies", "client", "forwarded", "expected"),
    [
        (0, ("198.51.100.7", 1), "203.0.113.5", "198.51.100.7"),  # no proxy: the header is ignored
        (1, ("10.0.0.2", 1), "203.0.113.5", "203.0.113.5"),
        (1, ("10.0.0.2", 1), "6.6.6.6, 203.0.113.5", "203.0.113.5"),
        (2, ("10.0.0.2", 1), "203.0.113.5, 10.0.0.1", "203.0.113.5"),
        (2, ("10.0.0.2", 1), "203.0.113.5", "10.0.0.2"),  # shorter than the proxies: not theirs
        (1, ("10.0.0.2", 1), "not an address", "10.0.0.2"),
        (1, ("10.0.0.2", 1), None, "10.0.0.2"),
        (1, ("2001:db8::1", 1), "2001:db8::7", "2001:db8::7"),
        (1, ("2001:db8::1", 1), "[2001:db8::7]:443", "2001:db8::7"),
        (0, None, None, None),  # nothing known (a test's socket): not counted by address
    ],
)
def test_a_sockets_address_is_the_one_the_per_address_limits_use(
    settings, proxies, client, forwarded, expected
):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = proxies
    scope = {"headers": [(b"x-forwarded-for", forwarded.encode())] if forwarded else []}
    if client is not None:
        scope["client"] = client
    assert socket_address(scope) == expected


async def test_the_count_is_shared_by_every_process(started_room, player):
    """A socket held by another process (another event loop, its own Redis client)
    counts against the user here."""
    held, release = threading.Event(), threading.Event()

    async def other_process():
        comm = opened(player, "/ws/lobby/")
        assert await connect(comm) is None
        held.set()
        await asyncio.to_thread(release.wait, TIMEOUT)
        await comm.disconnect()

    thread = threading.Thread(target=lambda: asyncio.run(other_process()))
    thread.start()
    assert await asyncio.to_thread(held.wait, TIMEOUT)
    here = [opened(player, "/ws/lobby/") for _ in range(2)]
    for comm in here:
        assert await connect(comm) is None
    assert await connect(opened(player, "/ws/lobby/")) == CLOSE_TOO_MANY_SOCKETS_USER
    release.set()
    await asyncio.to_thread(thread.join, TIMEOUT)
    assert await presence.counted(user_id=player.pk) == (2, 0)
    for comm in here:
        await comm.disconnect()


async def test_the_sockets_of_a_process_that_died_stop_counting(player):
    """A dead process never released its sockets: their members lapse, and the
    user's new socket is admitted."""
    client = presence._redis()
    key = f"{presence.PREFIX}user:{player.pk}"
    await client.zadd(key, {f"dead-process-socket-{n}": 1.0 for n in range(3)})  # lapsed long ago
    assert await presence.admit(socket="fresh", user_id=player.pk, address=None) is None
    assert await client.zrange(key, 0, -1) == [b"fresh"]
    await presence.release(socket="fresh")


async def test_a_burst_of_sockets_opening_at_once_waits_for_a_connection(settings, monkeypatch):
    """A web process's tables reconnecting to this one at once (the chaos bench's
    rolling restart): more admissions at once than the Redis pool holds wait for a
    connection instead of failing (MaxConnectionsError refused sockets)."""
    settings.SOCKETS_PER_USER = 1000
    monkeypatch.setattr(presence, "REDIS_CONNECTIONS", 4)
    monkeypatch.setattr(presence, "_clients", {})
    sockets = [f"burst-{n}" for n in range(40)]
    refused = await asyncio.gather(
        *(presence.admit(socket=s, user_id=10**9 + n, address=None) for n, s in enumerate(sockets))
    )
    assert refused == [None] * len(sockets)
    for socket_name in sockets:
        await presence.release(socket=socket_name)


async def test_the_heartbeat_keeps_open_sockets_counted(player, settings):
    client = presence._redis()
    key = f"{presence.PREFIX}user:{player.pk}"
    assert await presence.admit(socket="kept", user_id=player.pk, address="192.0.2.9") is None
    before = await client.zscore(key, "kept")
    await client.zadd(key, {"kept": before - 60})  # as if a minute had passed
    assert await presence.refresh_now() >= 1
    assert await client.zscore(key, "kept") >= before
    address_key = f"{presence.PREFIX}address:192.0.2.9"
    assert await client.zscore(address_key, "kept") >= before
    await presence.release(socket="kept")
    assert await presence.counted(user_id=player.pk, address="192.0.2.9") == (0, 0)


async def test_without_redis_the_process_counts_its_own(player, settings):
    settings.REDIS_URL = None
    for n in range(3):
        assert await presence.admit(socket=f"s{n}", user_id=player.pk, address="a") is None
    assert await presence.admit(socket="s3", user_id=player.pk, address="a") == "user"
    assert await presence.admit(socket="t1", user_id=player.pk + 1, address="a") is None
    assert await presence.admit(socket="t2", user_id=player.pk + 2, address="a") is None
    assert await presence.admit(socket="u", user_id=player.pk + 3, address="a") == "address"
    assert await presence.counted(user_id=player.pk, address="a") == (3, 5)
    for socket in ("s0", "s1", "s2", "t1"):
        await presence.release(socket=socket)
    assert await presence.counted(user_id=player.pk, address="a") == (0, 1)
    await presence.release(socket="t2")


async def test_a_refused_socket_reads_nothing_it_is_sent(started_room, player):
    open_ = [opened(player, "/ws/lobby/") for _ in range(3)]
    for comm in open_:
        assert await connect(comm) is None
    refused = opened(player, f"/ws/tables/{started_room.pk}/")
    assert await connect(refused) == CLOSE_TOO_MANY_SOCKETS_USER
    await refused.send_to(text_data=json.dumps({"type": "sync"}))
    assert await refused.receive_nothing(timeout=0.2)
    for comm in open_:
        await comm.disconnect()


# --- watching sockets (docs/watching.md) ---------------------------------------------------


async def test_watchers_are_counted_per_table_and_per_user_and_released(player, settings):
    settings.WATCHERS_PER_TABLE = 2
    settings.WATCH_SOCKETS_PER_USER = 2
    table = 900_000 + player.pk  # a table id no other test watches
    other = player.pk + 1
    assert await presence.watch_admit(socket="w1", user_id=player.pk, table_id=table) is None
    assert await presence.watch_admit(socket="w2", user_id=other, table_id=table) is None
    assert (
        await presence.watch_admit(socket="w3", user_id=other + 1, table_id=table) == presence.TABLE
    )
    assert await presence.watch_admit(socket="w4", user_id=player.pk, table_id=table + 1) is None
    assert (
        await presence.watch_admit(socket="w5", user_id=player.pk, table_id=None) == presence.USER
    )
    assert await presence.watchers_counted(table) == 2
    assert await presence.watching_counted(player.pk) == 2
    assert await asyncio.to_thread(presence.watchers_of, [table, table + 1, table + 2]) == {
        table: 2,
        table + 1: 1,
        table + 2: 0,
    }
    for socket in ("w1", "w2", "w4", "never-admitted"):
        await presence.watch_release(socket=socket)
    assert await presence.watchers_counted(table) == 0
    assert await presence.watching_counted(player.pk) == 0


async def test_a_staff_socket_counts_for_its_user_but_not_among_the_tables_watchers(player):
    assert await presence.watch_admit(socket="staff", user_id=player.pk, table_id=None) is None
    assert await presence.watching_counted(player.pk) == 1
    assert await asyncio.to_thread(presence.watchers_of, []) == {}
    await presence.watch_release(socket="staff")
    assert await presence.watching_counted(player.pk) == 0


async def test_the_heartbeat_keeps_watchers_counted_and_a_dead_processs_lapse(player):
    client = presence._redis()
    table = 910_000 + player.pk
    key = presence.table_watch_key(table)
    await client.zadd(key, {f"dead-{n}": 1.0 for n in range(3)})  # lapsed long ago
    assert await presence.watch_admit(socket="kept", user_id=player.pk, table_id=table) is None
    assert await client.zrange(key, 0, -1) == [b"kept"]
    before = await client.zscore(key, "kept")
    await client.zadd(key, {"kept": before - 60})  # as if a minute had passed
    assert await presence.refresh_now() >= 1
    assert await client.zscore(key, "kept") >= before
    await presence.watch_release(socket="kept")


async def test_two_processes_admitting_the_last_watcher_place_admit_one(player, settings):
    settings.WATCHERS_PER_TABLE = 1
    table = 920_000 + player.pk
    results = await asyncio.gather(
        *(
            presence.watch_admit(socket=f"race-{n}", user_id=player.pk + n, table_id=table)
            for n in range(5)
        )
    )
    assert sorted(results, key=str) == [None, *[presence.TABLE] * 4]
    for n in range(5):
        await presence.watch_release(socket=f"race-{n}")


async def test_a_tables_watchers_from_one_address_are_limited_and_released(player, settings):
    settings.WATCHERS_PER_ADDRESS_PER_TABLE = 2
    table = 930_000 + player.pk
    here, there = "198.51.100.30", "198.51.100.31"

    def admit(socket, n, address, table_id=table):
        return presence.watch_admit(
            socket=socket, user_id=player.pk + n, table_id=table_id, address=address
        )

    assert await admit("a1", 0, here) is None
    assert await admit("a2", 1, here) is None
    assert await admit("a3", 2, here) == presence.ADDRESS
    assert await admit("a4", 2, there) is None
    assert await admit("a5", 3, here, table + 1) is None  # another table: its own share
    assert await presence.watchers_counted(table) == 3
    await presence.watch_release(socket="a1")
    assert await admit("a6", 2, here) is None  # a place of the address freed
    for socket in ("a2", "a4", "a5", "a6"):
        await presence.watch_release(socket=socket)
    assert await presence.watchers_counted(table) == 0


async def test_without_redis_the_process_counts_its_own_watchers(player, settings):
    settings.REDIS_URL = None
    settings.WATCHERS_PER_TABLE = 1
    settings.WATCH_SOCKETS_PER_USER = 1
    assert await presence.watch_admit(socket="a", user_id=player.pk, table_id=7) is None
    assert (
        await presence.watch_admit(socket="b", user_id=player.pk + 1, table_id=7) == presence.TABLE
    )
    assert await presence.watch_admit(socket="c", user_id=player.pk, table_id=8) == presence.USER
    assert presence.watchers_of([7, 8]) == {7: 1, 8: 0}
    await presence.watch_release(socket="a")
    assert presence.watchers_of([7]) == {7: 0}
    assert await presence.watching_counted(player.pk) == 0
    settings.WATCHERS_PER_TABLE = 10
    settings.WATCHERS_PER_ADDRESS_PER_TABLE = 1
    address = "198.51.100.40"
    assert await presence.watch_admit(socket="d", user_id=1, table_id=9, address=address) is None
    refused = await presence.watch_admit(socket="e", user_id=2, table_id=9, address=address)
    assert refused == presence.ADDRESS
    await presence.watch_release(socket="d")
    assert await presence.watch_admit(socket="e", user_id=2, table_id=9, address=address) is None
    await presence.watch_release(socket="e")
    assert presence.watchers_of([9]) == {9: 0}

"""Who holds websockets open, across every web process: the site's registry of who
is online (the friends list, the staff's live view), of who watches which table
(the tables in play, a table's watcher count), and the counts the socket limits
check when a socket opens (games/sockets/guard.py). Not to be confused with a seat's
presence at its table (games/services/presence.py: the sockets on a seat, absence,
abandonment).

A socket over SOCKETS_PER_USER (8) of its user's, or over SOCKETS_PER_ADDRESS (50)
from its client address, is refused: accepted, then closed with 4430 (user) or 4431
(address) before any database work (docs/protocol.md). The address is the one the
site's per-address limits use (`guard.socket_address`: the peer, or the
address TRUSTED_PROXY_COUNT proxies vouch for in X-Forwarded-For).

With REDIS_URL set, every web process counts in Redis: one sorted set per user and
one per address, a member per open socket (its channel name) scored by when it
lapses. Admitting is one Lua script, so two processes admitting at once cannot both
take the last place: lapsed members are dropped, both counts checked, the socket
added to both. Each process refreshes its sockets' members every
PRESENCE_HEARTBEAT_SECONDS, and a member lapses PRESENCE_STALE_SECONDS after its last
refresh: the sockets of a process that died stop counting without anyone counting
them down. Without Redis (the embedded default: one process) the counts are this
process's own.

Watching sockets (docs/watching.md) are counted the same way, in sets of their own:
one per table (WATCHERS_PER_TABLE, close 4434), one per user
(WATCH_SOCKETS_PER_USER, close 4435) and one per table and address
(WATCHERS_PER_ADDRESS_PER_TABLE, close 4437: a few addresses holding many accounts
cannot fill a table's places), admitted by the same atomic script and
refreshed by the same heartbeat (`watch_admit`, `watch_release`). Staff count in
their user's set only, never among a table's watchers.

A Redis restart empties every set (nothing is kept on disk): each process's next
heartbeat adds its sockets' members back (the refresh is a ZADD), so the counts are
whole again within PRESENCE_HEARTBEAT_SECONDS, and the limits count a little low
meanwhile. Every call meeting the dropped connection is tried once more after a
short pause (`ops.cache.redis_retry_async`); the pages' reads fall back to nothing
counted if Redis stays away (docs/operations.md, "Mechanisms").
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
import weakref
from collections import Counter
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from ops.cache import redis_retry, redis_retry_async

logger = logging.getLogger(__name__)

USER = "user"
ADDRESS = "address"
TABLE = "table"
PREFIX = "cuatrola:sockets:"
WATCH_PREFIX = "cuatrola:watching:"

# KEYS: the user's set, then the address's (if known); ARGV: the socket, seconds to
# lapse, then each set's limit. Returns 0, or the number of the set that refuses.
_ADMIT = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local lapse = tonumber(ARGV[2])
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  local limit = tonumber(ARGV[2 + i])
  if not redis.call('ZSCORE', key, ARGV[1]) and redis.call('ZCARD', key) >= limit then
    return i
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + lapse, ARGV[1])
  redis.call('EXPIRE', key, math.ceil(lapse) + 1)
end
return 0
"""

# KEYS: sets; ARGV: seconds to lapse, then the socket to refresh in each set.
_REFRESH = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local lapse = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  redis.call('ZADD', key, now + lapse, ARGV[1 + i])
  redis.call('EXPIRE', key, math.ceil(lapse) + 1)
end
return #KEYS
"""


@dataclass(frozen=True)
class Holder:
    """Who holds an open socket: the keys it counts in."""

    user_id: int
    address: str | None

    @property
    def keys(self) -> list[str]:
        """The user's set, then the address's (none without an address: a test's socket)."""
        keys = [f"{PREFIX}user:{self.user_id}"]
        if self.address:
            keys.append(f"{PREFIX}address:{self.address}")
        return keys


@dataclass(frozen=True)
class Watcher:
    """Who holds a watching socket, from which address, and which table it watches
    (None: staff, not counted among the table's watchers)."""

    user_id: int
    table_id: int | None
    address: str | None = None

    @property
    def limited(self) -> list[tuple[str, str, int]]:
        """(set, limit's name, limit) in the order they are checked: the user's
        watching set, the table's watchers from this address, the table's (the
        last two none for staff; the address's none without an address)."""
        found = [(user_watch_key(self.user_id), USER, settings.WATCH_SOCKETS_PER_USER)]
        if self.table_id is not None:
            if self.address:
                found.append(
                    (
                        table_address_watch_key(self.table_id, self.address),
                        ADDRESS,
                        settings.WATCHERS_PER_ADDRESS_PER_TABLE,
                    )
                )
            found.append((table_watch_key(self.table_id), TABLE, settings.WATCHERS_PER_TABLE))
        return found

    @property
    def keys(self) -> list[str]:
        return [key for key, _name, _limit in self.limited]


def user_watch_key(user_id: int) -> str:
    return f"{WATCH_PREFIX}user:{user_id}"


def table_watch_key(table_id: int) -> str:
    return f"{WATCH_PREFIX}table:{table_id}"


def table_address_watch_key(table_id: int, address: str) -> str:
    return f"{WATCH_PREFIX}table:{table_id}:address:{address}"


# This process's sockets counted in (socket -> its holder), refreshed by the heartbeat.
_mine: dict[str, Holder] = {}
# This process's watching sockets counted in (socket -> its watcher), refreshed too.
_watching: dict[str, Watcher] = {}
_refresher: asyncio.Task[None] | None = None
_clients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = weakref.WeakKeyDictionary()
# Without Redis: the open sockets by user and by address; the watching ones by user
# and by table.
_users: Counter[int] = Counter()
_addresses: Counter[str] = Counter()
_watch_users: Counter[int] = Counter()
_watch_tables: Counter[int] = Counter()
_watch_table_addresses: Counter[tuple[int, str]] = Counter()


# A burst of sockets opening at once (a web process's tables reconnecting to this one
# after it died or restarted) waits for one of these connections instead of failing:
# redis-py's default pool raises MaxConnectionsError past 100 at once, and the chaos
# bench's rolling restart of 200 tables met it (sockets refused, turns run out).
REDIS_CONNECTIONS = 100
REDIS_WAIT_SECONDS = 5.0


def _redis() -> Any:
    """A Redis client for the running loop (redis-py's asyncio clients are per loop),
    whose calls past REDIS_CONNECTIONS at once wait for a free connection."""
    loop = asyncio.get_running_loop()
    client = _clients.get(loop)
    if client is None:
        import redis.asyncio

        pool = redis.asyncio.BlockingConnectionPool.from_url(
            str(settings.REDIS_URL),
            max_connections=REDIS_CONNECTIONS,
            timeout=REDIS_WAIT_SECONDS,
        )
        client = redis.asyncio.Redis(connection_pool=pool)
        _clients[loop] = client
    return client


def _lapse() -> float:
    return float(settings.PRESENCE_STALE_SECONDS)


async def admit(*, socket: str, user_id: int, address: str | None) -> str | None:
    """Counts `socket` in: None, or the limit that refuses it (`USER` or `ADDRESS`;
    it is not counted then). Pair an admitted socket with `release`."""
    holder = Holder(user_id, address)
    per_address = settings.SOCKETS_PER_ADDRESS
    if settings.REDIS_URL:
        # Recorded before the script runs: a connect cancelled while it runs still
        # releases a member the script may have added.
        _mine[socket] = holder
        keys = holder.keys
        limits = [settings.SOCKETS_PER_USER, per_address][: len(keys)]
        refused = await redis_retry_async(
            lambda: _redis().eval(_ADMIT, len(keys), *keys, socket, _lapse(), *limits),
            what="admitting a socket",
        )
        if refused:
            _mine.pop(socket, None)
            return USER if int(refused) == 1 else ADDRESS
        _start_refresher()
        return None
    if _users[user_id] >= settings.SOCKETS_PER_USER:
        return USER
    if address and _addresses[address] >= per_address:
        return ADDRESS
    _mine[socket] = holder
    _users[user_id] += 1
    if address:
        _addresses[address] += 1
    return None


async def release(*, socket: str) -> None:
    """`socket` closed: it no longer counts (nothing happens for one not counted)."""
    holder = _mine.pop(socket, None)
    if holder is None:
        return
    if not _mine and not _watching and _refresher is not None:
        _stop_refresher()
    if settings.REDIS_URL:
        await redis_retry_async(lambda: _forget(holder.keys, socket), what="releasing a socket")
        return
    _users[holder.user_id] -= 1
    if _users[holder.user_id] <= 0:
        del _users[holder.user_id]
    if holder.address:
        _addresses[holder.address] -= 1
        if _addresses[holder.address] <= 0:
            del _addresses[holder.address]


async def counted(*, user_id: int, address: str | None = None) -> tuple[int, int]:
    """(sockets counted for the user, for the address), across every process."""
    holder = Holder(user_id, address)
    if settings.REDIS_URL:

        async def count() -> list[int]:
            async with _redis().pipeline(transaction=False) as pipe:
                for key in holder.keys:
                    pipe.zcard(key)
                return [int(n) for n in await pipe.execute()]

        counts = await redis_retry_async(count, what="counting sockets")
        return counts[0], counts[1] if address else 0
    return _users[user_id], _addresses[address] if address else 0


async def watch_admit(
    *, socket: str, user_id: int, table_id: int | None, address: str | None = None
) -> str | None:
    """Counts `socket` as watching table `table_id` (None: a staff socket, counted in
    its user's watching set only) from `address`: None, or the limit that refuses
    it (`USER`: WATCH_SOCKETS_PER_USER; `ADDRESS`: WATCHERS_PER_ADDRESS_PER_TABLE, so
    that a few addresses cannot fill a table's places; `TABLE`: WATCHERS_PER_TABLE;
    it is not counted then). Pair an admitted socket with `watch_release`."""
    watcher = Watcher(user_id, table_id, address)
    limited = watcher.limited
    if settings.REDIS_URL:
        _watching[socket] = watcher  # before the script: a cancelled admit releases it
        keys = [key for key, _name, _limit in limited]
        limits = [limit for _key, _name, limit in limited]
        refused = await redis_retry_async(
            lambda: _redis().eval(_ADMIT, len(keys), *keys, socket, _lapse(), *limits),
            what="admitting a socket",
        )
        if refused:
            _watching.pop(socket, None)
            return limited[int(refused) - 1][1]
        _start_refresher()
        return None
    counts: dict[str, Counter[Any]] = {
        USER: _watch_users,
        ADDRESS: _watch_table_addresses,
        TABLE: _watch_tables,
    }
    members = {USER: user_id, ADDRESS: (table_id, address), TABLE: table_id}
    for _key, name, limit in limited:
        if counts[name][members[name]] >= limit:
            return name
    _watching[socket] = watcher
    for _key, name, _limit in limited:
        counts[name][members[name]] += 1
    return None


async def watch_release(*, socket: str) -> None:
    """`socket` no longer watches (closed, or seated): it stops counting (nothing
    happens for one not counted)."""
    watcher = _watching.pop(socket, None)
    if watcher is None:
        return
    if settings.REDIS_URL:
        await redis_retry_async(lambda: _forget(watcher.keys, socket), what="releasing a watcher")
        return
    _count_down(_watch_users, watcher.user_id)
    if watcher.table_id is not None:
        _count_down(_watch_tables, watcher.table_id)
        if watcher.address:
            _count_down(_watch_table_addresses, (watcher.table_id, watcher.address))


async def _forget(keys: list[str], socket: str) -> None:
    async with _redis().pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.zrem(key, socket)
        await pipe.execute()


def _count_down(counter: Counter[Any], member: Any) -> None:
    counter[member] -= 1
    if counter[member] <= 0:
        del counter[member]


async def watchers_counted(table_id: int) -> int:
    """How many sockets watch the table now (staff not counted), across every process."""
    if not settings.REDIS_URL:
        return _watch_tables[table_id]
    return int(
        await redis_retry_async(
            lambda: _redis().zcount(table_watch_key(table_id), f"({time.time()}", "+inf"),
            what="counting watchers",
        )
    )


async def watching_counted(user_id: int) -> int:
    """How many watching sockets the user holds now, across every process."""
    if not settings.REDIS_URL:
        return _watch_users[user_id]
    return int(
        await redis_retry_async(
            lambda: _redis().zcount(user_watch_key(user_id), f"({time.time()}", "+inf"),
            what="counting watching sockets",
        )
    )


def watchers_of(table_ids: list[int]) -> dict[int, int]:
    """How many sockets watch each of these tables (staff not counted), across every
    process; synchronous, for pages (the tables in play): one pipeline. Without Redis,
    this process's own count."""
    if not table_ids:
        return {}
    if not settings.REDIS_URL:
        return {table_id: _watch_tables[table_id] for table_id in table_ids}
    now = time.time()
    keys = [table_watch_key(table_id) for table_id in table_ids]
    counts = redis_retry(
        lambda: _count_now(keys, now), what="counting watchers", default=[0] * len(keys)
    )
    return {table_id: int(count) for table_id, count in zip(table_ids, counts, strict=True)}


def online_among(user_ids: list[int]) -> set[int]:
    """Which of these users hold at least one open socket (a page of the site open),
    across every process; synchronous, for pages (the friends list). Without Redis,
    this process's own count."""
    if not user_ids:
        return set()
    if not settings.REDIS_URL:
        return {user_id for user_id in user_ids if _users[user_id] > 0}
    now = time.time()
    keys = [Holder(user_id, None).keys[0] for user_id in user_ids]
    counts = redis_retry(
        lambda: _count_now(keys, now), what="counting who is online", default=[0] * len(keys)
    )
    return {user_id for user_id, count in zip(user_ids, counts, strict=True) if int(count) > 0}


def _count_now(keys: list[str], now: float) -> list[int]:
    """The members of each set not lapsed at `now` (one pipeline, a client of its own)."""
    import redis

    client = redis.Redis.from_url(str(settings.REDIS_URL))
    try:
        with client.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zcount(key, f"({now}", "+inf")
            return [int(count) for count in pipe.execute()]
    finally:
        client.close()


def _start_refresher() -> None:
    global _refresher
    loop = asyncio.get_running_loop()
    if _refresher is None or _refresher.done() or _refresher.get_loop() is not loop:
        _refresher = loop.create_task(_refresh(), name="socket-limits-refresh")


def _stop_refresher() -> None:
    global _refresher
    if _refresher is not None:
        _refresher.cancel()
        _refresher = None


async def refresh_now() -> int:
    """Refreshes every socket this process counts (the heartbeat's work); returns
    how many."""
    sockets: list[tuple[str, Holder | Watcher]] = [*_mine.items(), *_watching.items()]
    if not sockets or not settings.REDIS_URL:
        return 0
    pairs = [(key, socket) for socket, holder in sockets for key in holder.keys]
    for start in range(0, len(pairs), 500):  # a few hundred keys a script
        chunk = pairs[start : start + 500]
        keys = [key for key, _ in chunk]
        members = [member for _, member in chunk]
        await redis_retry_async(
            functools.partial(_redis_refresh, keys, members), what="refreshing the sockets' counts"
        )
    return len(sockets)


async def _redis_refresh(keys: list[str], members: list[str]) -> Any:
    return await _redis().eval(_REFRESH, len(keys), *keys, _lapse(), *members)


async def _refresh() -> None:
    while True:
        await asyncio.sleep(settings.PRESENCE_HEARTBEAT_SECONDS)
        try:
            await refresh_now()
        except Exception:  # a missed refresh is repaired by the next, long before a lapse
            logger.exception("refreshing the open sockets' count failed")


def users_online() -> int:
    """How many users hold an open socket now, across every web process (a user's set
    lapses PRESENCE_STALE_SECONDS after its last socket's refresh); without Redis,
    this process's. For the staff's live view: one SCAN of the users' sets."""
    if not settings.REDIS_URL:
        return sum(1 for count in _users.values() if count > 0)
    import redis

    def scan() -> int:
        client = redis.Redis.from_url(str(settings.REDIS_URL))
        try:
            return sum(1 for _ in client.scan_iter(match=f"{PREFIX}user:*", count=1000))
        finally:
            client.close()

    return redis_retry(scan, what="counting users online", default=0)

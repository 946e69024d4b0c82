"""The site's cache backends, counting hits and misses (metrics.CACHE_GETS), and the
retry of a Redis call across a Redis restart (`redis_retry`, `redis_retry_async`).

Redis keeps nothing on disk here (a restart empties it) and every process reconnects
by itself; what a restart costs is the call under way when the connection dropped,
and the first call on each pooled connection, which finds it closed. Those calls are
tried once more after REDIS_RETRY_PAUSE_SECONDS (the new connection opened then);
a second failure is logged and the caller's fallback used, so a move, a socket or a
service's on_commit never fails because Redis restarted (docs/operations.md,
"Mechanisms").
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

import redis.exceptions
from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

from ops import metrics

logger = logging.getLogger(__name__)

_MISSING = object()

#: What a Redis that is restarting or unreachable raises (redis-py's own, and the
#: socket's when it fails below redis-py).
REDIS_DOWN: tuple[type[BaseException], ...] = (
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    ConnectionError,
    TimeoutError,
)
#: The pause before the one retry: long enough for a pooled connection to be
#: replaced, short enough for a move's frames.
REDIS_RETRY_PAUSE_SECONDS = 0.2


def redis_retry[T](call: Callable[[], T], *, what: str, default: T) -> T:
    """`call()` (sync), tried once more after a short pause if Redis was down; if it
    fails again, logged and `default` returned instead of the exception."""
    try:
        return call()
    except REDIS_DOWN as error:
        logger.info("redis: %s failed (%r), trying again", what, error)
    time.sleep(REDIS_RETRY_PAUSE_SECONDS)
    try:
        return call()
    except REDIS_DOWN as error:
        logger.warning("redis: %s failed twice (%r), going on without it", what, error)
        return default


async def redis_retry_async[T](call: Callable[[], Awaitable[T]], *, what: str) -> T:
    """`await call()`, tried once more after a short pause if Redis was down; the
    second failure is raised (the caller logs it or falls back)."""
    try:
        return await call()
    except REDIS_DOWN as error:
        logger.info("redis: %s failed (%r), trying again", what, error)
    await asyncio.sleep(REDIS_RETRY_PAUSE_SECONDS)
    return await call()


class _Counting:
    def get(self, key: Any, default: Any = None, version: Any = None) -> Any:
        value = super().get(key, _MISSING, version)  # type: ignore[misc]
        if value is _MISSING:
            metrics.CACHE_GETS.labels("miss").inc()
            return default
        metrics.CACHE_GETS.labels("hit").inc()
        return value


class CountingRedisCache(_Counting, RedisCache):
    pass


class CountingLocMemCache(_Counting, LocMemCache):
    pass

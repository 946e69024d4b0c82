"""The site's cache backends, counting hits and misses (metrics.CACHE_GETS)."""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.locmem import LocMemCache
from django.core.cache.backends.redis import RedisCache

from ops import metrics

_MISSING = object()


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

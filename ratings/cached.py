"""The ratings' reads kept in the cache: the number of ranked players, counted at
most once a minute (the leaderboard only shows it as "of N"). The one module of the
app that writes the cache: the selectors only read."""

from __future__ import annotations

from django.core.cache import cache

from ratings import selectors

#: How long the number of ranked players is kept in the cache.
RANKED_COUNT_SECONDS = 60


def ranked_count() -> int:
    """`selectors.ranked_count`, counted again once RANKED_COUNT_SECONDS are over."""
    key = "ratings:ranked-count"
    count = cache.get(key)
    if count is None:
        count = selectors.ranked_count()
        cache.set(key, count, RANKED_COUNT_SECONDS)
    return int(count)

"""The history's reads kept in the cache: the player page's figures, kept between
two matches of the player, and the wallet's closed months. The one module of the
app that writes the cache: the selectors only read (history/selectors/), and
`history.services` drops a player's figures (`stats_changed`) when a match of
theirs is recorded.
"""

from __future__ import annotations

import uuid
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone

from history import selectors
from history.selectors.dates import day_start
from ops.cache import redis_retry

# The player page's sums are kept in the cache per player, under a version that the
# recording of any match of theirs drops (history.services): a page read between two
# matches costs no query over their matches. A day at most, whatever happens.
STATS_CACHE_SECONDS = 24 * 3600

# A month's ledger is closed once the month is over: every entry is dated when it is
# posted (economy's ledger `record`), never back-dated. Sums of closed months are kept in
# the cache a month; for a few minutes after a month turns they are not cached, so a
# posting that was on its way when the month turned is never left out.
WALLET_CACHE_SECONDS = 32 * 24 * 3600
WALLET_CLOSE_GRACE = timedelta(minutes=5)


def stats_version_key(user_id: int) -> str:
    """The cache key of the version under which a player's sums are kept; deleting it
    (`stats_changed`) makes the next read count them again."""
    return f"history:stats-version:{user_id}"


def _stats_version(user_id: int) -> str:
    key = stats_version_key(user_id)
    version = cache.get(key)
    if version is None:
        cache.add(key, uuid.uuid4().hex, STATS_CACHE_SECONDS)
        version = cache.get(key)
    return version or "none"


def stats_changed(user_ids: list[int]) -> None:
    """The players' sums are out of date (a match of theirs was just recorded): the
    version they are kept under goes, so the next read counts them again."""
    # Run inside a match's settlement: a Redis restart costs a retry, never the move
    # (a Redis that stayed away comes back empty: nothing stale to drop).
    keys = [stats_version_key(user_id) for user_id in user_ids]
    redis_retry(lambda: cache.delete_many(keys), what="dropping players' sums", default=None)


def player_stats(user: Any, *, now: datetime | None = None) -> selectors.PlayerStats:
    """`selectors.player_stats`, its two queries made once between two matches of the
    player (none while the cache holds their sums)."""
    starts = selectors.month_starts(settings.PLAYER_PAGE_MONTHS, now=now)
    key = (
        f"history:stats:{user.pk}:{_stats_version(user.pk)}:{starts[0].isoformat()}:"
        f"{len(starts)}:{timezone.get_current_timezone_name()}"
    )
    sums = cache.get(key)
    if sums is None:
        sums = selectors.player_stats_sums(user, starts=starts)
        cache.set(key, sums, STATS_CACHE_SECONDS)
    return selectors.player_stats(user, now=now, sums=sums)


def wallet_by_month(user: Any, *, now: datetime | None = None) -> list[selectors.WalletMonth]:
    """`selectors.wallet_by_month`, the closed months' sums from the cache after the
    first reading of the month (read from the ledger in its first minutes)."""
    moment = now or timezone.now()
    current = selectors.month_starts(1, now=moment)[0]
    if moment - day_start(current) < WALLET_CLOSE_GRACE:
        return selectors.wallet_by_month(user, now=now)
    key = f"history:wallet:{user.pk}:{current.isoformat()}:{timezone.get_current_timezone_name()}"
    closed = cache.get(key)
    if closed is None:
        closed = selectors.closed_month_sums(user, current=current)
        cache.set(key, closed, WALLET_CACHE_SECONDS)
    return selectors.wallet_by_month(user, now=now, closed=closed)

"""The bell's unread count kept in the cache: the one module of the app that
reads and writes it (the selectors only read the database; the services set the
count after each send and read)."""

from __future__ import annotations

from django.core.cache import cache

from notifications.models import Notification

TIMEOUT = 24 * 3600


def count_key(user_id: int) -> str:
    return f"notifications:unread:{user_id}"


def cached_unread_count(user_id: int) -> int | None:
    """The unread count if the cache holds it (no database query), else None."""
    value = cache.get(count_key(user_id))
    return value if isinstance(value, int) else None


def unread_count(user_id: int) -> int:
    """The unread count, from the cache or counted once and cached."""
    value = cached_unread_count(user_id)
    if value is None:
        value = Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()
        cache.set(count_key(user_id), value, timeout=TIMEOUT)
    return value

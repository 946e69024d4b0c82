"""Reads only. The bell's count comes from the cache (docs/notifications.md)."""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

from notifications.models import Notification, NotificationSettings


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
        cache.set(count_key(user_id), value, timeout=24 * 3600)
    return value


def notifications_of(user_id: int, *, limit: int = 100) -> list[Notification]:
    return list(Notification.objects.filter(user_id=user_id).order_by("-created_at", "-pk")[:limit])


def settings_of(user_id: int) -> NotificationSettings:
    found = NotificationSettings.objects.filter(user_id=user_id).first()
    return found if found is not None else NotificationSettings(user_id=user_id)


def kind_overrides(user_ids: list[int]) -> dict[int, dict[str, Any]]:
    return dict(
        NotificationSettings.objects.filter(user_id__in=user_ids).values_list("user_id", "kinds")
    )

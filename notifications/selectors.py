"""Reads only (the bell's cached count: notifications/cached.py)."""

from __future__ import annotations

from typing import Any

from notifications.models import Notification, NotificationSettings


def notifications_of(user_id: int, *, limit: int = 100) -> list[Notification]:
    return list(Notification.objects.filter(user_id=user_id).order_by("-created_at", "-pk")[:limit])


def settings_of(user_id: int) -> NotificationSettings:
    found = NotificationSettings.objects.filter(user_id=user_id).first()
    return found if found is not None else NotificationSettings(user_id=user_id)


def kind_overrides(user_ids: list[int]) -> dict[int, dict[str, Any]]:
    return dict(
        NotificationSettings.objects.filter(user_id__in=user_ids).values_list("user_id", "kinds")
    )

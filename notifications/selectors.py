"""Reads only (the bell's cached count: notifications/cached.py)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from django.contrib.auth import get_user_model

from notifications import kinds
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


def kind_on_among(user_ids: Iterable[int], kind: str) -> set[int]:
    """The active players among `user_ids` who get `kind` (their switch, else its
    default). One query: for a kind off by default, only the rows that turned it on."""
    ids = set(user_ids)
    if not ids or kind not in kinds.KINDS:
        return set()
    rows = NotificationSettings.objects.filter(user_id__in=ids, user__is_active=True)
    if kinds.KINDS[kind].default:
        off = set(rows.filter(**{f"kinds__{kind}": False}).values_list("user_id", flat=True))
        active = set(
            get_user_model().objects.filter(pk__in=ids, is_active=True).values_list("pk", flat=True)
        )
        return active - off
    return set(rows.filter(**{f"kinds__{kind}": True}).values_list("user_id", flat=True))


def recently_sent(
    user_ids: Iterable[int], kind: str, since: datetime, about: str
) -> set[tuple[int, Any]]:
    """(user id, params[about]) of the notifications of `kind` sent to `user_ids` since
    `since` (one query on the list's index)."""
    ids = list(set(user_ids))
    if not ids:
        return set()
    return set(
        Notification.objects.filter(user_id__in=ids, kind=kind, created_at__gte=since)
        .values_list("user_id", f"params__{about}")
        .order_by()
    )

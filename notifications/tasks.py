"""Celery tasks of notifications: pushes leave here, never from a request."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from celery import shared_task
from django.conf import settings
from django.utils import timezone, translation

from notifications import kinds, push, services
from notifications.models import Notification, NotificationSettings, PushSubscription

logger = logging.getLogger(__name__)


@shared_task(name="notifications.fanout", ignore_result=True)
def fanout(pairs: Sequence[Sequence[Any]]) -> None:
    """A bulk send's chunk: bells told, pushes sent (in this task: one per chunk)."""
    ids = services.fanout(pairs)
    push_send(ids)


@shared_task(name="notifications.push_send", ignore_result=True)
def push_send(notification_ids: Sequence[int]) -> dict[str, int]:
    """Pushes these notifications to their users' subscribed browsers, but in a
    user's quiet hours or over their hourly cap (the notification stays in the
    bell). A subscription the push service answers 404 or 410 is deleted."""
    sent = skipped = dropped = 0
    notifications = list(
        Notification.objects.filter(pk__in=list(notification_ids), read_at__isnull=True)
        .select_related("user")
        .order_by("pk")
    )
    user_ids = {n.user_id for n in notifications}
    subscriptions: dict[int, list[PushSubscription]] = {}
    for sub in PushSubscription.objects.filter(user_id__in=user_ids).order_by("pk"):
        subscriptions.setdefault(sub.user_id, []).append(sub)
    if not subscriptions:
        return {"sent": 0, "skipped": len(notifications), "dropped": 0}
    prefs = {
        row.user_id: row
        for row in NotificationSettings.objects.filter(user_id__in=list(subscriptions))
    }
    now = timezone.now()
    for notification in notifications:
        subs = subscriptions.get(notification.user_id)
        if not subs:
            skipped += 1
            continue
        pref = prefs.get(notification.user_id) or NotificationSettings(user_id=notification.user_id)
        if push.in_quiet_hours(pref, now) or not push.take_hourly_slot(
            notification.user_id, pref.push_per_hour, now
        ):
            skipped += 1
            continue
        language = notification.user.language or settings.LANGUAGE_CODE
        with translation.override(language):
            data = push.payload(
                title="Cuatrola Online",
                body=kinds.sentence(notification.kind, notification.params),
                url=notification.link or "/notifications/",
                tag=f"n{notification.pk}",
            )
        for sub in subs:
            try:
                status = push.deliver(sub, data)
            except Exception:
                logger.exception("web push to subscription %s failed", sub.pk)
                continue
            if status in (404, 410):
                services.push_subscription_drop(subscription_id=sub.pk)
                dropped += 1
            elif status < 300:
                sent += 1
    return {"sent": sent, "skipped": skipped, "dropped": dropped}

"""The only writers of notifications, their settings and push subscriptions.

`notification_send` is what the other apps call, inside their own transaction;
after it commits the user's bell is told the new count over the lobby socket (the
`user-<id>` group, docs/protocol.md) and a push is queued (a Celery task).
`notifications_send_many` is the bulk path (a league close: 100,000 rows).
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import time
from typing import Any

from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Count
from django.utils import timezone

from accounts.hooks import group_send
from accounts.services import user_group_name
from notifications import errors, kinds
from notifications.cached import count_key
from notifications.models import Notification, NotificationSettings, PushSubscription
from notifications.selectors import kind_overrides

logger = logging.getLogger(__name__)

CHUNK = 2000


@dataclass(frozen=True)
class Outgoing:
    user_id: int
    kind: str
    params: dict[str, Any]
    link: str
    dedup_key: str


def _count_refresh(user_id: int) -> int:
    count = Notification.objects.filter(user_id=user_id, read_at__isnull=True).count()
    cache.set(count_key(user_id), count, timeout=24 * 3600)
    return count


def count_broadcast(user_id: int) -> None:
    """The user's bells (every lobby socket of theirs) learn the unread count."""
    _count_send(user_id, _count_refresh(user_id))


def _count_send(user_id: int, count: int) -> None:
    try:
        group_send(user_group_name(user_id), {"type": "notifications.count", "unread": count})
    except Exception:  # a bell not updated live is no reason to fail the event
        logger.exception("notifications: count not sent to user %s", user_id)


def _after_send(user_id: int, notification_id: int) -> None:
    from notifications import tasks

    count_broadcast(user_id)
    tasks.push_send.delay([notification_id])


def notification_send(
    *, user: Any, kind: str, params: dict[str, Any], link: str, dedup_key: str
) -> Notification | None:
    """Records one notification for `user` (a User or its id). None when the player
    switched that kind off, or when the same `dedup_key` was already sent to them
    (a second event for the same notification, even at the same instant: the
    database's unique constraint decides)."""
    if kind not in kinds.KINDS:
        raise errors.UnknownKind()
    user_id = user if isinstance(user, int) else user.pk
    overrides = kind_overrides([user_id]).get(user_id)
    if not kinds.enabled(kind, overrides):
        return None
    try:
        with transaction.atomic():
            notification = Notification.objects.create(
                user_id=user_id,
                kind=kind,
                params=params,
                link=link[:300],
                dedup_key=dedup_key[:200],
            )
    except IntegrityError:
        return None
    transaction.on_commit(lambda: _after_send(user_id, notification.pk))
    return notification


def notifications_send_many(items: Iterable[Outgoing]) -> int:
    """Bulk: rows created in chunks (conflicts with earlier sends ignored); after the
    commit one Celery task a chunk refreshes the bells and sends the pushes. Returns
    the rows asked for after the switches (conflicts included)."""
    from notifications import tasks

    created = 0
    batch: list[Outgoing] = []

    def flush() -> None:
        nonlocal created
        overrides = kind_overrides([o.user_id for o in batch if o.kind in _SWITCHED])
        rows = [
            Notification(
                user_id=o.user_id,
                kind=o.kind,
                params=o.params,
                link=o.link[:300],
                dedup_key=o.dedup_key[:200],
            )
            for o in batch
            if o.kind in kinds.KINDS and kinds.enabled(o.kind, overrides.get(o.user_id))
        ]
        Notification.objects.bulk_create(rows, ignore_conflicts=True, batch_size=CHUNK)
        pairs = [[r.user_id, r.dedup_key] for r in rows]
        transaction.on_commit(lambda: tasks.fanout.delay(pairs))
        created += len(rows)
        batch.clear()

    for item in items:
        batch.append(item)
        if len(batch) >= CHUNK:
            flush()
    if batch:
        flush()
    return created


# Kinds some player may have switched (all: the settings rows are read per chunk).
_SWITCHED = frozenset(kinds.KINDS)


def fanout(pairs: Sequence[Sequence[Any]]) -> list[int]:
    """After a bulk send: each user's bell learns the count; returns the new rows' ids."""
    by_user: dict[int, list[str]] = {}
    for user_id, key in pairs:
        by_user.setdefault(int(user_id), []).append(str(key))
    ids = list(
        Notification.objects.filter(
            user_id__in=list(by_user), dedup_key__in={k for keys in by_user.values() for k in keys}
        ).values_list("pk", "user_id", "dedup_key")
    )
    wanted = {(u, k) for u, keys in by_user.items() for k in keys}
    counts = dict.fromkeys(by_user, 0)
    counts.update(
        Notification.objects.filter(user_id__in=list(by_user), read_at__isnull=True)
        .values("user_id")
        .annotate(n=Count("pk"))
        .order_by()
        .values_list("user_id", "n")
    )
    cache.set_many({count_key(u): n for u, n in counts.items()}, timeout=24 * 3600)
    for user_id, count in counts.items():
        _count_send(user_id, count)
    return [pk for pk, user_id, key in ids if (user_id, key) in wanted]


@transaction.atomic
def notification_read(*, user: Any, notification_id: int) -> Notification:
    """Marks one of the user's notifications read (another user's: not found)."""
    found = (
        Notification.objects.select_for_update().filter(pk=notification_id, user_id=user.pk).first()
    )
    if found is None:
        raise errors.NotificationNotFound()
    if found.read_at is None:
        found.read_at = timezone.now()
        found.save(update_fields=["read_at"])
        transaction.on_commit(lambda: count_broadcast(user.pk))
    return found


@transaction.atomic
def notifications_read_all(*, user: Any) -> int:
    changed = Notification.objects.filter(user_id=user.pk, read_at__isnull=True).update(
        read_at=timezone.now()
    )
    transaction.on_commit(lambda: count_broadcast(user.pk))
    return changed


@transaction.atomic
def settings_update(
    *,
    user: Any,
    kinds_on: Iterable[str],
    quiet_start: time | None,
    quiet_end: time | None,
    timezone_name: str,
    push_per_hour: int,
) -> NotificationSettings:
    on = set(kinds_on)
    row, _ = NotificationSettings.objects.select_for_update().get_or_create(user_id=user.pk)
    row.kinds = {key: key in on for key in kinds.KINDS}
    row.quiet_start = quiet_start
    row.quiet_end = quiet_end
    row.timezone = timezone_name
    row.push_per_hour = push_per_hour
    row.save()
    return row


@transaction.atomic
def push_subscribe(*, user: Any, endpoint: str, p256dh: str, auth: str) -> PushSubscription:
    """This browser's subscription (one a browser endpoint; a browser handed to
    another account moves with it)."""
    if not endpoint.startswith("https://") and not endpoint.startswith("http://"):
        raise errors.BadSubscription()
    if not p256dh or not auth or len(endpoint) > 1000 or len(p256dh) > 200 or len(auth) > 100:
        raise errors.BadSubscription()
    row, _ = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user_id": user.pk, "p256dh": p256dh, "auth": auth}
    )
    return row


@transaction.atomic
def push_unsubscribe(*, user: Any, endpoint: str) -> int:
    deleted, _ = PushSubscription.objects.filter(user_id=user.pk, endpoint=endpoint).delete()
    return deleted


def push_subscription_drop(*, subscription_id: int) -> None:
    """The push service said the subscription is gone (404 or 410)."""
    PushSubscription.objects.filter(pk=subscription_id).delete()

"""A player's notifications, their switches, and their browsers' push subscriptions.

A notification stores its kind and the parameters of its sentence, never the
sentence: it is worded in the reader's language when shown (notifications.kinds).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Notification(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="notifications",
        verbose_name=_("user"),
    )
    kind = models.CharField(_("kind"), max_length=32)
    params = models.JSONField(_("parameters"), default=dict, blank=True)
    link = models.CharField(_("link"), max_length=300, blank=True, default="")
    # Two events for one notification (a double click, a task delivered twice) make one
    # row: the database refuses the second (notification_send ignores the conflict).
    dedup_key = models.CharField(_("deduplication key"), max_length=200)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    read_at = models.DateTimeField(_("read at"), null=True, blank=True)

    class Meta:
        verbose_name = _("notification")
        verbose_name_plural = _("notifications")
        ordering = ["-created_at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["user", "dedup_key"], name="notifications_once"),
        ]
        indexes = [
            models.Index(fields=["user", "-created_at"], name="notifications_list"),
            models.Index(
                fields=["user"],
                name="notifications_unread",
                condition=models.Q(read_at__isnull=True),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} → {self.user_id}"


class NotificationSettings(models.Model):
    """A player's switches. No row: every kind's default, no quiet hours."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="notification_settings",
        verbose_name=_("user"),
    )
    # {kind: on?} for the kinds the player changed; the others keep their default.
    kinds = models.JSONField(_("kinds"), default=dict, blank=True)
    quiet_start = models.TimeField(_("quiet hours start"), null=True, blank=True)
    quiet_end = models.TimeField(_("quiet hours end"), null=True, blank=True)
    timezone = models.CharField(_("time zone"), max_length=64, default="Europe/Madrid")
    push_per_hour = models.PositiveSmallIntegerField(_("pushes per hour at most"), default=6)

    class Meta:
        verbose_name = _("notification settings")
        verbose_name_plural = _("notification settings")

    def __str__(self) -> str:
        return str(self.user_id)


class PushSubscription(models.Model):
    """One browser's Web Push subscription (opt-in per device)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="push_subscriptions",
        verbose_name=_("user"),
    )
    endpoint = models.CharField(_("endpoint"), max_length=1000, unique=True)
    p256dh = models.CharField(_("public key"), max_length=200)
    auth = models.CharField(_("authentication secret"), max_length=100)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)

    class Meta:
        verbose_name = _("push subscription")
        verbose_name_plural = _("push subscriptions")
        indexes = [models.Index(fields=["user"], name="notifications_push_user")]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.endpoint[:40]}"

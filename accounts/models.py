from __future__ import annotations

from datetime import datetime
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractUser
from django.db import models
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from accounts.lookalikes import username_key
from accounts.validators import USERNAME_MAX_LENGTH, USERNAME_VALIDATORS, username_help_lazy


class User(AbstractUser):
    username = models.CharField(
        _("username"),
        max_length=USERNAME_MAX_LENGTH,
        unique=True,
        validators=USERNAME_VALIDATORS,
        help_text=username_help_lazy(),
        error_messages={"unique": _("A user with that username already exists.")},
    )
    email = models.EmailField(_("email address"), unique=True)
    language = models.CharField(
        _("language"), max_length=8, choices=settings.LANGUAGES, blank=True, default=""
    )
    # What the name looks like (accounts/lookalikes.py): sign-up refuses a new name
    # whose key an existing player already has. Not unique: older look-alikes exist
    # (`manage.py report_lookalike_usernames` lists them for staff).
    username_key = models.CharField(max_length=100, db_index=True, editable=False, default="")

    class Meta:
        verbose_name = _("user")
        verbose_name_plural = _("users")
        constraints = [
            models.UniqueConstraint(Lower("username"), name="accounts_user_username_ci_unique"),
            models.UniqueConstraint(Lower("email"), name="accounts_user_email_ci_unique"),
        ]

    def __str__(self) -> str:
        return self.username

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.username_key = username_key(self.username)
        update_fields = kwargs.get("update_fields")
        if update_fields is not None and "username" in update_fields:
            kwargs["update_fields"] = {*update_fields, "username_key"}
        super().save(*args, **kwargs)


class BanQuerySet(models.QuerySet):
    def active(self, at: datetime | None = None) -> BanQuerySet:
        """Bans in force at `at` (now by default): not lifted, and without an end or ending later.

        Expiry needs no job: a ban whose end date has passed simply stops matching.
        """
        at = at or timezone.now()
        return self.filter(lifted_at__isnull=True).filter(
            models.Q(until__isnull=True) | models.Q(until__gt=at)
        )


class Ban(models.Model):
    """One ban of one user. Rows are never deleted: lifting a ban stamps it, so the
    history of every ban (who, why, until when, who lifted it and why) stays."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="bans",
        verbose_name=_("user"),
    )
    reason = models.TextField(_("reason"))
    until = models.DateTimeField(
        _("until"), null=True, blank=True, help_text=_("Leave empty for a ban without an end.")
    )
    created_at = models.DateTimeField(_("banned at"), default=timezone.now)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("banned by"),
    )
    lifted_at = models.DateTimeField(_("lifted at"), null=True, blank=True)
    lifted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("lifted by"),
    )
    lift_reason = models.TextField(_("reason for lifting"), blank=True, default="")

    objects = BanQuerySet.as_manager()

    class Meta:
        verbose_name = _("ban")
        verbose_name_plural = _("bans")
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "lifted_at"], name="accounts_ban_user_lifted")]
        permissions = [("ban_user", _("Can ban and unban users"))]

    def __str__(self) -> str:
        return f"{self.user} · {self.created_at:%Y-%m-%d %H:%M}"

    def is_active(self, at: datetime | None = None) -> bool:
        at = at or timezone.now()
        return self.lifted_at is None and (self.until is None or self.until > at)


class Report(models.Model):
    """A player's complaint about another player, closed by a moderator with a note."""

    class Reason(models.TextChoices):
        ABANDONMENT = "abandonment", _("Abandonment")
        ABUSE = "abuse", _("Abuse")
        CHEATING = "cheating", _("Cheating")
        OTHER = "other", _("Other")

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_made",
        verbose_name=_("reported by"),
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="reports_received",
        verbose_name=_("reported player"),
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)
    text = models.TextField(_("details"), blank=True, default="", max_length=2000)
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports",
        verbose_name=_("match"),
    )
    created_at = models.DateTimeField(_("reported at"), default=timezone.now)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("closed by"),
    )
    close_note = models.TextField(_("moderator's note"), blank=True, default="")

    class Meta:
        verbose_name = _("report")
        verbose_name_plural = _("reports")
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reporter=models.F("reported")),
                name="accounts_report_not_self",
            ),
            # One open report per reporter, player and match (or per pair without a match).
            models.UniqueConstraint(
                fields=["reporter", "reported", "match"],
                condition=models.Q(closed_at__isnull=True, match__isnull=False),
                name="one_open_report_per_match",
            ),
            models.UniqueConstraint(
                fields=["reporter", "reported"],
                condition=models.Q(closed_at__isnull=True, match__isnull=True),
                name="one_open_report_without_match",
            ),
        ]
        ordering = ["-created_at", "-pk"]

    def __str__(self) -> str:
        return f"#{self.pk} {self.reported} ({self.get_reason_display()})"

    @property
    def is_open(self) -> bool:
        return self.closed_at is None


class SignIn(models.Model):
    """One successful sign-in (every log-in, the one after a sign-up included): the
    network it came from and the device cookie of the browser, each only as an HMAC
    with LINKED_ACCOUNTS_SECRET (accounts.links). Kept SIGN_IN_KEEP_DAYS, then
    deleted; read to find linked accounts (docs/moderation.md, "Linked accounts")."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="sign_ins",
        verbose_name=_("user"),
        db_index=False,  # the (user, at) index below serves it
    )
    at = models.DateTimeField(_("signed in at"), default=timezone.now)
    # HMAC-SHA256 in hex of the client's network (an IPv4 address, an IPv6 /64);
    # empty when the request named no usable address.
    network = models.CharField(_("network (hashed)"), max_length=64, blank=True, default="")
    # HMAC-SHA256 in hex of the device cookie's random id.
    device = models.CharField(_("device (hashed)"), max_length=64)

    class Meta:
        verbose_name = _("sign-in")
        verbose_name_plural = _("sign-ins")
        indexes = [
            models.Index(fields=["user", "at"], name="accounts_signin_user_at"),
            models.Index(fields=["device", "at"], name="accounts_signin_device_at"),
            models.Index(
                fields=["network", "at"],
                name="accounts_signin_network_at",
                condition=~models.Q(network=""),
            ),
            models.Index(fields=["at"], name="accounts_signin_at"),  # the nightly prune
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.at:%Y-%m-%d %H:%M}"

"""Friends, friend requests, blocks and each player's social settings.

Written only by `social.services` (one transaction each, the two players' user rows
locked in primary-key order first); read through `social.selectors`.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class FriendRequest(models.Model):
    """A pending request: accepting makes a Friendship, any answer deletes the row."""

    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_requests"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("friend request")
        verbose_name_plural = _("friend requests")
        constraints = [
            models.UniqueConstraint(fields=["from_user", "to_user"], name="social_request_once"),
            models.CheckConstraint(
                condition=~Q(from_user=F("to_user")), name="social_request_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} → {self.to_user_id}"


class Friendship(models.Model):
    """Two friends, stored once: `user_low` has the smaller id."""

    user_low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    user_high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("friendship")
        verbose_name_plural = _("friendships")
        constraints = [
            models.UniqueConstraint(fields=["user_low", "user_high"], name="social_friends_once"),
            models.CheckConstraint(
                condition=Q(user_low__lt=F("user_high")), name="social_friends_ordered"
            ),
        ]
        indexes = [models.Index(fields=["user_high"], name="social_friend_high")]

    def __str__(self) -> str:
        return f"{self.user_low_id} ↔ {self.user_high_id}"


class Block(models.Model):
    """`blocker` does not want to meet `blocked` (at most SOCIAL_BLOCKS_MAX a blocker)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("block")
        verbose_name_plural = _("blocks")
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="social_block_once"),
            models.CheckConstraint(
                condition=~Q(blocker=F("blocked")), name="social_block_not_self"
            ),
        ]
        indexes = [models.Index(fields=["blocked"], name="social_block_blocked")]

    def __str__(self) -> str:
        return f"{self.blocker_id} ⊘ {self.blocked_id}"


class Requests(models.TextChoices):
    EVERYONE = "everyone", _("Everyone")
    NOBODY = "nobody", _("Nobody")


class Privacy(models.Model):
    """A player's social settings; a player without a row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    requests_from = models.CharField(
        _("who may send you friend requests"),
        max_length=16,
        choices=Requests.choices,
        default=Requests.EVERYONE,
    )
    show_table = models.BooleanField(_("friends see where you are playing"), default=True)
    talk_hidden = models.BooleanField(_("hide all table talk"), default=False)

    class Meta:
        verbose_name = _("privacy settings")
        verbose_name_plural = _("privacy settings")

    def __str__(self) -> str:
        return str(self.user_id)


class PartnerRequest(models.Model):
    """A pending partner request between two friends: accepting makes a Partnership,
    any answer deletes the row (docs/social.md, "Partners")."""

    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("asking player"),
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="partner_requests",
        verbose_name=_("asked player"),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("partner request")
        verbose_name_plural = _("partner requests")
        constraints = [
            models.UniqueConstraint(
                fields=["from_user", "to_user"], name="social_partner_request_once"
            ),
            models.CheckConstraint(
                condition=~Q(from_user=F("to_user")), name="social_partner_request_not_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} ⇢ {self.to_user_id}"


class Partnership(models.Model):
    """A registered pair, stored once (`user_low` has the smaller id). Dissolving it
    sets `dissolved_at` and keeps the row: its page and its matches stay. At most one
    standing (not dissolved) pair of the same two players."""

    user_low = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    user_high = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(_("formed at"))
    dissolved_at = models.DateTimeField(_("dissolved at"), null=True, blank=True)

    class Meta:
        verbose_name = _("pair of partners")
        verbose_name_plural = _("pairs of partners")
        constraints = [
            models.UniqueConstraint(
                fields=["user_low", "user_high"],
                condition=Q(dissolved_at__isnull=True),
                name="social_partners_standing_once",
            ),
            models.CheckConstraint(
                condition=Q(user_low__lt=F("user_high")), name="social_partners_ordered"
            ),
        ]
        indexes = [models.Index(fields=["user_high"], name="social_partner_high")]

    def __str__(self) -> str:
        return f"{self.user_low_id} & {self.user_high_id}"

    @property
    def standing(self) -> bool:
        return self.dissolved_at is None

    def other_id(self, user_id: int) -> int:
        return self.user_high_id if self.user_low_id == user_id else self.user_low_id


class PartnerMarkKind(models.TextChoices):
    PREFER = "prefer", _("Prefer as partner")
    AVOID = "avoid", _("Avoid as partner")


class PartnerMark(models.Model):
    """How `user` wants the queue to treat `other` as a partner: preferred (seated
    together when both wait) or avoided (never the queue's choice of partner).
    Besides blocks; at most SOCIAL_PARTNER_MARKS_MAX a player."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    other = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("marked player"),
    )
    kind = models.CharField(_("mark"), max_length=8, choices=PartnerMarkKind.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("partner mark")
        verbose_name_plural = _("partner marks")
        constraints = [
            models.UniqueConstraint(fields=["user", "other"], name="social_partner_mark_once"),
            models.CheckConstraint(
                condition=~Q(user=F("other")), name="social_partner_mark_not_self"
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["prefer", "avoid"]), name="social_partner_mark_kind"
            ),
        ]
        indexes = [models.Index(fields=["other"], name="social_partner_mark_other")]

    def __str__(self) -> str:
        return f"{self.user_id} {self.kind} {self.other_id}"

"""Ratings: each player's current estimate, the change every rated match made, and
the resets staff made (docs/ratings.md).

`RatedMatch` is the key that makes a match's update happen once: its row is
inserted first in the settlement's transaction, and a second settlement of the
same match finds it and changes nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from ratings.skill import NEW, PROVISIONAL_MATCHES, shown


class Rating(models.Model):
    """A player's estimate now: `value` is the number shown (ratings.skill.shown)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="rating",
        verbose_name=_("player"),
    )
    mu = models.FloatField(_("mean (mu)"), default=NEW.mu)
    sigma = models.FloatField(_("uncertainty (sigma)"), default=NEW.sigma)
    value = models.IntegerField(_("rating"), default=shown(NEW.mu))
    # Rated matches since the last reset: provisional below PROVISIONAL_MATCHES.
    matches = models.PositiveIntegerField(_("rated matches"), default=0)
    last_rated_at = models.DateTimeField(_("last rated match"), null=True, blank=True)

    class Meta:
        verbose_name = _("rating")
        verbose_name_plural = _("ratings")
        indexes = [
            # The leaderboard and a player's rank: established players by rating, with
            # the date of their last rated match in the index (an index-only scan).
            models.Index(
                fields=["-value", "user", "last_rated_at"],
                name="ratings_board_idx",
                condition=Q(matches__gte=PROVISIONAL_MATCHES),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}: {self.value}"

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


class RatedMatch(models.Model):
    """A match whose ratings were updated (one row per match, inserted first)."""

    match = models.OneToOneField(
        "games.Match",
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="rated",
        verbose_name=_("match"),
    )
    rated_at = models.DateTimeField(_("finished at"))

    class Meta:
        verbose_name = _("rated match")
        verbose_name_plural = _("rated matches")

    def __str__(self) -> str:
        return f"match {self.match_id}"


class RatingChange(models.Model):
    """What one rated match did to one player's rating."""

    # No single-column indexes: (match, user) and (user, at) below serve both keys.
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("match"),
        db_index=False,
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_changes",
        verbose_name=_("player"),
        db_index=False,
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    at = models.DateTimeField(_("finished at"))
    mu_before = models.FloatField(_("mu before"))
    sigma_before = models.FloatField(_("sigma before"))
    mu_after = models.FloatField(_("mu after"))
    sigma_after = models.FloatField(_("sigma after"))
    before = models.IntegerField(_("rating before"))
    after = models.IntegerField(_("rating after"))
    # Rated matches (since the last reset) including this one.
    matches = models.PositiveIntegerField(_("rated matches"))

    class Meta:
        verbose_name = _("rating change")
        verbose_name_plural = _("rating changes")
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="ratings_change_once")
        ]
        indexes = [models.Index(fields=["user", "at"], name="ratings_change_user_at")]

    def __str__(self) -> str:
        return f"match {self.match_id}, {self.user_id}: {self.change:+d}"

    @property
    def change(self) -> int:
        return self.after - self.before

    @property
    def provisional(self) -> bool:
        return self.matches < PROVISIONAL_MATCHES


class RatingReset(models.Model):
    """A rating set back to a new player's by staff, with the reason (logged)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="rating_resets",
        verbose_name=_("player"),
        db_index=False,  # the (user, at) index below serves it
    )
    staff = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="rating_resets_made",
        verbose_name=_("reset by"),
    )
    reason = models.TextField(_("reason"))
    at = models.DateTimeField(_("reset at"))
    before = models.IntegerField(_("rating before"))
    matches_before = models.PositiveIntegerField(_("rated matches before"))

    class Meta:
        verbose_name = _("rating reset")
        verbose_name_plural = _("rating resets")
        indexes = [models.Index(fields=["user", "at"], name="ratings_reset_user_at")]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.at:%Y-%m-%d %H:%M}"


class ProtectionWithheld(models.Model):
    """A player whose partner abandoned a rated match their pair lost, rated down all
    the same (docs/ratings.md, "Abandonment"): the two are linked accounts, or the
    pair abandons repeatedly. Written with the match's rating changes, and read by
    the replay (`ratings_recompute`), which rebuilds the ratings with the same
    decisions (the sign-ins that showed the link are deleted after 90 days)."""

    class Reason(models.TextChoices):
        LINKED = "linked", _("Linked accounts")
        REPEATED = "repeated", _("The pair abandons repeatedly")

    match = models.ForeignKey(
        "games.Match",
        on_delete=models.CASCADE,
        related_name="protections_withheld",
        verbose_name=_("match"),
        db_index=False,  # the unique (match, user) below serves it
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="protections_withheld",
        verbose_name=_("player"),
    )
    reason = models.CharField(_("reason"), max_length=16, choices=Reason.choices)

    class Meta:
        verbose_name = _("partner protection withheld")
        verbose_name_plural = _("partner protections withheld")
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="ratings_withheld_once")
        ]

    def __str__(self) -> str:
        return f"match {self.match_id}, {self.user_id}: {self.reason}"

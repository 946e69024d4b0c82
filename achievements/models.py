"""An achievement a player holds (once: unique per user and code) and the matches
already read for achievements (the processed marker: a redelivered settlement is a
no-op), and the settled matches still waiting to be read (the outbox)."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _


class Award(models.Model):
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+", verbose_name=_("user")
    )
    code = models.CharField(_("achievement"), max_length=32)
    # The moment of the match (or event) that earned it, from history: the live path
    # and the recompute command give the same date.
    achieved_at = models.DateTimeField(_("achieved at"))
    match = models.ForeignKey(
        "games.Match",
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("match"),
    )

    class Meta:
        verbose_name = _("achievement held")
        verbose_name_plural = _("achievements held")
        constraints = [
            models.UniqueConstraint(fields=["user", "code"], name="achievements_award_once"),
        ]
        indexes = [models.Index(fields=["code"], name="achievements_award_code")]

    def __str__(self) -> str:
        return f"{self.user_id} · {self.code}"


class PendingMatch(models.Model):
    """A settled match waiting to be read for achievements: inserted in the settlement's
    own transaction (so none is lost, even with the broker down), removed when read."""

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )

    class Meta:
        verbose_name = _("match waiting for achievements")
        verbose_name_plural = _("matches waiting for achievements")

    def __str__(self) -> str:
        return str(self.match_id)


class ProcessedMatch(models.Model):
    """A settled match whose players were read for achievements (once)."""

    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    processed_at = models.DateTimeField(_("processed at"), auto_now_add=True)

    class Meta:
        verbose_name = _("match read for achievements")
        verbose_name_plural = _("matches read for achievements")

    def __str__(self) -> str:
        return str(self.match_id)


class Progress(models.Model):
    """A player's progress towards the achievements read from settled matches (the
    rules' fold, achievements.rules.fold), kept after each reading so the next one
    reads only the matches settled since: `folded` matches of the player's history,
    the last of them (`last_finished_at`, `last_match_id`) in history's order. Rebuilt
    from history when it no longer matches it (a match recorded out of order), and by
    the recompute."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="+"
    )
    state = models.JSONField(default=dict)
    folded = models.PositiveIntegerField(default=0)
    last_finished_at = models.DateTimeField(null=True, blank=True)
    last_match_id = models.BigIntegerField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("achievements progress")
        verbose_name_plural = _("achievements progress")

    def __str__(self) -> str:
        return f"{self.user_id}: {self.folded}"


class PendingEvent(models.Model):
    """Results outside a match waiting to be read for achievements (a daily deal's day
    closed, a league week closed, a tournament finished): inserted in the closing
    transaction (games' `results_recorded`), read by the beat's task in chunks of
    players (`after_user_id`: the last player read), removed when done."""

    event = models.CharField(max_length=16)
    ref_id = models.BigIntegerField()
    after_user_id = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("results waiting for achievements")
        verbose_name_plural = _("results waiting for achievements")
        constraints = [
            models.UniqueConstraint(fields=["event", "ref_id"], name="achievements_event_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event} {self.ref_id}"

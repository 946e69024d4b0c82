"""The daily deal: a day's six deals, each player's day (an entry) and each deal
they played (a play, with the games app's match it was played as)."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class DayStatus(models.TextChoices):
    OPEN = "open", _("Being played")
    CLOSED = "closed", _("Closed")


class DailyDay(models.Model):
    """One calendar day (Europe/Madrid) of the daily deal. Created when someone first
    opens it; its deals are drawn then and stored, so they never change afterwards."""

    date = models.DateField(_("date"), unique=True)
    status = models.CharField(
        _("status"), max_length=8, choices=DayStatus.choices, default=DayStatus.OPEN
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    # When the standings (provisional, then final) were last computed.
    standings_at = models.DateTimeField(_("standings computed at"), null=True, blank=True)
    # Players ranked at the last computation (voided results left out).
    players = models.PositiveIntegerField(_("players ranked"), default=0)
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)

    class Meta:
        verbose_name = _("daily deal day")
        verbose_name_plural = _("daily deal days")
        ordering = ["-date"]

    def __str__(self) -> str:
        return self.date.isoformat()


class DailyDeal(models.Model):
    """Deal `number` of a day: the engine deals it from `seed` with `dealer` dealing."""

    day = models.ForeignKey(
        DailyDay, on_delete=models.CASCADE, related_name="deals", verbose_name=_("day")
    )
    number = models.PositiveSmallIntegerField(_("number"))
    seed = models.BigIntegerField(_("shuffle seed"))
    dealer = models.PositiveSmallIntegerField(_("dealer"))

    class Meta:
        verbose_name = _("daily deal")
        verbose_name_plural = _("daily deals")
        ordering = ["day", "number"]
        constraints = [
            models.UniqueConstraint(fields=["day", "number"], name="daily_deal_unique_number"),
            models.CheckConstraint(condition=Q(dealer__lte=3), name="daily_deal_dealer_0_3"),
        ]

    def __str__(self) -> str:
        return f"{self.day_id}/{self.number}"


class DailyEntry(models.Model):
    """A player's day: made by their first deal, one per player and day."""

    day = models.ForeignKey(
        DailyDay, on_delete=models.CASCADE, related_name="entries", verbose_name=_("day")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="daily_entries",
        verbose_name=_("player"),
    )
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    # Set when the last of the day's deals is finished.
    finished_at = models.DateTimeField(_("finished the set at"), null=True, blank=True)
    deals_finished = models.PositiveSmallIntegerField(_("deals finished"), default=0)
    # The day's score in percent: provisional (the deals finished so far, against
    # those who finished them) until the day closes, then final.
    score = models.FloatField(_("score (%)"), null=True, blank=True)
    # Final only: the sum of the day's matchpoints (the exact ranking key).
    matchpoints = models.IntegerField(_("matchpoints"), null=True, blank=True)
    rank = models.PositiveIntegerField(_("rank"), null=True, blank=True)
    prize_coins = models.PositiveIntegerField(_("prize coins"), default=0)
    prize_xp = models.PositiveIntegerField(_("XP earned"), default=0)
    paid_at = models.DateTimeField(_("paid at"), null=True, blank=True)
    voided_at = models.DateTimeField(_("voided at"), null=True, blank=True)
    voided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
        verbose_name=_("voided by"),
    )
    void_reason = models.TextField(_("reason for voiding"), blank=True)

    class Meta:
        verbose_name = _("daily result")
        verbose_name_plural = _("daily results")
        constraints = [
            models.UniqueConstraint(fields=["day", "user"], name="daily_entry_one_per_day")
        ]
        indexes = [
            models.Index(fields=["day", "rank"], name="daily_entry_day_rank"),
            models.Index(fields=["user", "day"], name="daily_entry_user_day"),
        ]
        permissions = [("void_dailyentry", _("Can void a player's daily result"))]

    def __str__(self) -> str:
        return f"{self.day_id}/{self.user_id}"


class PlayStatus(models.TextChoices):
    PLAYING = "playing", _("Being played")
    FINISHED = "finished", _("Finished")
    # Not finished when its day ended (or stopped by staff): the worst result.
    EXPIRED = "expired", _("Not finished")


class DailyPlay(models.Model):
    """One deal as one player played it: the games app's match (one hand) it was."""

    entry = models.ForeignKey(
        DailyEntry, on_delete=models.CASCADE, related_name="plays", verbose_name=_("player's day")
    )
    deal = models.ForeignKey(
        DailyDeal, on_delete=models.PROTECT, related_name="plays", verbose_name=_("deal")
    )
    match = models.OneToOneField(
        "games.Match",
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="daily_play",
        verbose_name=_("match"),
    )
    status = models.CharField(
        _("status"), max_length=8, choices=PlayStatus.choices, default=PlayStatus.PLAYING
    )
    # The match points the player's pair took, or minus those the other pair took.
    result = models.SmallIntegerField(_("result"), null=True, blank=True)
    matchpoints = models.IntegerField(_("matchpoints"), null=True, blank=True)
    percent = models.FloatField(_("percent"), null=True, blank=True)
    started_at = models.DateTimeField(_("started at"), auto_now_add=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("daily deal played")
        verbose_name_plural = _("daily deals played")
        constraints = [
            models.UniqueConstraint(fields=["entry", "deal"], name="daily_play_one_per_deal"),
            models.CheckConstraint(
                condition=Q(status="finished", result__isnull=False)
                | (~Q(status="finished") & Q(result__isnull=True)),
                name="daily_play_result_iff_finished",
            ),
        ]
        indexes = [
            models.Index(fields=["deal", "status", "result"], name="daily_play_deal_result"),
        ]

    def __str__(self) -> str:
        return f"{self.entry_id}/{self.deal_id}"

"""The coach's rows: one analysis per match, its judged decisions, each seat's
summary, and the positions practised from them (docs/coach.md).

An analysis is requested once and computed once: the match is its unique key, so
a second request finds the first row, and its decisions are never recomputed
once stored.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class AnalysisStatus(models.TextChoices):
    QUEUED = "queued", _("Waiting for a worker")
    RUNNING = "running", _("Analysing")
    DONE = "done", _("Done")
    FAILED = "failed", _("Failed")


class DecisionKind(models.TextChoices):
    BID = "bid", _("Bids")
    LEAD = "lead", _("Leads")
    FOLLOW = "follow", _("Following")


class Mark(models.TextChoices):
    NONE = "", _("Good")
    INACCURACY = "inaccuracy", _("Inaccuracy")
    MISTAKE = "mistake", _("Mistake")
    BLUNDER = "blunder", _("Blunder")


class Analysis(models.Model):
    match = models.OneToOneField(
        "games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("requested by"),
    )
    requested_at = models.DateTimeField(default=timezone.now, verbose_name=_("requested at"))
    status = models.CharField(
        max_length=8,
        choices=AnalysisStatus.choices,
        default=AnalysisStatus.QUEUED,
        verbose_name=_("status"),
    )
    # Decisions with a choice in the match, and how many are judged so far.
    decisions_total = models.PositiveIntegerField(default=0, verbose_name=_("decisions"))
    decisions_done = models.PositiveIntegerField(default=0, verbose_name=_("decisions judged"))
    started_at = models.DateTimeField(null=True, blank=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))
    error = models.TextField(blank=True, default="", verbose_name=_("error"))

    class Meta:
        verbose_name = _("analysis")
        verbose_name_plural = _("analyses")
        indexes = [
            models.Index(fields=["requested_by", "requested_at"], name="coach_analysis_daily_idx")
        ]

    def __str__(self) -> str:
        return f"analysis of match {self.match_id} ({self.status})"

    @property
    def in_progress(self) -> bool:
        return self.status in (AnalysisStatus.QUEUED, AnalysisStatus.RUNNING)


class Decision(models.Model):
    """One judged decision: a bid or a card with more than one legal choice."""

    analysis = models.ForeignKey(
        Analysis, on_delete=models.CASCADE, related_name="decisions", verbose_name=_("analysis")
    )
    # The action's number in the match: the replay's step once it is made.
    number = models.PositiveIntegerField(verbose_name=_("move number"))
    hand_no = models.PositiveSmallIntegerField(verbose_name=_("hand number"))
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    kind = models.CharField(max_length=8, choices=DecisionKind.choices, verbose_name=_("kind"))
    action = models.CharField(max_length=12, verbose_name=_("choice made"))
    best = models.CharField(max_length=12, verbose_name=_("best choice"))
    # Expected net match points of every legal action, {action: value}.
    values = models.JSONField(verbose_name=_("expected match points"))
    loss = models.FloatField(verbose_name=_("expected match points lost"))
    error = models.FloatField(verbose_name=_("standard error"))
    spread = models.FloatField(verbose_name=_("at stake"))
    mark = models.CharField(max_length=10, choices=Mark.choices, blank=True, verbose_name=_("mark"))
    deals = models.PositiveIntegerField(verbose_name=_("deals weighed"))

    class Meta:
        verbose_name = _("judged decision")
        verbose_name_plural = _("judged decisions")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "number"], name="coach_decision_unique")
        ]

    def __str__(self) -> str:
        return f"{self.analysis_id}/{self.number}: seat {self.seat} {self.action} ({self.mark})"


class SeatSummary(models.Model):
    """How one seat played a match, by the analysis: what the trends chart."""

    analysis = models.ForeignKey(
        Analysis, on_delete=models.CASCADE, related_name="seats", verbose_name=_("analysis")
    )
    position = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    # The person in the seat (None: a bot).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    # When the match finished (the trends order by it).
    finished_at = models.DateTimeField(verbose_name=_("finished at"))
    accuracy = models.PositiveSmallIntegerField(null=True, verbose_name=_("accuracy"))
    judged = models.PositiveSmallIntegerField(default=0, verbose_name=_("decisions judged"))
    inaccuracies = models.PositiveSmallIntegerField(default=0, verbose_name=_("inaccuracies"))
    mistakes = models.PositiveSmallIntegerField(default=0, verbose_name=_("mistakes"))
    blunders = models.PositiveSmallIntegerField(default=0, verbose_name=_("blunders"))
    # Decisions and expected match points lost, by kind of decision.
    bids = models.PositiveSmallIntegerField(default=0, verbose_name=_("bids judged"))
    leads = models.PositiveSmallIntegerField(default=0, verbose_name=_("leads judged"))
    follows = models.PositiveSmallIntegerField(default=0, verbose_name=_("follows judged"))
    lost_bids = models.FloatField(default=0, verbose_name=_("lost on bids"))
    lost_leads = models.FloatField(default=0, verbose_name=_("lost on leads"))
    lost_follows = models.FloatField(default=0, verbose_name=_("lost following"))

    class Meta:
        verbose_name = _("seat summary")
        verbose_name_plural = _("seat summaries")
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(fields=["analysis", "position"], name="coach_seat_unique")
        ]
        indexes = [models.Index(fields=["user", "-finished_at"], name="coach_seat_trend_idx")]

    def __str__(self) -> str:
        return f"{self.analysis_id}/{self.position}: {self.accuracy}"


class Practice(models.Model):
    """A position practised from a judged decision: one table, one attempt."""

    decision = models.ForeignKey(
        Decision, on_delete=models.CASCADE, related_name="practices", verbose_name=_("decision")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    table = models.OneToOneField(
        "games.Table", on_delete=models.CASCADE, related_name="+", verbose_name=_("table")
    )
    # The number of the practice match's action that is the decision practised.
    number = models.PositiveIntegerField(verbose_name=_("move number"))
    created_at = models.DateTimeField(default=timezone.now, verbose_name=_("created at"))

    class Meta:
        verbose_name = _("practised position")
        verbose_name_plural = _("practised positions")

    def __str__(self) -> str:
        return f"decision {self.decision_id} at table {self.table_id}"

"""Fair play's rows (docs/fairplay.md): the matches the nightly screen has analysed,
the close decisions it found in them, the baseline of honest play by rating band,
the flagged pairs with their evidence, and a line per nightly run.

A match is analysed once: `ScreenedMatch` is keyed by the match, and the screen
never analyses a match that has one. Only the nightly screen (`fairplay.services`)
writes these rows, bar the staff's decision on a flag.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils.translation import gettext_lazy as _


class ScreenPurpose(models.TextChoices):
    PAIR = "pair", _("A candidate pair's match")
    BASELINE = "baseline", _("Baseline sample")


class ScreenedMatch(models.Model):
    """A finished match the screen analysed for lucky guesses, once."""

    match = models.OneToOneField(
        "games.Match",
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("match"),
    )
    purpose = models.CharField(_("why"), max_length=8, choices=ScreenPurpose.choices)
    screened_at = models.DateTimeField(_("screened at"))
    # Card decisions with a choice made by the people of the match (not by a bot
    # standing in), those the whole deal separated (judged from the seat's knowledge
    # too), and the close decisions found.
    decisions = models.PositiveIntegerField(_("decisions examined"), default=0)
    judged = models.PositiveIntegerField(_("decisions judged"), default=0)
    close = models.PositiveIntegerField(_("close decisions"), default=0)
    seconds = models.FloatField(_("seconds"), default=0)
    # Why the match could not be analysed (its deal is not stored, the engine refused it).
    error = models.CharField(_("error"), max_length=300, blank=True, default="")

    class Meta:
        verbose_name = _("screened match")
        verbose_name_plural = _("screened matches")

    def __str__(self) -> str:
        return f"match {self.match_id} ({self.purpose})"


class CloseDecision(models.Model):
    """A card a person chose where the choices their own knowledge rated nearly equal
    were far apart on the whole deal: `hit` when they chose one the whole deal rates
    best."""

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    # The action's number in the match: the replay's step once it is made.
    number = models.PositiveIntegerField(_("move number"))
    hand_no = models.PositiveSmallIntegerField(_("hand number"))
    seat = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    # The lower bound of the player's rating band when they played the match.
    band = models.IntegerField(_("rating band"))
    # From a match sampled for the baseline of honest play.
    baseline = models.BooleanField(_("baseline"), default=False)
    chosen = models.CharField(_("card chosen"), max_length=12)
    # The nearly equal choices: {card: [value from the seat's knowledge, value on the
    # whole deal]} (expected match points; match points or card points on the deal).
    near = models.JSONField(_("nearly equal choices"))
    # What the whole deal's values count: "points" (card points) or "tricks" (match points).
    unit = models.CharField(_("unit"), max_length=8)
    hit = models.BooleanField(_("chose what the whole deal favours"))

    class Meta:
        verbose_name = _("close decision")
        verbose_name_plural = _("close decisions")
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="fairplay_close_once")
        ]
        indexes = [
            models.Index(fields=["user", "match"], name="fairplay_close_user"),
            models.Index(fields=["baseline", "band"], name="fairplay_close_baseline"),
        ]

    def __str__(self) -> str:
        return f"{self.match_id}/{self.number}: {self.chosen} ({'hit' if self.hit else 'miss'})"


class BaselineBand(models.Model):
    """How often players of one rating band chose what the whole deal favours at close
    decisions, in matches sampled outside the candidate pairs: the rate a pair is
    compared with. Refreshed by every nightly run."""

    band = models.IntegerField(_("rating band"), unique=True)
    decisions = models.PositiveIntegerField(_("close decisions"))
    hits = models.PositiveIntegerField(_("whole deal's choice"))
    refreshed_at = models.DateTimeField(_("refreshed at"))

    class Meta:
        verbose_name = _("baseline by rating band")
        verbose_name_plural = _("baselines by rating band")
        ordering = ["band"]

    def __str__(self) -> str:
        return f"{self.band}: {self.hits}/{self.decisions}"

    @property
    def rate(self) -> float | None:
        return self.hits / self.decisions if self.decisions else None


class FlagStatus(models.TextChoices):
    OPEN = "open", _("Open")
    DISMISSED = "dismissed", _("Dismissed")
    CONFIRMED = "confirmed", _("Confirmed")


class FlagReason(models.TextChoices):
    LUCKY = "lucky", _("Lucky guesses")
    DUMPING = "dumping", _("Coins moved between them")
    WINS = "wins", _("Results beyond their ratings")


class PairFlag(models.Model):
    """A pair of accounts the screen flagged, with its evidence; staff decide.

    One row per pair (`user_a` the lower id): a later run updates its evidence and
    never adds a second row. Nothing is banned or taken from anyone by the screen.
    """

    user_a = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player A"),
    )
    user_b = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player B"),
    )
    status = models.CharField(
        _("status"), max_length=10, choices=FlagStatus.choices, default=FlagStatus.OPEN
    )
    # The largest z-score among the reasons that flagged the pair: the queue's order.
    strength = models.FloatField(_("strength"))
    reasons = models.JSONField(_("reasons"), default=list)
    created_at = models.DateTimeField(_("flagged at"))
    updated_at = models.DateTimeField(_("evidence updated at"))
    window_days = models.PositiveSmallIntegerField(_("days looked at"))
    # Together in the window (rated, stake and league matches).
    together = models.PositiveIntegerField(_("matches together"), default=0)
    as_partners = models.PositiveIntegerField(_("as partners"), default=0)
    as_opponents = models.PositiveIntegerField(_("as opponents"), default=0)
    share_together = models.FloatField(_("share of their matches together"), default=0)
    # Lucky guesses in their matches as partners: both players' close decisions, the
    # whole deal's choice found, what the baseline expects, and the z-scores (the pair,
    # A alone, B alone).
    close_decisions = models.PositiveIntegerField(_("close decisions"), default=0)
    lucky_hits = models.PositiveIntegerField(_("whole deal's choice found"), default=0)
    lucky_expected = models.FloatField(_("expected by the baseline"), default=0)
    lucky_z = models.FloatField(_("lucky guesses (z)"), null=True, blank=True)
    lucky_z_a = models.FloatField(_("lucky guesses of A (z)"), null=True, blank=True)
    lucky_z_b = models.FloatField(_("lucky guesses of B (z)"), null=True, blank=True)
    # Stake tables where they sat as opponents: the net coins moved from A to B
    # (negative: from B to A), the share of the coins that moved in that direction,
    # and the z-score of the tables won by the side that gained.
    stake_tables = models.PositiveIntegerField(_("stake tables as opponents"), default=0)
    coins_a_to_b = models.BigIntegerField(_("net coins from A to B"), default=0)
    one_sided = models.FloatField(_("one-sidedness"), null=True, blank=True)
    dump_z = models.FloatField(_("coins one way (z)"), null=True, blank=True)
    # Wins as partners, and A's wins over B as opponents, against what their ratings
    # before each match expected.
    partner_wins = models.PositiveIntegerField(_("wins as partners"), default=0)
    partner_expected = models.FloatField(_("wins expected as partners"), default=0)
    partner_z = models.FloatField(_("wins as partners (z)"), null=True, blank=True)
    versus_a_wins = models.PositiveIntegerField(_("wins of A over B"), default=0)
    versus_expected = models.FloatField(_("wins of A over B expected"), default=0)
    versus_z = models.FloatField(_("wins of A over B (z)"), null=True, blank=True)
    # The staff's decision.
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
        verbose_name=_("reviewed by"),
    )
    reviewed_at = models.DateTimeField(_("reviewed at"), null=True, blank=True)
    note = models.TextField(_("note"), blank=True, default="")
    # The strength when it was dismissed: a dismissed pair is opened again only when
    # its evidence grows past it by FAIRPLAY_REOPEN_STRENGTH.
    decided_strength = models.FloatField(_("strength when decided"), null=True, blank=True)

    class Meta:
        verbose_name = _("flagged pair")
        verbose_name_plural = _("flagged pairs")
        ordering = ["-strength"]
        permissions = [("review_pairflag", _("Can dismiss or confirm a flagged pair"))]
        constraints = [
            models.UniqueConstraint(fields=["user_a", "user_b"], name="fairplay_flag_once"),
            models.CheckConstraint(
                condition=Q(user_a__lt=F("user_b")), name="fairplay_flag_pair_ordered"
            ),
        ]
        indexes = [models.Index(fields=["status", "-strength"], name="fairplay_flag_queue")]

    def __str__(self) -> str:
        return f"{self.user_a.username} · {self.user_b.username}"


class FlagRole(models.TextChoices):
    PARTNERS = "partners", _("Partners")
    OPPONENTS = "opponents", _("Opponents")


class FlagMatch(models.Model):
    """A match of a flagged pair shown with its evidence (the newest, the partners'
    first), with its replay a link away."""

    flag = models.ForeignKey(
        PairFlag, on_delete=models.CASCADE, related_name="matches", verbose_name=_("flag")
    )
    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    role = models.CharField(_("sat as"), max_length=10, choices=FlagRole.choices)
    mode = models.CharField(_("mode"), max_length=16)
    finished_at = models.DateTimeField(_("finished at"))
    # A won (as partners: the pair won).
    a_won = models.BooleanField(_("A won"))
    # Close decisions of the pair in it and the whole deal's choices among them.
    close = models.PositiveSmallIntegerField(_("close decisions"), default=0)
    hits = models.PositiveSmallIntegerField(_("whole deal's choice"), default=0)
    # Coins moved from A to B through the pot (stake tables as opponents).
    coins_a_to_b = models.IntegerField(_("coins from A to B"), default=0)

    class Meta:
        verbose_name = _("match of a flagged pair")
        verbose_name_plural = _("matches of a flagged pair")
        ordering = ["-finished_at"]
        constraints = [
            models.UniqueConstraint(fields=["flag", "match"], name="fairplay_flag_match_once")
        ]

    def __str__(self) -> str:
        return f"{self.flag_id}: match {self.match_id}"


class ScreenRun(models.Model):
    """One run of the screen (nightly by beat, or `manage.py fairplay_screen`)."""

    started_at = models.DateTimeField(_("started at"), db_index=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # The moment the window ends at (the run's "now").
    until = models.DateTimeField(_("window ends at"))
    candidates = models.PositiveIntegerField(_("candidate pairs"), default=0)
    pair_matches = models.PositiveIntegerField(_("pairs' matches screened"), default=0)
    baseline_matches = models.PositiveIntegerField(_("baseline matches screened"), default=0)
    flags_new = models.PositiveIntegerField(_("pairs flagged"), default=0)
    flags_updated = models.PositiveIntegerField(_("flags updated"), default=0)
    seconds = models.FloatField(_("seconds"), default=0)

    class Meta:
        verbose_name = _("screen run")
        verbose_name_plural = _("screen runs")
        ordering = ["-started_at"]

    def __str__(self) -> str:
        return f"{self.started_at:%Y-%m-%d %H:%M}"

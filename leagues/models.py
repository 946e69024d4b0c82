"""League rows: divisions, weeks, the points each match earned, running totals and the archive.

`LeaguePoints` is the source: one row per (user, match), written by
`services.league_points_record`. `LeagueScore` is its per-week sum, kept in the
same transaction so that standings are an index range scan, never a GROUP BY
over a million rows. `LeagueStanding` is the frozen result of a closed week.
"""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from leagues.weeks import league_time_zone, week_label


class Division(models.IntegerChoices):
    # Ordered: promotion is +1, relegation −1.
    BRONZE = 1, _("Bronze")
    SILVER = 2, _("Silver")
    GOLD = 3, _("Gold")
    DIAMOND = 4, _("Diamond")

    @property
    def key(self) -> str:
        return self.name.lower()


class Movement(models.IntegerChoices):
    DOWN = -1, _("moved down")
    STAY = 0, _("stayed")
    UP = 1, _("moved up")


class LeagueMembership(models.Model):
    """The division a user plays in. Created by a post_save signal for new users."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        primary_key=True,
        related_name="league_membership",
        verbose_name=_("user"),
    )
    division = models.PositiveSmallIntegerField(
        _("division"), choices=Division.choices, default=Division.BRONZE
    )
    updated_at = models.DateTimeField(_("updated at"), auto_now=True)

    class Meta:
        verbose_name = _("league membership")
        verbose_name_plural = _("league memberships")
        constraints = [
            models.CheckConstraint(
                condition=models.Q(division__gte=Division.BRONZE, division__lte=Division.DIAMOND),
                name="leagues_membership_division_valid",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.get_division_display()}"


class WeekStatus(models.TextChoices):
    OPEN = "open", _("open")
    CLOSED = "closed", _("closed")


class LeagueWeek(models.Model):
    starts_at = models.DateTimeField(_("starts at"), unique=True)
    ends_at = models.DateTimeField(_("ends at"))
    status = models.CharField(
        _("status"), max_length=8, choices=WeekStatus.choices, default=WeekStatus.OPEN
    )
    closed_at = models.DateTimeField(_("closed at"), null=True, blank=True)
    players = models.PositiveIntegerField(_("players"), default=0)
    promoted = models.PositiveIntegerField(_("promoted"), default=0)
    relegated = models.PositiveIntegerField(_("relegated"), default=0)
    prizes_paid = models.PositiveBigIntegerField(_("coins in prizes"), default=0)
    # {"1": players ranked in Bronze, …}: the archive pages' sizes, fixed at close.
    division_players = models.JSONField(_("players per division"), default=dict, blank=True)

    class Meta:
        verbose_name = _("league week")
        verbose_name_plural = _("league weeks")
        ordering = ["-starts_at"]
        permissions = [("close_leagueweek", _("Can close a league week"))]
        indexes = [models.Index(fields=["status", "starts_at"], name="leagues_week_status_start")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ends_at__gt=models.F("starts_at")),
                name="leagues_week_ends_after_start",
            ),
            models.CheckConstraint(
                condition=models.Q(status="open", closed_at__isnull=True)
                | models.Q(status="closed", closed_at__isnull=False),
                name="leagues_week_closed_at_iff_closed",
            ),
        ]

    def __str__(self) -> str:
        return self.label

    @property
    def monday(self) -> date:
        return self.starts_at.astimezone(league_time_zone()).date()

    @property
    def label(self) -> str:
        return week_label(self.monday)

    @property
    def is_closed(self) -> bool:
        return self.status == WeekStatus.CLOSED


class LeaguePoints(models.Model):
    """League points one user earned in one match; the seam the online-match code calls."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user")
    )
    match_id = models.BigIntegerField(_("match"))
    week = models.ForeignKey(LeagueWeek, on_delete=models.PROTECT, verbose_name=_("week"))
    points = models.PositiveIntegerField(_("points"))
    # The player's pair won the match: "more matches won that week" breaks ties.
    won = models.BooleanField(_("won"), default=False)
    finished_at = models.DateTimeField(_("finished at"))
    created_at = models.DateTimeField(_("recorded at"), auto_now_add=True)

    # Not a column: league_points_record sets it on the rows it returns (True when the
    # row was already there and nothing was added).
    replayed: bool

    class Meta:
        verbose_name = _("league points")
        verbose_name_plural = _("league points")
        constraints = [
            models.UniqueConstraint(fields=["user", "match_id"], name="leagues_points_once"),
            models.CheckConstraint(condition=models.Q(points__gt=0), name="leagues_points_pos"),
        ]
        indexes = [models.Index(fields=["week", "user"], name="leagues_points_week_user")]

    def __str__(self) -> str:
        return f"{self.user} · match {self.match_id} · {self.points}"


class LeagueScore(models.Model):
    """A user's running total for one week (the sum of their LeaguePoints rows in it).

    `wins` and `reached_at` order equal points at the close (docs/league.md):
    more matches won that week first, then whoever reached the total earlier
    (the finish time of the latest match counted).
    """

    week = models.ForeignKey(LeagueWeek, on_delete=models.CASCADE)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    division = models.PositiveSmallIntegerField(choices=Division.choices)
    points = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    reached_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["week", "user"], name="leagues_score_once"),
        ]
        indexes = [
            # Standings: top of a division, a player's rank and the rows around them.
            models.Index(
                fields=["week", "division", "-points", "user"], name="leagues_score_board"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.week_id} · {self.user_id} · {self.points}"


class LeagueScoreCount(models.Model):
    """How many players of a division have exactly `points` this week (a histogram).

    Kept with LeagueScore by league_points_record, so a player's rank and a
    division's size are sums over a few hundred rows instead of counts over
    tens of thousands. Rows are locked in (week, division, points) order.
    """

    week = models.ForeignKey(LeagueWeek, on_delete=models.CASCADE)
    division = models.PositiveSmallIntegerField(choices=Division.choices)
    points = models.PositiveIntegerField()
    players = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["week", "division", "points"], name="leagues_scorecount_once"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.week_id} · {self.division} · {self.points}: {self.players}"


class LeagueStanding(models.Model):
    """The archived final standing of one player in one closed week."""

    week = models.ForeignKey(
        LeagueWeek, on_delete=models.PROTECT, related_name="standings", verbose_name=_("week")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, verbose_name=_("user")
    )
    division = models.PositiveSmallIntegerField(_("division"), choices=Division.choices)
    rank = models.PositiveIntegerField(_("rank"))
    points = models.PositiveIntegerField(_("points"))
    prize = models.PositiveIntegerField(_("prize"), default=0)
    movement = models.SmallIntegerField(_("movement"), choices=Movement.choices)

    class Meta:
        verbose_name = _("league standing")
        verbose_name_plural = _("league standings")
        ordering = ["week", "division", "rank", "user"]
        constraints = [
            models.UniqueConstraint(fields=["week", "user"], name="leagues_standing_once"),
        ]
        indexes = [
            models.Index(
                fields=["week", "division", "rank", "user"], name="leagues_standing_board"
            ),
            models.Index(fields=["user", "week"], name="leagues_standing_user"),
        ]

    def __str__(self) -> str:
        return f"{self.week} · {self.user} · #{self.rank}"

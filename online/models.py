"""The matchmaking queue, stake tables and the league points of online matches.

The queue lives in PostgreSQL: one row per waiting player (UNIQUE user), taken
by the matchmaker with SELECT … FOR UPDATE SKIP LOCKED (docs/online.md).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class QueueEntry(models.Model):
    """A player waiting to be matched. The row is deleted when they are seated or leave."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.CASCADE,
        related_name="queue_entry",
    )
    joined_at = models.DateTimeField(_("joined at"), db_index=True)

    class Meta:
        verbose_name = _("queued player")
        verbose_name_plural = _("queued players")
        ordering = ["joined_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user_id} since {self.joined_at:%H:%M:%S}"


class StakeTable(models.Model):
    """The stake and the fill deadline of a games.Table in stake mode."""

    table = models.OneToOneField(
        "games.Table",
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="stake_info",
        verbose_name=_("table"),
    )
    stake = models.PositiveIntegerField(_("stake"))
    expires_at = models.DateTimeField(_("cancelled if not full by"), db_index=True)

    class Meta:
        verbose_name = _("stake table")
        verbose_name_plural = _("stake tables")

    def __str__(self) -> str:
        return f"table {self.table_id} · {self.stake}"


class StakeSitting(models.Model):
    """One time a player sat at a stake table; its pk names the stake and refund keys,
    so a player who leaves and sits again stakes again (and is refunded again)."""

    table = models.ForeignKey(
        StakeTable, on_delete=models.CASCADE, related_name="sittings", verbose_name=_("table")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.PROTECT,
        related_name="stake_sittings",
        verbose_name=_("player"),
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    sat_at = models.DateTimeField(_("sat at"))
    left_at = models.DateTimeField(_("left at"), null=True, blank=True)

    class Meta:
        verbose_name = _("stake sitting")
        verbose_name_plural = _("stake sittings")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "user"],
                condition=Q(left_at__isnull=True),
                name="online_one_open_sitting_per_player",
            )
        ]

    def __str__(self) -> str:
        return f"{self.user_id} at {self.table_id}"


class MatchLeaguePoints(models.Model):
    """The league points one seat earned in an online or stake match (0 for bots and
    abandoners), stored with the match; `halved` when a bot filled a seat."""

    match = models.ForeignKey(
        "games.Match",
        on_delete=models.CASCADE,
        related_name="league_points",
        verbose_name=_("match"),
    )
    position = models.PositiveSmallIntegerField(_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="match_league_points",
        verbose_name=_("player"),
    )
    place = models.PositiveSmallIntegerField(_("place"))
    points = models.PositiveSmallIntegerField(_("league points"))
    halved = models.BooleanField(_("halved (a bot sat)"), default=False)

    class Meta:
        verbose_name = _("league points of a match")
        verbose_name_plural = _("league points of matches")
        ordering = ["match", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "position"], name="online_league_points_one_per_seat"
            )
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.position}: {self.points}"


class QueueSeating(models.Model):
    """A player seated from the online queue: how long they waited and how many bots
    filled their table (the staff's live view; its Prometheus twin is
    ops.metrics.QUEUE_SEAT_SECONDS)."""

    seated_at = models.DateTimeField(_("seated at"), db_index=True)
    waited_ms = models.PositiveIntegerField(_("waited (ms)"))
    table = models.ForeignKey(
        "games.Table", on_delete=models.CASCADE, related_name="+", verbose_name=_("table")
    )
    bot_seats = models.PositiveSmallIntegerField(_("bot seats at the table"))

    class Meta:
        verbose_name = _("seating from the queue")
        verbose_name_plural = _("seatings from the queue")

    def __str__(self) -> str:
        return f"{self.table_id} after {self.waited_ms} ms"

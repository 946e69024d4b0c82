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
    # The registered partner this player queued with (their row names this player
    # back): the queue seats the two together (docs/online.md, "Partners in the
    # queue"). None alone; when the partner's row is gone, this player waits alone.
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("queued with"),
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        verbose_name = _("queued player")
        verbose_name_plural = _("queued players")
        ordering = ["joined_at", "pk"]

    def __str__(self) -> str:
        return f"{self.user_id} since {self.joined_at:%H:%M:%S}"


class QueueInvitation(models.Model):
    """A player asks a registered partner to join the queue with them; the partner
    answers from the lobby (docs/online.md, "Partners in the queue"). One invitation
    sent per player at a time (a new one replaces it); any answer deletes the row."""

    from_user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        verbose_name=_("from"),
        on_delete=models.CASCADE,
        related_name="queue_invitation_sent",
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("to"),
        on_delete=models.CASCADE,
        related_name="queue_invitations",
    )
    created_at = models.DateTimeField(_("sent at"))

    class Meta:
        verbose_name = _("invitation to queue together")
        verbose_name_plural = _("invitations to queue together")
        constraints = [
            models.CheckConstraint(
                condition=~Q(from_user=models.F("to_user")), name="online_queue_invite_not_self"
            )
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} → {self.to_user_id}"


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
    # The reputation a player needs to sit here, in percent (0: anyone), chosen by the
    # player who opened the table: both shares (matches finished, and finished without
    # a turn timed out) at least this (docs/fairplay.md).
    min_reputation = models.PositiveSmallIntegerField(
        _("minimum reputation (%)"), default=0, db_default=0
    )

    class Meta:
        verbose_name = _("stake table")
        verbose_name_plural = _("stake tables")
        constraints = [
            models.CheckConstraint(
                condition=Q(min_reputation__lte=100), name="online_stake_min_reputation_0_100"
            )
        ]

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


class Conduct(models.TextChoices):
    LEFT = "left", _("Left the match")
    ABSENT = "absent", _("Away too long")
    CLEAN = "clean", _("Finished cleanly")
    LATE = "late", _("Finished with a turn timed out")


#: The conducts that abandon a match.
ABANDONING = (Conduct.LEFT, Conduct.ABSENT)


class MatchConduct(models.Model):
    """How one person ended one rated or stake match, as the ladder of waits counts it
    (docs/fairplay.md, "Reputation and quitting"): left or away too long (an
    abandonment, perhaps forgiven), or finished cleanly or with a turn timed out (only
    for a player on a step of the ladder). At most one row per person and match: a
    redelivered settlement or abandonment counts once."""

    match = models.ForeignKey(
        "games.Match", on_delete=models.CASCADE, related_name="+", verbose_name=_("match")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="match_conduct",
        verbose_name=_("player"),
    )
    conduct = models.CharField(_("conduct"), max_length=8, choices=Conduct.choices)
    at = models.DateTimeField(_("at"))
    # An abandonment by absence with no other abandonment in the window: a first
    # disconnect, which climbs no step.
    forgiven = models.BooleanField(_("forgiven"), default=False)
    # The player's step on the ladder after this match, and the wait it started.
    step = models.PositiveSmallIntegerField(_("step after it"), default=0)
    wait_until = models.DateTimeField(_("no rated play until"), null=True, blank=True)

    class Meta:
        verbose_name = _("conduct in a match")
        verbose_name_plural = _("conduct in matches")
        ordering = ["-at", "-pk"]
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="online_conduct_once")
        ]
        indexes = [models.Index(fields=["user", "at"], name="online_conduct_user_at")]

    def __str__(self) -> str:
        return f"{self.user_id} in match {self.match_id}: {self.conduct}"


class QuitStanding(models.Model):
    """Where a player stands on the ladder of waits (one row, written with
    MatchConduct rows under its lock): `step` abandonments counted (less those
    forgiven by clean matches), `clean_matches` finished cleanly since the last step
    change, the wait in force, and the abandonment the player has not yet been told
    about (shown on the lobby and the queue page until they dismiss it)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="quit_standing",
        verbose_name=_("player"),
    )
    step = models.PositiveSmallIntegerField(_("step"), default=0)
    clean_matches = models.PositiveSmallIntegerField(
        _("clean matches towards the next step off"), default=0
    )
    last_counted_at = models.DateTimeField(_("last abandonment counted"), null=True, blank=True)
    wait_until = models.DateTimeField(_("no rated play until"), null=True, blank=True)
    notice = models.ForeignKey(
        MatchConduct,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        verbose_name=_("abandonment to tell the player about"),
    )

    class Meta:
        verbose_name = _("standing on the ladder of waits")
        verbose_name_plural = _("standings on the ladder of waits")

    def __str__(self) -> str:
        return f"{self.user_id}: step {self.step}"

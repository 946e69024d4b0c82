"""Tables, seats, invitations, matches, their hands and the append-only action log.

The database is the authority: a match is rebuilt exactly from its rule set,
seed, first dealer, the stored deals (`GameHand`) and the action log
(`MatchAction`). `Match.record` is a cached copy of the engine record, an
optimisation only (see `games.selectors.engine_match`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class Mode(models.TextChoices):
    PRACTICE = "practice", _("Practice")
    FRIENDS = "friends", _("Friends")
    ONLINE = "online", _("Online")
    STAKE = "stake", _("Stake table")


class RuleSetName(models.TextChoices):
    ONLINE = "online", _("Online rules")
    CLASSIC = "classic", _("Classic rules")


class BotLevel(models.TextChoices):
    EASY = "easy", _("Easy")
    MEDIUM = "medium", _("Medium")
    HARD = "hard", _("Hard")


class TableStatus(models.TextChoices):
    OPEN = "open", _("Waiting for players")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


LIVE_STATUSES = (TableStatus.OPEN, TableStatus.PLAYING)


class Table(models.Model):
    mode = models.CharField(_("mode"), max_length=16, choices=Mode.choices)
    rules = models.CharField(
        _("rule set"), max_length=16, choices=RuleSetName.choices, default=RuleSetName.ONLINE
    )
    bot_level = models.CharField(
        _("bot level"), max_length=8, choices=BotLevel.choices, default=BotLevel.EASY
    )
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("owner"),
        on_delete=models.PROTECT,
        related_name="owned_tables",
    )
    status = models.CharField(
        _("status"), max_length=16, choices=TableStatus.choices, default=TableStatus.OPEN
    )
    # Sequence number of the last event broadcast for this table (every frame carries it).
    seq = models.PositiveBigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("table")
        verbose_name_plural = _("tables")
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_mode_display()}"

    @property
    def is_live(self) -> bool:
        return self.status in LIVE_STATUSES


class SeatKind(models.TextChoices):
    EMPTY = "empty", _("Empty")
    HUMAN = "human", _("Player")
    BOT = "bot", _("Bot")


class Seat(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    position = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=SeatKind.choices, default=SeatKind.EMPTY)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
    )
    # True while this seat holds its user at a live table: the database keeps a
    # user at one live table at a time through the partial unique constraint below.
    live = models.BooleanField(default=False)
    connections = models.PositiveIntegerField(default=0)
    # Set when the last connection of a seated player drops, when they have not
    # connected within ABSENCE_CONNECT_GRACE_SECONDS of the start, or after
    # ABSENCE_AFTER_TIMEOUTS turns in a row ran out; a bot plays meanwhile.
    absent_since = models.DateTimeField(null=True, blank=True)
    # Last sign of life of this seat's sockets: set on connect and refreshed by the
    # heartbeat of every web process serving one (games.presence). `connections` is
    # counted by the processes themselves, so a process that dies leaves it high; the
    # sweep treats a seat not heard from for PRESENCE_STALE_SECONDS as disconnected.
    seen_at = models.DateTimeField(default=timezone.now)
    abandoned = models.BooleanField(default=False)
    # The player's reliability (games.hooks) when they sat down, shown beside the name.
    reliability = models.PositiveSmallIntegerField(null=True, blank=True)
    # Turns in a row this seat's player let run out; ABSENCE_AFTER_TIMEOUTS makes them absent.
    timeouts_in_row = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["table", "position"], name="games_seat_unique_position"
            ),
            models.UniqueConstraint(
                fields=["user"], condition=Q(live=True), name="games_seat_one_live_table_per_user"
            ),
            models.CheckConstraint(condition=Q(position__lte=3), name="games_seat_position_0_3"),
            models.CheckConstraint(
                condition=Q(kind="human", user__isnull=False)
                | (~Q(kind="human") & Q(user__isnull=True) & Q(live=False)),
                name="games_seat_user_iff_human",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table_id}/{self.position}"

    @property
    def bot_controlled(self) -> bool:
        """A bot moves for this seat: a bot seat, an absent or an abandoning player."""
        return self.kind != SeatKind.HUMAN or self.abandoned or self.absent_since is not None


class InvitationStatus(models.TextChoices):
    PENDING = "pending", _("Pending")
    ACCEPTED = "accepted", _("Accepted")
    DECLINED = "declined", _("Declined")
    CANCELLED = "cancelled", _("Cancelled")


class Invitation(models.Model):
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="invitations")
    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_sent"
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations_received"
    )
    status = models.CharField(
        max_length=16, choices=InvitationStatus.choices, default=InvitationStatus.PENDING
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")
        constraints = [
            models.UniqueConstraint(
                fields=["table", "to_user"],
                condition=Q(status="pending"),
                name="games_invitation_one_pending",
            )
        ]

    def __str__(self) -> str:
        return f"{self.from_user_id} → {self.to_user_id} ({self.status})"


class MatchStatus(models.TextChoices):
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")
    ABORTED = "aborted", _("Aborted")


class Match(models.Model):
    table = models.ForeignKey(Table, on_delete=models.PROTECT, related_name="matches")
    rules = models.CharField(max_length=16, choices=RuleSetName.choices)
    seed = models.BigIntegerField()
    first_dealer = models.PositiveSmallIntegerField()
    status = models.CharField(
        max_length=16, choices=MatchStatus.choices, default=MatchStatus.PLAYING
    )
    # State version: the number of actions applied. A client's action names it.
    version = models.PositiveIntegerField(default=0)
    hand_no = models.PositiveSmallIntegerField(default=1)
    score_a = models.PositiveSmallIntegerField(default=0)
    score_b = models.PositiveSmallIntegerField(default=0)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    to_play = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_deadline = models.DateTimeField(null=True, blank=True)
    # Cached engine record (Match.to_dict()); rebuildable from hands and actions.
    record = models.JSONField(default=dict)
    started_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        # Not on turn_deadline (nor any other column a move writes): with no index
        # touched, PostgreSQL updates the row in place (a HOT update), so a move adds
        # no index entries and its dead row versions are pruned without VACUUM. The
        # sweep finds the playing matches by status and filters their deadline.
        indexes = [models.Index(fields=["status"], name="games_match_status_idx")]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.score_a}–{self.score_b})"


class GameHand(models.Model):
    """One dealt hand: the dealer, the four hands in dealing order, scores before it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    number = models.PositiveSmallIntegerField()
    dealer = models.PositiveSmallIntegerField()
    deal = models.JSONField()
    trump = models.CharField(max_length=4)
    scores_before = models.JSONField()

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="games_hand_unique_number")
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} hand {self.number}"


class ActionSource(models.TextChoices):
    PLAYER = "player", _("Player")
    BOT = "bot", _("Bot")
    TIMEOUT = "timeout", _("Time out")


class MatchAction(models.Model):
    """The append-only log: action number n moved the match from version n-1 to n."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="actions")
    number = models.PositiveIntegerField()
    hand_no = models.PositiveSmallIntegerField()
    seat = models.PositiveSmallIntegerField()
    action = models.CharField(max_length=12)
    source = models.CharField(max_length=8, choices=ActionSource.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="games_action_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.number}: seat {self.seat} {self.action}"


class MatchSeat(models.Model):
    """Who sat where in a match and, once it is over, how it went for them."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="match_seats")
    position = models.PositiveSmallIntegerField()
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="match_seats",
    )
    is_bot = models.BooleanField(default=False)
    abandoned = models.BooleanField(default=False)
    personal_points = models.IntegerField(default=0)
    tricks_won = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    won = models.BooleanField(null=True)

    class Meta:
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "position"], name="games_matchseat_unique_position"
            )
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.position}"

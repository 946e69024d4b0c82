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
    DAILY = "daily", _("Daily deal")
    # A position from an analysed match, played out from the middle of a hand (coach).
    POSITION = "position", _("Position practice")
    # A game of a tournament (the tournaments app seats it).
    TOURNAMENT = "tournament", _("Tournament")


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
    seq = models.PositiveBigIntegerField(default=0, verbose_name=_("event number"))
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("created at"))
    # The web processes holding sockets of this table, space-separated ids
    # (games/fanout/listeners.py). Read with the row's lock by every move: when the mover's
    # process is the only one, its frames are delivered in-process, not over Redis.
    listeners = models.TextField(
        default="", blank=True, editable=False, verbose_name=_("web processes with sockets")
    )
    # A friends room its owner opened to watchers (docs/watching.md); online and stake
    # tables are open to watch unless one of their players forbade it (Seat).
    open_to_watch = models.BooleanField(
        default=False, db_default=False, verbose_name=_("open to watch")
    )

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
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="seats", verbose_name=_("table")
    )
    position = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    kind = models.CharField(
        max_length=8, choices=SeatKind.choices, default=SeatKind.EMPTY, verbose_name=_("kind")
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="seats",
        verbose_name=_("player"),
    )
    # True while this seat holds its user at a live table: the database keeps a
    # user at one live table at a time through the partial unique constraint below.
    live = models.BooleanField(default=False, verbose_name=_("connected"))
    connections = models.PositiveIntegerField(default=0, verbose_name=_("open connections"))
    # `connections` by the web process holding them ({process id: sockets}; their sum is
    # `connections`): the sweep drops the part of a process that stopped beating
    # (`WebProcess`), so a killed process's sockets stop counting within
    # WEB_PROCESS_STALE_SECONDS. Written with the seat's row locked, as `connections`.
    sockets = models.JSONField(default=dict, blank=True)
    # Set when the last connection of a seated player drops, when they have not
    # connected within ABSENCE_CONNECT_GRACE_SECONDS of the start, or after
    # ABSENCE_AFTER_TIMEOUTS turns in a row ran out; a bot plays meanwhile.
    absent_since = models.DateTimeField(null=True, blank=True, verbose_name=_("absent since"))
    # Last sign of life of this seat's sockets: set on connect and refreshed by the
    # heartbeat of every web process serving one (games.sockets.heartbeat). `connections` is
    # counted by the processes themselves, so a process that dies leaves it high; the
    # sweep treats a seat not heard from for PRESENCE_STALE_SECONDS as disconnected.
    seen_at = models.DateTimeField(default=timezone.now, verbose_name=_("last seen at"))
    # Its last socket was closed by a web process's restart (4500): not a no-show
    # before this, while its page reconnects to another process.
    reconnect_by = models.DateTimeField(null=True, blank=True)
    abandoned = models.BooleanField(default=False, verbose_name=_("abandoned"))
    # The player's reputation (games.hooks.seat_reputation) when they sat down, shown
    # beside the name: the share of their matches finished (`reliability`) and the share
    # finished without a timed-out turn (`on_time`), in percent (docs/fairplay.md).
    reliability = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("reliability")
    )
    on_time = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("finished without a timed-out turn")
    )
    # The player's rating (games.hooks) when they sat down and whether it was still
    # provisional: shown beside the name at rated tables.
    rating = models.IntegerField(null=True, blank=True, verbose_name=_("rating"))
    rating_provisional = models.BooleanField(default=False, verbose_name=_("provisional rating"))
    # Turns in a row this seat's player let run out; ABSENCE_AFTER_TIMEOUTS makes them absent.
    timeouts_in_row = models.PositiveSmallIntegerField(
        default=0, verbose_name=_("turns timed out in a row")
    )
    # The player sitting here forbade watchers when they sat (stake tables; the seat
    # forgets it when freed): nobody but staff may watch the table then.
    forbids_watchers = models.BooleanField(
        default=False, db_default=False, verbose_name=_("forbids watchers")
    )

    class Meta:
        verbose_name = _("seat")
        verbose_name_plural = _("seats")
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
    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="invitations", verbose_name=_("table")
    )
    from_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations_sent",
        verbose_name=_("invited by"),
    )
    to_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="invitations_received",
        verbose_name=_("invited player"),
    )
    status = models.CharField(
        max_length=16,
        choices=InvitationStatus.choices,
        default=InvitationStatus.PENDING,
        verbose_name=_("status"),
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("sent at"))

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
    table = models.ForeignKey(
        Table, on_delete=models.PROTECT, related_name="matches", verbose_name=_("table")
    )
    rules = models.CharField(max_length=16, choices=RuleSetName.choices, verbose_name=_("rule set"))
    seed = models.BigIntegerField(verbose_name=_("shuffle seed"))
    first_dealer = models.PositiveSmallIntegerField(verbose_name=_("first dealer"))
    status = models.CharField(
        max_length=16,
        choices=MatchStatus.choices,
        default=MatchStatus.PLAYING,
        verbose_name=_("status"),
    )
    # State version: the number of actions applied. A client's action names it.
    version = models.PositiveIntegerField(default=0, verbose_name=_("version"))
    hand_no = models.PositiveSmallIntegerField(default=1, verbose_name=_("hand number"))
    score_a = models.PositiveSmallIntegerField(default=0, verbose_name=_("score of pair 1"))
    score_b = models.PositiveSmallIntegerField(default=0, verbose_name=_("score of pair 2"))
    winner = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("winning pair"))
    to_play = models.PositiveSmallIntegerField(
        null=True, blank=True, verbose_name=_("seat to play")
    )
    turn_deadline = models.DateTimeField(null=True, blank=True, verbose_name=_("turn deadline"))
    # Cached engine record (Match.to_dict()); rebuildable from hands and actions.
    # A match started from a position ends after this hand (cuatrola.engine, "Positions").
    last_hand = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("last hand"))
    record = models.JSONField(default=dict, verbose_name=_("record"))
    started_at = models.DateTimeField(auto_now_add=True, verbose_name=_("started at"))
    finished_at = models.DateTimeField(null=True, blank=True, verbose_name=_("finished at"))

    class Meta:
        verbose_name = _("match")
        verbose_name_plural = _("matches")
        # Not on turn_deadline (nor any other column a move writes): with no index
        # touched, PostgreSQL updates the row in place (a HOT update), so a move adds
        # no index entries and its dead row versions are pruned without VACUUM. The
        # sweep finds the playing matches by status and filters their deadline.
        # finished_at is written once, at the end (never by a move): the staff's live
        # view counts the last hour's finished matches by it (cuatrola_site/monitoring.py).
        indexes = [
            models.Index(fields=["status"], name="games_match_status_idx"),
            models.Index(fields=["finished_at"], name="games_match_finished_idx"),
        ]

    def __str__(self) -> str:
        return f"match {self.pk} ({self.score_a}–{self.score_b})"


class GameHand(models.Model):
    """One dealt hand: the dealer, the four hands in dealing order, scores before it."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="hands", verbose_name=_("match")
    )
    number = models.PositiveSmallIntegerField(verbose_name=_("number"))
    dealer = models.PositiveSmallIntegerField(verbose_name=_("dealer"))
    deal = models.JSONField(verbose_name=_("deal"))
    trump = models.CharField(max_length=4, verbose_name=_("trump card"))
    scores_before = models.JSONField(verbose_name=_("scores before the hand"))

    class Meta:
        verbose_name = _("hand")
        verbose_name_plural = _("hands")
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

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="actions", verbose_name=_("match")
    )
    number = models.PositiveIntegerField(verbose_name=_("number"))
    hand_no = models.PositiveSmallIntegerField(verbose_name=_("hand number"))
    seat = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    action = models.CharField(max_length=12, verbose_name=_("action"))
    source = models.CharField(
        max_length=8, choices=ActionSource.choices, verbose_name=_("played by")
    )
    created_at = models.DateTimeField(auto_now_add=True, verbose_name=_("played at"))

    class Meta:
        verbose_name = _("move")
        verbose_name_plural = _("moves")
        ordering = ["number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="games_action_unique_number")
        ]
        # The live view's moves a minute over the last hour; appended in time order, so
        # each insert adds to the index's rightmost page.
        indexes = [models.Index(fields=["created_at"], name="games_action_created_idx")]

    def __str__(self) -> str:
        return f"{self.number}: seat {self.seat} {self.action}"


class MatchSeat(models.Model):
    """Who sat where in a match and, once it is over, how it went for them."""

    match = models.ForeignKey(
        Match, on_delete=models.CASCADE, related_name="match_seats", verbose_name=_("match")
    )
    position = models.PositiveSmallIntegerField(verbose_name=_("seat"))
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="match_seats",
        verbose_name=_("player"),
    )
    is_bot = models.BooleanField(default=False, verbose_name=_("bot"))
    abandoned = models.BooleanField(default=False, verbose_name=_("abandoned"))
    # The player's turns whose clock ran out while they were present (a bot played the
    # move): turns played for them while away or after they left are not counted, and
    # those of a connection found lost are forgiven (docs/fairplay.md).
    timeouts = models.PositiveSmallIntegerField(
        default=0, db_default=0, verbose_name=_("turns timed out")
    )
    personal_points = models.IntegerField(default=0, verbose_name=_("personal points"))
    tricks_won = models.PositiveSmallIntegerField(default=0, verbose_name=_("tricks won"))
    place = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("place"))
    won = models.BooleanField(null=True, verbose_name=_("won"))

    class Meta:
        verbose_name = _("match seat")
        verbose_name_plural = _("match seats")
        ordering = ["position"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "position"], name="games_matchseat_unique_position"
            )
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} seat {self.position}"


class TalkLine(models.Model):
    """One thing said at a table: a fixed phrase (`phrase`, an id of
    games.words.talk_phrases) or, in a friends room while nobody holds cards, free text
    (`text`). Kept with the table and the match in play when it was said (none before
    the first deal)."""

    table = models.ForeignKey(
        Table, on_delete=models.CASCADE, related_name="talk", verbose_name=_("table")
    )
    match = models.ForeignKey(
        Match,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="talk",
        verbose_name=_("match"),
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="+",
        verbose_name=_("player"),
    )
    # None: said by a watcher, to the other watchers only (docs/watching.md).
    position = models.PositiveSmallIntegerField(null=True, blank=True, verbose_name=_("seat"))
    phrase = models.CharField(max_length=16, blank=True, verbose_name=_("phrase"))
    text = models.CharField(max_length=200, blank=True, verbose_name=_("text"))
    created_at = models.DateTimeField(verbose_name=_("said at"))

    class Meta:
        verbose_name = _("talk")
        verbose_name_plural = _("talk")
        indexes = [
            models.Index(fields=["table", "created_at"], name="games_talk_table_at"),
            models.Index(fields=["user", "created_at"], name="games_talk_user_at"),
        ]

    def __str__(self) -> str:
        return f"{self.user_id}@{self.table_id}: {self.phrase or self.text}"


class TalkMute(models.Model):
    """`user` does not want `muted`'s talk at this table (for its match)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    muted = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["table", "user", "muted"], name="games_mute_once")
        ]

    def __str__(self) -> str:
        return f"{self.user_id} mutes {self.muted_id}@{self.table_id}"


class WebProcess(models.Model):
    """A web process serving table sockets (`Seat.sockets` names it): written when it
    counts its first socket on a seat and every WEB_PROCESS_HEARTBEAT_SECONDS while it
    holds table sockets (games/sockets/heartbeat.py). One whose heartbeat is older than
    WEB_PROCESS_STALE_SECONDS died (killed, out of memory, a lost machine): the table
    sweep drops its sockets from the seats and deletes its row. A graceful exit deletes
    its own (docs/operations.md, "Mechanisms")."""

    id = models.CharField(primary_key=True, max_length=32)  # games.fanout.listeners.PROCESS_ID
    host = models.CharField(max_length=255, blank=True)
    pid = models.PositiveIntegerField(null=True, blank=True)
    started_at = models.DateTimeField(default=timezone.now)
    heartbeat_at = models.DateTimeField(default=timezone.now, db_index=True)

    def __str__(self) -> str:
        return f"{self.host}:{self.pid} ({self.id})"


class SweepClock(models.Model):
    """One row: when the table sweep last ran (`services.tables_sweep`). A sweep that
    finds it ran last longer ago than SWEEP_OUTAGE_SECONDS (beat, every worker or the
    database was down) gives the time lost back to the players' clocks before it
    judges any of them (docs/operations.md, "Mechanisms")."""

    swept_at = models.DateTimeField()
    # The end of the last outage: no-shows are not judged within the grace after it.
    resumed_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"swept at {self.swept_at.isoformat()}"

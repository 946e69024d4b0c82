"""Tournaments for pairs (docs/tournaments.md): a tournament and its recurring
schedule, the entries (a fixed pair, or a single waiting to be paired), the rounds,
each round's pairings (a tie between two entries, or a bye) and each game of a tie
(one games.Table of the `tournament` mode).

Only `tournaments.services` writes these rows; the format maths (pairings, standings,
brackets, prize shares) is pure, in `tournaments.formats`.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import BotLevel, RuleSetName


class Format(models.TextChoices):
    SWISS = "swiss", _("Swiss pairs")
    KNOCKOUT = "knockout", _("Knockout")
    ARENA = "arena", _("Arena")
    DUPLICATE = "duplicate", _("Duplicate pairs")


class TournamentState(models.TextChoices):
    SCHEDULED = "scheduled", _("Scheduled")
    REGISTRATION_OPEN = "registration_open", _("Registration open")
    REGISTRATION_CLOSED = "registration_closed", _("Registration closed")
    RUNNING = "running", _("Running")
    FINISHED = "finished", _("Finished")
    CANCELLED = "cancelled", _("Cancelled")


#: States in which the tournament has not ended.
LIVE_STATES = (
    TournamentState.SCHEDULED,
    TournamentState.REGISTRATION_OPEN,
    TournamentState.REGISTRATION_CLOSED,
    TournamentState.RUNNING,
)


def default_prize_shares() -> list[int]:
    return [500, 300, 200]


class TournamentTemplate(models.Model):
    """What a tournament and a recurring schedule share: its format and its rules."""

    name = models.CharField(_("name"), max_length=120)
    format = models.CharField(
        _("format"), max_length=16, choices=Format.choices, default=Format.SWISS
    )
    rules = models.CharField(
        _("rule set"), max_length=16, choices=RuleSetName.choices, default=RuleSetName.ONLINE
    )
    # The level of the bots that stand in for an absent player and play a bye.
    bot_level = models.CharField(
        _("bot level"), max_length=8, choices=BotLevel.choices, default=BotLevel.MEDIUM
    )
    # Swiss: the rounds played; knockout: ignored (the bracket decides); arena: ignored.
    rounds = models.PositiveSmallIntegerField(
        _("rounds"), default=5, validators=[MinValueValidator(1), MaxValueValidator(20)]
    )
    # Knockout: each tie is the best of this many matches (1 or 3).
    best_of = models.PositiveSmallIntegerField(
        _("best of"), default=1, choices=[(1, "1"), (3, "3")]
    )
    round_minutes = models.PositiveSmallIntegerField(
        _("round length (minutes)"), default=30, validators=[MinValueValidator(1)]
    )
    pause_minutes = models.PositiveSmallIntegerField(_("pause between rounds (minutes)"), default=2)
    # Coins each player pays to enter (0: free; a free tournament pays XP prizes).
    entry_fee = models.PositiveIntegerField(_("entry fee (coins per player)"), default=0)
    # XP shared by rank in a free tournament (by the same shares as coins).
    xp_pool = models.PositiveIntegerField(_("XP prize pool (free tournaments)"), default=0)
    # Entries (pairs), counted once singles are paired.
    min_entries = models.PositiveSmallIntegerField(
        _("minimum entries"), default=4, validators=[MinValueValidator(2)]
    )
    max_entries = models.PositiveSmallIntegerField(
        _("maximum entries"), default=64, validators=[MinValueValidator(2)]
    )
    # Shares of the prize pool by place, per mille, first to last (formats.prizes:
    # weights of their own total, so the whole pool is always paid).
    prize_shares = models.JSONField(
        _("prize shares (per mille by rank)"), default=default_prize_shares
    )
    # A club's tournament (docs/tournaments.md, "Club tournaments"): open to the
    # club's members only, listed to them; scheduled by its owner or admins.
    club_id = models.BigIntegerField(_("club id"), null=True, blank=True)

    class Meta:
        abstract = True


class TournamentSchedule(TournamentTemplate):
    """A recurring tournament: every `weekday` at `local_time` in `timezone` the beat
    creates the next Tournament from this template (once per start: the unique
    (schedule, starts_at) of Tournament)."""

    weekday = models.PositiveSmallIntegerField(
        _("weekday"),
        choices=[
            (0, _("Monday")),
            (1, _("Tuesday")),
            (2, _("Wednesday")),
            (3, _("Thursday")),
            (4, _("Friday")),
            (5, _("Saturday")),
            (6, _("Sunday")),
        ],
    )
    local_time = models.TimeField(_("local start time"))
    timezone = models.CharField(_("time zone"), max_length=64, default="Europe/Madrid")
    # Registration opens this many hours before the start and closes this many minutes
    # before it.
    registration_open_hours = models.PositiveSmallIntegerField(
        _("registration opens (hours before)"), default=72
    )
    registration_close_minutes = models.PositiveSmallIntegerField(
        _("registration closes (minutes before)"), default=5
    )
    active = models.BooleanField(_("active"), default=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("recurring tournament")
        verbose_name_plural = _("recurring tournaments")
        ordering = ["weekday", "local_time"]

    def __str__(self) -> str:
        return self.name


class Tournament(TournamentTemplate):
    """One tournament. State machine: scheduled → registration open → registration
    closed → running → finished, or cancelled (too few entries, or staff)."""

    state = models.CharField(
        _("state"),
        max_length=24,
        choices=TournamentState.choices,
        default=TournamentState.SCHEDULED,
        db_index=True,
    )
    schedule = models.ForeignKey(
        TournamentSchedule,
        verbose_name=_("recurring tournament"),
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="tournaments",
    )
    registration_opens_at = models.DateTimeField(_("registration opens at"))
    registration_closes_at = models.DateTimeField(_("registration closes at"))
    starts_at = models.DateTimeField(_("starts at"), db_index=True)
    # The round being played or last played (0: none yet).
    current_round = models.PositiveSmallIntegerField(_("current round"), default=0)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    cancelled_at = models.DateTimeField(_("cancelled at"), null=True, blank=True)
    # Why it was cancelled ("too_few_entries", "staff").
    cancel_reason = models.CharField(_("cancel reason"), max_length=32, blank=True)
    # When the registered players were told that registration closes soon (once).
    closing_noticed_at = models.DateTimeField(_("closing notice sent at"), null=True, blank=True)

    class Meta:
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")
        ordering = ["-starts_at", "-pk"]
        constraints = [
            models.UniqueConstraint(
                fields=["schedule", "starts_at"],
                condition=Q(schedule__isnull=False),
                name="tournaments_one_per_schedule_start",
            ),
            models.CheckConstraint(
                condition=Q(registration_opens_at__lte=models.F("registration_closes_at"))
                & Q(registration_closes_at__lte=models.F("starts_at")),
                name="tournaments_times_in_order",
            ),
            models.CheckConstraint(
                condition=Q(min_entries__lte=models.F("max_entries")),
                name="tournaments_min_le_max_entries",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def free(self) -> bool:
        return self.entry_fee == 0


class EntryState(models.TextChoices):
    REGISTERED = "registered", _("Registered")
    # A single merged into another entry at the close (now that entry's second player).
    MERGED = "merged", _("Paired with a partner")
    # A single left over at the close (nobody to pair with): fee refunded.
    UNPAIRED = "unpaired", _("No partner found")
    WITHDRAWN = "withdrawn", _("Withdrawn")
    # The tournament was cancelled: fee refunded.
    REFUNDED = "refunded", _("Refunded")


class Entry(models.Model):
    """A team: two players who registered together (a fixed pair), or a single waiting
    to be paired (`player_b` empty until the close)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="entries"
    )
    player_a = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="tournament_entries_a",
    )
    player_b = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("partner"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="tournament_entries_b",
    )
    # True: registered alone, paired by the tournament at the close.
    single = models.BooleanField(_("registered alone"), default=False)
    state = models.CharField(
        _("state"), max_length=16, choices=EntryState.choices, default=EntryState.REGISTERED
    )
    # Coins held in the tournament's escrow for each player of this entry.
    fee = models.PositiveIntegerField(_("fee held per player"), default=0)
    # The pair's rating at the close (the mean of both), for seeding and tie-breaks.
    rating = models.FloatField(_("rating"), default=0.0)
    registered_at = models.DateTimeField(_("registered at"))
    # Knockout: the round the entry lost its tie in (null: still in, or not knockout).
    eliminated_in = models.PositiveSmallIntegerField(
        _("eliminated in round"), null=True, blank=True
    )
    # Final standing (set when the tournament finishes).
    rank = models.PositiveIntegerField(_("final rank"), null=True, blank=True)
    prize_coins = models.PositiveIntegerField(_("prize (coins)"), default=0)
    prize_xp = models.PositiveIntegerField(_("prize (XP)"), default=0)

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        ordering = ["tournament", "pk"]
        indexes = [models.Index(fields=["tournament", "state"])]

    def __str__(self) -> str:
        return f"#{self.pk}"

    @property
    def player_ids(self) -> list[int]:
        return [pk for pk in (self.player_a_id, self.player_b_id) if pk is not None]


class EntryPlayer(models.Model):
    """A player holding a place in a tournament: the database refuses a player in two
    live entries of one tournament (a race of two registrations)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="+"
    )
    entry = models.ForeignKey(
        Entry, verbose_name=_("entry"), on_delete=models.CASCADE, related_name="players"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("player"),
        on_delete=models.PROTECT,
        related_name="tournament_places",
    )

    class Meta:
        verbose_name = _("entered player")
        verbose_name_plural = _("entered players")
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "user"], name="tournaments_player_once_per_tournament"
            )
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.user_id}"


class RoundState(models.TextChoices):
    # Paired at the previous round's end (its tables told), not seated yet.
    PAIRED = "paired", _("Paired")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")


class Round(models.Model):
    """Round `number` of a tournament; its row existing means it was paired (the
    unique (tournament, number) refuses a second pairing). A round after the first is
    paired when the previous one ends (state `paired`: its table numbers known and
    told) and seated at its start (`playing`)."""

    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="round_set"
    )
    number = models.PositiveSmallIntegerField(_("number"))
    state = models.CharField(
        _("state"), max_length=16, choices=RoundState.choices, default=RoundState.PLAYING
    )
    # Empty while the round is only paired.
    started_at = models.DateTimeField(_("started at"), null=True, blank=True)
    paired_at = models.DateTimeField(_("paired at"), null=True, blank=True)
    # The round's expected end, shown to players (its games always finish: bots stand in).
    ends_at = models.DateTimeField(_("expected end"))
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)
    # When the next round starts (set when this one finishes: finished_at + pause).
    next_starts_at = models.DateTimeField(_("next round starts at"), null=True, blank=True)

    class Meta:
        verbose_name = _("round")
        verbose_name_plural = _("rounds")
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="tournaments_round_once")
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id}/{self.number}"


class PairingState(models.TextChoices):
    # Its round is paired, not started yet: no table, no game.
    PAIRED = "paired", _("Waiting for the start")
    PLAYING = "playing", _("Playing")
    FINISHED = "finished", _("Finished")


class Pairing(models.Model):
    """A tie of a round: entry A (seats 0 and 2, pair 1) against entry B (seats 1
    and 3, pair 2), or a bye (`entry_b` empty). Its results: match points, victory
    points (Swiss), games won (knockout) and the winner."""

    round = models.ForeignKey(
        Round, verbose_name=_("round"), on_delete=models.CASCADE, related_name="pairings"
    )
    tournament = models.ForeignKey(
        Tournament, verbose_name=_("tournament"), on_delete=models.CASCADE, related_name="pairings"
    )
    # The table number players are told ("table 12"), from 1.
    number = models.PositiveSmallIntegerField(_("table number"))
    entry_a = models.ForeignKey(
        Entry, verbose_name=_("team A"), on_delete=models.PROTECT, related_name="+"
    )
    entry_b = models.ForeignKey(
        Entry,
        verbose_name=_("team B"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    state = models.CharField(
        _("state"), max_length=16, choices=PairingState.choices, default=PairingState.PLAYING
    )
    points_a = models.PositiveIntegerField(_("points of team A"), default=0)
    points_b = models.PositiveIntegerField(_("points of team B"), default=0)
    vp_a = models.PositiveSmallIntegerField(_("victory points of team A"), default=0)
    vp_b = models.PositiveSmallIntegerField(_("victory points of team B"), default=0)
    wins_a = models.PositiveSmallIntegerField(_("games won by team A"), default=0)
    wins_b = models.PositiveSmallIntegerField(_("games won by team B"), default=0)
    # Neither player of the team connected in time: bots played for them.
    no_show_a = models.BooleanField(_("team A did not show"), default=False)
    no_show_b = models.BooleanField(_("team B did not show"), default=False)
    winner = models.ForeignKey(
        Entry,
        verbose_name=_("winner"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    finished_at = models.DateTimeField(_("finished at"), null=True, blank=True)

    class Meta:
        verbose_name = _("pairing")
        verbose_name_plural = _("pairings")
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "number"], name="tournaments_table_number_once"
            ),
            models.UniqueConstraint(fields=["round", "entry_a"], name="tournaments_entry_a_once"),
            models.UniqueConstraint(
                fields=["round", "entry_b"],
                condition=Q(entry_b__isnull=False),
                name="tournaments_entry_b_once",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.round}#{self.number}"

    @property
    def bye(self) -> bool:
        return self.entry_b_id is None


class Game(models.Model):
    """One match of a tie, played at its own table of the `tournament` mode (a tie of
    a best-of-three knockout has up to three)."""

    pairing = models.ForeignKey(
        Pairing, verbose_name=_("pairing"), on_delete=models.CASCADE, related_name="games"
    )
    number = models.PositiveSmallIntegerField(_("game number"), default=1)
    table = models.OneToOneField(
        "games.Table",
        verbose_name=_("table"),
        on_delete=models.PROTECT,
        related_name="tournament_game",
    )
    match = models.ForeignKey(
        "games.Match",
        verbose_name=_("match"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    points_a = models.PositiveIntegerField(_("points of team A"), null=True, blank=True)
    points_b = models.PositiveIntegerField(_("points of team B"), null=True, blank=True)
    # "a" or "b" once the match finished.
    winner = models.CharField(_("winner"), max_length=1, blank=True)
    recorded_at = models.DateTimeField(_("recorded at"), null=True, blank=True)

    class Meta:
        verbose_name = _("game")
        verbose_name_plural = _("games")
        ordering = ["pairing", "number"]
        constraints = [
            models.UniqueConstraint(fields=["pairing", "number"], name="tournaments_game_once")
        ]

    def __str__(self) -> str:
        return f"{self.pairing}/{self.number}"

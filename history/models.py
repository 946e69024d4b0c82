"""One line per person per finished match: what the history and player pages aggregate.

A `PlayerMatch` is written in the settlement transaction of the match (the games
app's `match_finished` signal), from the match's seats and its engine record, and
never changed after. It copies what the pages filter and sum on (mode, rule set,
date, outcome, partner, opponents) and the figures of the player's hands, so a
player page or a filtered history page reads one index range of this table instead
of joining every seat and replaying every match.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.models import Mode, RuleSetName


class Outcome(models.TextChoices):
    WON = "won", _("Won")
    LOST = "lost", _("Lost")
    ABANDONED = "abandoned", _("Abandoned")


class PlayerMatch(models.Model):
    match = models.ForeignKey("games.Match", on_delete=models.CASCADE, related_name="+")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField()
    mode = models.CharField(max_length=16, choices=Mode.choices)
    rules = models.CharField(max_length=16, choices=RuleSetName.choices)
    finished_at = models.DateTimeField()
    # An abandoner's match is a loss in the record and "abandoned" here (as recorded
    # on the match seat at settlement).
    outcome = models.CharField(max_length=10, choices=Outcome.choices)
    partner = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+"
    )
    opponent_1 = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+"
    )
    opponent_2 = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.CASCADE, related_name="+"
    )
    own_score = models.PositiveSmallIntegerField(default=0)
    other_score = models.PositiveSmallIntegerField(default=0)
    place = models.PositiveSmallIntegerField(null=True)
    # The player's turns that ran out while they were present (the match seat's
    # `timeouts`): a match finished with one is not "on time" in the reputation.
    timeouts = models.PositiveSmallIntegerField(default=0, db_default=0)
    # The player's hands (history.figures): contracts bid, played and made, contracts
    # broken as a defender, and the pass hands.
    hands = models.PositiveSmallIntegerField(default=0)
    solo_bids = models.PositiveSmallIntegerField(default=0)
    solo_played = models.PositiveSmallIntegerField(default=0)
    solo_made = models.PositiveSmallIntegerField(default=0)
    cuatrola_bids = models.PositiveSmallIntegerField(default=0)
    cuatrola_played = models.PositiveSmallIntegerField(default=0)
    cuatrola_made = models.PositiveSmallIntegerField(default=0)
    quintola_bids = models.PositiveSmallIntegerField(default=0)
    quintola_played = models.PositiveSmallIntegerField(default=0)
    quintola_made = models.PositiveSmallIntegerField(default=0)
    defended = models.PositiveSmallIntegerField(default=0)
    broken = models.PositiveSmallIntegerField(default=0)
    pass_hands = models.PositiveSmallIntegerField(default=0)
    pass_card_points = models.PositiveIntegerField(default=0)
    pass_last_tricks = models.PositiveSmallIntegerField(default=0)
    declared_40 = models.PositiveSmallIntegerField(default=0)
    declared_20 = models.PositiveSmallIntegerField(default=0)

    class Meta:
        verbose_name = _("player's match")
        verbose_name_plural = _("players' matches")
        constraints = [
            models.UniqueConstraint(fields=["match", "user"], name="history_playermatch_once"),
            models.CheckConstraint(
                condition=Q(position__lte=3), name="history_playermatch_position_0_3"
            ),
        ]
        indexes = [
            # The history page (newest first, any filter) and every sum of the player page.
            # On PostgreSQL it also carries the filtered columns (migration 0003), so a
            # filtered history is counted and paged from the index alone.
            models.Index(
                fields=["user", "-finished_at", "-match"], name="history_pm_user_finished"
            ),
            # The reputation (matches not abandoned, and finished without a timed-out
            # turn) counted from the index alone.
            models.Index(fields=["user", "outcome", "timeouts"], name="history_pm_user_reput"),
        ]

    def __str__(self) -> str:
        return f"match {self.match_id} / user {self.user_id}"

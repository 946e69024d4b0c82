"""Reads of the coach for pages: a match's analysis, the day's allowance, the trends,
and the practised positions with what was chosen there. Nothing here writes."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.models import User
from coach.judge import INACCURACY
from coach.models import Analysis, AnalysisStatus, Decision, Practice, SeatSummary
from coach.services import analyses_unlimited, analyses_used_today
from games.models import ActionSource, MatchAction, MatchSeat, MatchStatus
from games.selectors import match_names


@dataclass
class Coaching:
    """A match's analysis as its page shows it (None: never asked for)."""

    analysis: Analysis | None
    #: Judged decisions stored so far, by move number (the replay's step).
    decisions: dict[int, Decision] = field(default_factory=dict)
    #: Each seat's summary, by position, once the analysis is done.
    seats: list[SeatSummary] = field(default_factory=list)

    @property
    def done(self) -> bool:
        return self.analysis is not None and self.analysis.status == AnalysisStatus.DONE


def match_coaching(match_id: int) -> Coaching:
    """The analysis of `match_id` with its decisions and seat summaries: one query
    when there is none, three when there is."""
    analysis = Analysis.objects.filter(match_id=match_id).first()
    if analysis is None:
        return Coaching(None)
    decisions = {d.number: d for d in Decision.objects.filter(analysis=analysis)}
    seats = []
    if analysis.status == AnalysisStatus.DONE:
        seats = list(SeatSummary.objects.filter(analysis=analysis).order_by("position"))
    return Coaching(analysis, decisions, seats)


def finished_match_seats(match_id: int) -> tuple[list[MatchSeat], list[str]] | None:
    """The seats of a finished match and each seat's name as the table named it (a
    seat nobody had: "Seat n"); None for any other match. Two queries."""
    seats = list(
        MatchSeat.objects.filter(match_id=match_id, match__status=MatchStatus.FINISHED)
        .select_related("user")
        .order_by("position")
    )
    if not seats:
        return None
    named = match_names([match_id]).get(match_id, [None] * 4)
    names = [name or _("Seat %(n)s") % {"n": position + 1} for position, name in enumerate(named)]
    return seats, names


def decision_match(decision_id: int) -> int | None:
    """The match id of a judged decision."""
    return (
        Decision.objects.filter(pk=decision_id).values_list("analysis__match_id", flat=True).first()
    )


@dataclass(frozen=True)
class Allowance:
    """How many analyses a person may still ask for today."""

    unlimited: bool
    limit: int
    used: int

    @property
    def left(self) -> int:
        return max(0, self.limit - self.used)


def allowance(*, user: User, now: datetime) -> Allowance:
    limit = settings.COACH_DAILY_ANALYSES
    if analyses_unlimited(user=user, now=now):
        return Allowance(True, limit, 0)
    return Allowance(False, limit, analyses_used_today(user=user, now=now))


def may_request(*, user: User, match_seats: list[MatchSeat]) -> bool:
    """Whether `user` may have this match analysed: a player of it, or staff."""
    return bool(user.is_authenticated) and (
        user.is_staff or any(seat.user_id == user.pk for seat in match_seats)
    )


def accuracy_trend(*, user: User, limit: int = 20) -> list[SeatSummary]:
    """The player's seat in their last `limit` analysed matches, oldest first (with
    the match id on `analysis.match_id`). One query."""
    rows = list(
        SeatSummary.objects.filter(user=user, analysis__status=AnalysisStatus.DONE)
        .select_related("analysis")
        .order_by("-finished_at", "-analysis_id")[:limit]
    )
    rows.reverse()
    return rows


@dataclass(frozen=True)
class Attempt:
    """What was chosen at a practised position, and whether it was within the threshold."""

    action: str
    loss: float
    found: bool


def practice_of_table(table_id: int) -> Practice | None:
    return Practice.objects.select_related("decision__analysis").filter(table_id=table_id).first()


def practice_attempt(practice: Practice) -> Attempt | None:
    """The player's own choice at the practised position (None before they choose, or
    when a bot chose for them: their time ran out or they left)."""
    row = (
        MatchAction.objects.filter(
            match__table_id=practice.table_id,
            number=practice.number,
            seat=practice.decision.seat,
            source=ActionSource.PLAYER,
        )
        .values_list("action", flat=True)
        .first()
    )
    if row is None:
        return None
    return attempt_of(practice.decision, row)


def attempt_of(decision: Decision, action: str) -> Attempt:
    values = decision.values
    loss = max(values.values()) - values.get(action, min(values.values()))
    return Attempt(action=action, loss=round(loss, 6), found=loss < INACCURACY - 1e-9)


def practices_of(*, user: User, decision: Decision) -> list[Attempt | None]:
    """Every attempt the player made at this position, oldest first."""
    practices = list(
        Practice.objects.filter(decision=decision, user=user).order_by("created_at", "pk")
    )
    if not practices:
        return []
    chosen = dict(
        MatchAction.objects.filter(
            match__table_id__in=[p.table_id for p in practices],
            seat=decision.seat,
            source=ActionSource.PLAYER,
        )
        .filter(number__in={p.number for p in practices})
        .values_list("match__table_id", "action")
    )
    return [
        attempt_of(decision, chosen[p.table_id]) if p.table_id in chosen else None
        for p in practices
    ]

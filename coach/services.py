"""The coach's writers: asking for an analysis, running it, practising a position.

Keyword-only, typed; `analysis_request` and `practice_start` run in one
transaction each and refuse with a `CoachError` (or the games app's `GameError`
for a table) writing nothing. `analysis_run` is the task's body: it commits each
judged decision as it goes, so the page fills in while it works, and it is
idempotent (a finished analysis is never recomputed; one cut short resumes).
"""

from __future__ import annotations

import logging
import random
from datetime import datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from accounts.models import User
from coach import errors, hooks
from coach.judge import KINDS, DecisionPoint, Judgement, accuracy, decision_points, judge
from coach.models import Analysis, AnalysisStatus, Decision, Mark, Practice, SeatSummary
from coach.redeal import NoDealFits, redeal
from cuatrola.bots import BotError
from cuatrola.engine import EngineError
from economy.models import Effect
from economy.selectors import perk_active
from games import selectors as games_selectors
from games import services as games_services
from games.models import Match, MatchSeat, MatchStatus, Mode, Table
from games.modes import mode_policy

logger = logging.getLogger(__name__)


# --- asking ---------------------------------------------------------------------------


def day_start(now: datetime) -> datetime:
    """The start of `now`'s calendar day where the daily allowance is counted."""
    local = now.astimezone(ZoneInfo(settings.COACH_DAY_TIME_ZONE))
    return local.replace(hour=0, minute=0, second=0, microsecond=0)


def analyses_unlimited(*, user: User, now: datetime) -> bool:
    """Staff, and anyone with an active VIP pass, have no daily limit."""
    return user.is_staff or perk_active(user=user, effect=Effect.VIP, now=now)


def analyses_used_today(*, user: User, now: datetime) -> int:
    return Analysis.objects.filter(requested_by=user, requested_at__gte=day_start(now)).count()


def _analysable_match(user: User, match_id: Any) -> Match:
    if isinstance(match_id, bool) or not isinstance(match_id, int):
        raise errors.MatchNotFound()
    match = (
        Match.objects.select_related("table")
        .filter(pk=match_id, status=MatchStatus.FINISHED)
        .first()
    )
    if match is None:
        raise errors.MatchNotFound()
    if not mode_policy(match.table.mode).in_history:
        raise errors.NotAnalysable()
    if not user.is_staff and not MatchSeat.objects.filter(match=match, user=user).exists():
        raise errors.NotYourMatch()
    return match


def _stalled(analysis: Analysis, now: datetime) -> bool:
    """Under way for longer than any analysis takes: its worker died (or failed)."""
    stale = timedelta(seconds=settings.COACH_STALE_SECONDS)
    return (
        analysis.status == AnalysisStatus.RUNNING
        and analysis.started_at is not None
        and analysis.started_at < now - stale
    )


@transaction.atomic
def analysis_request(*, user: User, match_id: int, now: datetime | None = None) -> Analysis:
    """Ask for the analysis of a finished match of yours (staff: any match).

    A match is analysed once: asking again returns the stored (or queued) analysis
    and queues nothing more, unless it failed or stalled (then it is queued again,
    to resume). A new analysis counts against the day's allowance
    (`COACH_DAILY_ANALYSES`; unlimited for staff and with an active VIP pass);
    past it, DailyLimitReached and nothing is written.
    """
    now = now or timezone.now()
    match = _analysable_match(user, match_id)
    # One request at a time per person: two tabs cannot both take the last analysis.
    User.objects.select_for_update().filter(pk=user.pk).values_list("pk").first()
    existing = Analysis.objects.select_for_update().filter(match=match).first()
    if existing is not None:
        if existing.status == AnalysisStatus.FAILED or _stalled(existing, now):
            existing.status = AnalysisStatus.QUEUED
            existing.error = ""
            existing.started_at = None
            existing.save(update_fields=["status", "error", "started_at"])
            _queue(existing.pk)
        return existing
    if not analyses_unlimited(user=user, now=now):
        limit = settings.COACH_DAILY_ANALYSES
        if analyses_used_today(user=user, now=now) >= limit:
            raise errors.DailyLimitReached(limit=limit)
    try:
        with transaction.atomic():
            analysis = Analysis.objects.create(match=match, requested_by=user, requested_at=now)
    except IntegrityError:
        # Another player of the match asked at the same moment: theirs is the one.
        return Analysis.objects.get(match=match)
    _queue(analysis.pk)
    return analysis


def _queue(analysis_id: int) -> None:
    transaction.on_commit(lambda: hooks.analysis_queue(analysis_id))


# --- running --------------------------------------------------------------------------


@transaction.atomic
def _claim(analysis_id: int, now: datetime) -> Analysis | None:
    """The analysis, now marked running by this worker; None when there is nothing to
    do (unknown, done, or running elsewhere and not stalled)."""
    analysis = Analysis.objects.select_for_update().filter(pk=analysis_id).first()
    if analysis is None or analysis.status == AnalysisStatus.DONE:
        return None
    if analysis.status == AnalysisStatus.RUNNING and not _stalled(analysis, now):
        return None
    analysis.status = AnalysisStatus.RUNNING
    analysis.started_at = now
    analysis.error = ""
    analysis.save(update_fields=["status", "started_at", "error"])
    return analysis


def analysis_run(
    *, analysis_id: int, samples: int | None = None, now: datetime | None = None
) -> Analysis | None:
    """Judge every decision with a choice of the analysis's match, store each as it is
    judged, then each seat's summary; None when there was nothing to do.

    Decisions already stored (an analysis cut short and resumed) are kept, never
    judged again. A match the engine or the search cannot read marks the analysis
    failed, with the reason.
    """
    analysis = _claim(analysis_id, now or timezone.now())
    if analysis is None:
        return None
    if samples is None:
        samples = settings.COACH_SAMPLES
    found = games_selectors.finished_match(analysis.match_id)
    if found is None:  # the match stopped being a finished one: nothing to judge
        return _fail(analysis, "the match is not a finished match")
    try:
        points = decision_points(found.record)
        Analysis.objects.filter(pk=analysis.pk).update(decisions_total=len(points))
        stored = set(Decision.objects.filter(analysis=analysis).values_list("number", flat=True))
        done = len(stored)
        for point in points:
            if point.number in stored:
                continue
            judgement = judge(view=point.view, action=point.action, samples=samples)
            _store(analysis, point, judgement)
            done += 1
            Analysis.objects.filter(pk=analysis.pk).update(decisions_done=done)
    except (BotError, EngineError) as error:
        logger.warning("analysis %s failed: %s", analysis.pk, error)
        return _fail(analysis, str(error))
    seats_summarise(analysis=analysis, match_seats=found.seats, finished_at=found.match.finished_at)
    analysis.status = AnalysisStatus.DONE
    analysis.finished_at = timezone.now()
    analysis.decisions_total = analysis.decisions_done = len(points)
    analysis.save(update_fields=["status", "finished_at", "decisions_total", "decisions_done"])
    return analysis


def _fail(analysis: Analysis, reason: str) -> Analysis:
    analysis.status = AnalysisStatus.FAILED
    analysis.error = reason[:2000]
    analysis.save(update_fields=["status", "error"])
    return analysis


def _store(analysis: Analysis, point: DecisionPoint, judgement: Judgement) -> None:
    Decision.objects.bulk_create(
        [
            Decision(
                analysis=analysis,
                number=point.number,
                hand_no=point.hand_no,
                seat=point.seat,
                kind=point.kind,
                action=judgement.action,
                best=judgement.best,
                values=judgement.values,
                loss=judgement.loss,
                error=judgement.error,
                spread=judgement.spread,
                mark=judgement.mark,
                deals=judgement.deals,
            )
        ],
        ignore_conflicts=True,  # a second worker stored it first: the same judgement
    )


def seats_summarise(
    *, analysis: Analysis, match_seats: list[MatchSeat], finished_at: datetime | None
) -> list[SeatSummary]:
    """Each seat's accuracy, marks and points lost by kind, from the stored decisions."""
    decisions = list(Decision.objects.filter(analysis=analysis))
    rows = []
    users = {ms.position: ms.user_id for ms in match_seats}
    for position in range(4):
        mine = [d for d in decisions if d.seat == position]
        counts = dict.fromkeys(KINDS, 0)
        lost = dict.fromkeys(KINDS, 0.0)
        for d in mine:
            counts[d.kind] += 1
            lost[d.kind] += d.loss
        rows.append(
            SeatSummary(
                analysis=analysis,
                position=position,
                user_id=users.get(position),
                finished_at=finished_at or timezone.now(),
                accuracy=accuracy((d.loss, d.spread) for d in mine),
                judged=len(mine),
                inaccuracies=sum(d.mark == Mark.INACCURACY for d in mine),
                mistakes=sum(d.mark == Mark.MISTAKE for d in mine),
                blunders=sum(d.mark == Mark.BLUNDER for d in mine),
                bids=counts["bid"],
                leads=counts["lead"],
                follows=counts["follow"],
                lost_bids=round(lost["bid"], 3),
                lost_leads=round(lost["lead"], 3),
                lost_follows=round(lost["follow"], 3),
            )
        )
    SeatSummary.objects.bulk_create(rows, ignore_conflicts=True)
    return rows


# --- practising -----------------------------------------------------------------------


@transaction.atomic
def practice_start(*, user: User, decision_id: Any) -> Table:
    """A table at the position of one of your judged decisions: the hidden hands
    dealt again consistent with what you knew then, you in your seat, three hard
    bots; the hand is played out from there. Retry as often as you like.

    DecisionNotFound for no such decision (or an analysis not finished), and
    NotYourDecision when another seat made it; the games app refuses a second live
    table (AlreadyAtTable).
    """
    if isinstance(decision_id, bool) or not isinstance(decision_id, int):
        raise errors.DecisionNotFound()
    decision = (
        Decision.objects.select_related("analysis__match")
        .filter(pk=decision_id, analysis__status=AnalysisStatus.DONE)
        .first()
    )
    if decision is None:
        raise errors.DecisionNotFound()
    match = decision.analysis.match
    if not MatchSeat.objects.filter(match=match, position=decision.seat, user=user).exists():
        raise errors.NotYourDecision()
    found = games_selectors.finished_match(match.pk)
    if found is None:
        raise errors.DecisionNotFound()
    view = _view_before(found.record, decision.number)
    try:
        position = redeal(view, random.Random(random.SystemRandom().randrange(2**62)))
    except NoDealFits:
        logger.error("no deal fits decision %s", decision.pk)
        raise errors.DecisionNotFound() from None
    table = games_services.table_create_position(
        user=user,
        mode=Mode.POSITION,
        rules=match.rules,
        bot_level=settings.COACH_PRACTICE_BOT_LEVEL,
        seat=position.seat,
        position=games_services.StartPosition(
            dealer=position.dealer,
            scores=position.scores,
            deal=position.deal,
            actions=position.actions,
        ),
    )
    Practice.objects.create(
        decision=decision, user=user, table=table, number=len(position.actions) + 1
    )
    return table


def _view_before(record: dict[str, Any], number: int) -> dict[str, Any]:
    for point in decision_points(record):
        if point.number == number:
            return point.view
    raise errors.DecisionNotFound()


def practice_again(*, user: User, table: Table) -> Table:
    """Playing again at a practice table: the same position, dealt again."""
    practice = Practice.objects.filter(table=table, user=user).first()
    if practice is None:
        raise errors.PracticeNotFound()
    return practice_start(user=user, decision_id=practice.decision_id)

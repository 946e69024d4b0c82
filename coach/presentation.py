"""The coach's words and numbers in the reader's language: choices named with the
card names of `games.words.translated`, expected points written the reader's way
("−0,8" in Spanish, "−0.8" in English), and what the replay says on each step."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import pgettext, pgettext_lazy

from coach.judge import SYMBOLS, THRESHOLDS
from coach.models import AnalysisStatus, Decision, Mark
from coach.selectors import Coaching, allowance, may_request
from games.words.translated import bid_label, card_label

#: "Play the …" per rank, so a language can give each card its article ("el as",
#: "la sota"; "l'as", "le valet").
PLAY = {
    "1": pgettext_lazy("coach: play an ace", "Play the %(card)s"),
    "3": pgettext_lazy("coach: play a three", "Play the %(card)s"),
    "12": pgettext_lazy("coach: play a king", "Play the %(card)s"),
    "11": pgettext_lazy("coach: play a knight", "Play the %(card)s"),
    "10": pgettext_lazy("coach: play a jack", "Play the %(card)s"),
}
#: "the …" per rank: the best choice named after "best:".
THE = {
    "1": pgettext_lazy("coach: an ace", "the %(card)s"),
    "3": pgettext_lazy("coach: a three", "the %(card)s"),
    "12": pgettext_lazy("coach: a king", "the %(card)s"),
    "11": pgettext_lazy("coach: a knight", "the %(card)s"),
    "10": pgettext_lazy("coach: a jack", "the %(card)s"),
}


def mark_label(mark: str) -> str:
    return str(Mark(mark).label) if mark else ""


def choice_phrase(action: str) -> str:
    """The choice as something to do: "Play the ace of coins", "Pass", "Bid solo"."""
    if action == "pass":
        return pgettext("coach: the choice", "Pass")
    if action in ("solo", "cuatrola", "quintola"):
        return pgettext("coach: the choice", "Bid %(bid)s") % {"bid": bid_label(action)}
    return str(PLAY[action[:-1]]) % {"card": card_label(action)}


def choice_name(action: str) -> str:
    """The choice as a thing: "the ace of coins", "passing", "bidding solo"."""
    if action == "pass":
        return pgettext("coach: the best choice", "passing")
    if action in ("solo", "cuatrola", "quintola"):
        return pgettext("coach: the best choice", "bidding %(bid)s") % {"bid": bid_label(action)}
    return str(THE[action[:-1]]) % {"card": card_label(action)}


def points(value: float, *, signed: bool = True) -> str:
    """Expected match points to one decimal, the reader's way, with a real minus sign."""
    text = number_format(abs(value), decimal_pos=1)
    if not signed:
        return text
    if round(value, 1) == 0:
        return text
    return ("−" if value < 0 else "+") + text


def expected(value: float) -> str:
    return _("%(points)s expected points") % {"points": points(value)}


def step_note(decision: Decision) -> str:
    """What the replay says on the step of a judged decision, e.g. "Jugar el as de
    oros: −0,8 puntos esperados; mejor: el tres de oros"."""
    if decision.action == decision.best or decision.loss < 0.05:
        return _("%(choice)s: the best choice (%(expected)s)") % {
            "choice": choice_phrase(decision.action),
            "expected": expected(decision.values[decision.action]),
        }
    return _("%(choice)s: %(expected)s; best: %(best)s") % {
        "choice": choice_phrase(decision.action),
        "expected": expected(-decision.loss),
        "best": choice_name(decision.best),
    }


@dataclass(frozen=True)
class ChoiceLine:
    """One legal choice of a decision with what it was worth."""

    label: str
    value: str
    chosen: bool
    best: bool


def choice_lines(decision: Decision) -> list[ChoiceLine]:
    """Every legal choice of a decision, best first, with its expected points."""
    ordered = sorted(decision.values.items(), key=lambda item: -item[1])
    return [
        ChoiceLine(
            label=choice_phrase(action),
            value=points(value),
            chosen=action == decision.action,
            best=action == decision.best,
        )
        for action, value in ordered
    ]


def decision_info(decision: Decision, name: str) -> dict[str, Any]:
    """A judged decision as the replay and the summary show it."""
    return {
        "id": decision.pk,
        "step": decision.number,
        "hand_no": decision.hand_no,
        "seat": decision.seat,
        "name": name,
        "mark": decision.mark,
        "mark_label": mark_label(decision.mark) or pgettext("coach mark", "Good"),
        "symbol": SYMBOLS[decision.mark] or "✓",
        "note": step_note(decision),
        "loss": points(-decision.loss),
        "error": points(decision.error, signed=False),
        "deals": decision.deals,
        "choices": choice_lines(decision),
    }


def summary(
    *,
    user: Any,
    match_id: int,
    match_seats: list[Any],
    names: list[str],
    coaching: Coaching,
    now: datetime,
) -> dict[str, Any]:
    """What the coach's region of a match page shows: the button to ask (with the
    day's allowance), the progress, or each seat's figures and your own marks with a
    way to practise each position."""
    analysis = coaching.analysis
    may = may_request(user=user, match_seats=match_seats)
    mine = {s.position for s in match_seats if user.is_authenticated and s.user_id == user.pk}
    bots = {s.position for s in match_seats if s.user_id is None}
    context: dict[str, Any] = {
        "match_id": match_id,
        "analysis": analysis,
        "may_request": may,
        "poll_seconds": settings.COACH_POLL_SECONDS,
        "thresholds": [
            {"mark": mark, "label": mark_label(mark), "symbol": SYMBOLS[mark], "points": points(t)}
            for mark, t in reversed(THRESHOLDS)
        ],
    }
    if analysis is None:
        if may:
            context["allowance"] = allowance(user=user, now=now)
        return context
    context["stalled"] = analysis.status == AnalysisStatus.RUNNING and (
        analysis.started_at is not None
        and (now - analysis.started_at).total_seconds() > settings.COACH_STALE_SECONDS
    )
    context["percent"] = (
        round(100 * analysis.decisions_done / analysis.decisions_total)
        if analysis.decisions_total
        else 0
    )
    context["seats"] = [
        {
            "name": names[row.position],
            "position": row.position,
            "bot": row.position in bots,
            "mine": row.position in mine,
            "accuracy": row.accuracy,
            "judged": row.judged,
            "inaccuracies": row.inaccuracies,
            "mistakes": row.mistakes,
            "blunders": row.blunders,
        }
        for row in coaching.seats
    ]
    context["my_marks"] = [
        decision_info(d, names[d.seat])
        for d in coaching.decisions.values()
        if d.seat in mine and d.mark and coaching.done
    ]
    return context

"""The coach's pages: asking for an analysis, its progress, practising a position.

Thin: the services and selectors do the work. Refusals are the coach's errors,
shown where the request came from (the region for htmx, a message otherwise).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest
from coach import errors, selectors, services
from coach.judge import INACCURACY
from coach.presentation import choice_phrase, decision_info, points, summary
from games import errors as game_errors


def _region(
    request: HtmxHttpRequest, match_id: int, *, error: str | None = None, status: int = 200
) -> HttpResponse:
    found = selectors.finished_match_seats(match_id)
    if found is None:
        raise Http404
    match_seats, names = found
    coaching = selectors.match_coaching(match_id)
    context = summary(
        user=request.user,
        match_id=match_id,
        match_seats=match_seats,
        names=names,
        coaching=coaching,
        now=timezone.now(),
    )
    context["coach_error"] = error
    response = render(request, "coach/_summary.html", {"coach": context}, status=status)
    if coaching.analysis is not None:
        # The replay redraws with the marks judged so far (history/match.html).
        response["HX-Trigger"] = "coach-progress"
    return response


def _match_url(match_id: int) -> str:
    return reverse("history_match", args=[match_id]) + "#coach"


@login_required
@require_POST
def analyse(request: AuthenticatedHttpRequest, match_id: int) -> HttpResponse:
    try:
        services.analysis_request(user=request.user, match_id=match_id)
    except errors.CoachError as error:
        if error.status == 404:
            raise Http404 from None
        if request.htmx:
            return _region(request, match_id, error=error.message, status=error.status)
        messages.error(request, error.message)
        return redirect(_match_url(match_id))
    if request.htmx:
        return _region(request, match_id)
    return redirect(_match_url(match_id))


@require_GET
def status(request: HtmxHttpRequest, match_id: int) -> HttpResponse:
    """The coach's region of a match page: what the page polls while it works."""
    if not request.htmx:
        return redirect(_match_url(match_id))
    return _region(request, match_id)


@login_required
@require_POST
def practise(request: AuthenticatedHttpRequest, decision_id: int) -> HttpResponse:
    try:
        table = services.practice_start(user=request.user, decision_id=decision_id)
    except errors.CoachError as error:
        if error.status == 404:
            raise Http404 from None
        messages.error(request, error.message)
        return redirect(reverse("history"))
    except game_errors.GameError as error:  # already at another live table
        messages.error(request, error.message)
        decision = selectors.decision_match(decision_id)
        return redirect(_match_url(decision) if decision else reverse("history"))
    return redirect("games:table", table_id=table.pk)


@login_required
@require_GET
def practice_panel(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """What to find at a practised position, and whether the choice made was within
    the threshold: the region the table page redraws after every move."""
    practice = selectors.practice_of_table(table_id)
    if practice is None or practice.user_id != request.user.pk:
        raise Http404
    decision = practice.decision
    match_id = decision.analysis.match_id
    attempt = selectors.practice_attempt(practice)
    attempts = selectors.practices_of(user=request.user, decision=decision)
    context = {
        "practice": practice,
        "decision": decision_info(decision, request.user.username),
        "attempt": attempt,
        "chosen": choice_phrase(decision.action),
        "attempt_choice": choice_phrase(attempt.action) if attempt else "",
        "attempt_loss": points(-attempt.loss) if attempt else "",
        "tries": len(attempts),
        "found": sum(1 for a in attempts if a is not None and a.found),
        "match_id": match_id,
        "table_id": table_id,
        "threshold": points(INACCURACY, signed=False),
    }
    return render(request, "coach/_practice.html", context)

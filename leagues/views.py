"""League pages: one view, one template, HTMX swaps the region that changed."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone

from accounts.http import AuthenticatedHttpRequest, page_or_404, query_number
from leagues import selectors
from leagues.models import Division, LeagueStanding, LeagueWeek, WeekStatus


def _partial_or_page(
    request: AuthenticatedHttpRequest,
    template: str,
    partials: dict[str, str],
    context: dict[str, Any],
) -> HttpResponse:
    """The partial the HTMX request targets, else the whole page."""
    target = getattr(request, "htmx", None) and request.htmx.target
    if target in partials:
        return render(request, f"{template}#{partials[target]}", context)
    return render(request, template, context)


@login_required
def league(request: AuthenticatedHttpRequest) -> HttpResponse:
    now = timezone.now()
    weeks = list(selectors.league_closed_weeks()[: settings.LEAGUE_ARCHIVE_WEEKS_PER_PAGE])
    context = {
        "board": selectors.league_board(user=request.user, now=now),
        "last": selectors.league_last_result(user=request.user, week=weeks[0]) if weeks else None,
        "now": now,
        "weeks": weeks,
    }
    return _partial_or_page(
        request, "leagues/league.html", {"league-standings": "standings"}, context
    )


@login_required
def league_weeks(request: AuthenticatedHttpRequest) -> HttpResponse:
    paginator = Paginator(selectors.league_closed_weeks(), settings.LEAGUE_ARCHIVE_WEEKS_PER_PAGE)
    page = page_or_404(paginator, query_number(request, "page", default=1, minimum=1))
    return _partial_or_page(
        request, "leagues/weeks.html", {"league-weeks": "week_list"}, {"page": page}
    )


@login_required
def league_week(request: AuthenticatedHttpRequest, week_id: int) -> HttpResponse:
    week = get_object_or_404(LeagueWeek, pk=week_id, status=WeekStatus.CLOSED)
    own = selectors.league_archived_division_of(user=request.user, week=week)
    # Divisions are numbered without a gap (promotion is +1): one out of range is a 404.
    division = query_number(
        request,
        "division",
        default=own or Division.BRONZE,
        minimum=min(Division.values),
        maximum=max(Division.values),
    )
    paginator: Paginator[LeagueStanding] = Paginator(
        # django-stubs wants a sequence (int indexing, iteration); Paginator itself only
        # takes len() and slices, which is all ArchivedStandings offers on purpose.
        selectors.league_archived_standings(week=week, division=division),  # type: ignore[arg-type]
        settings.LEAGUE_ARCHIVE_STANDINGS_PER_PAGE,
    )
    page = page_or_404(paginator, query_number(request, "page", default=1, minimum=1))
    context = {
        "week": week,
        "division": division,
        "division_label": Division(division).label,
        "divisions": Division.choices,
        "division_query": f"division={division}&",
        "page": page,
    }
    return _partial_or_page(
        request, "leagues/week.html", {"league-archive": "archive_table"}, context
    )

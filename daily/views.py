"""The daily deal's pages (thin: services and selectors do the work)."""

from __future__ import annotations

from datetime import date

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest, query_number
from daily import errors, selectors, services
from daily.deals import DEALS
from daily.models import DailyDeal
from games.errors import GameError


def _date(value: str) -> date:
    """A date from the URL (already shaped YYYY-MM-DD): one that does not exist is a 404."""
    try:
        return date.fromisoformat(value)
    except ValueError:
        raise Http404("no such date") from None


@login_required
@require_GET
def home(request: AuthenticatedHttpRequest) -> TemplateResponse:
    view = selectors.day_view(user=request.user)
    rewards = {
        "xp": settings.DAILY_FINISH_XP,
        "coins": settings.DAILY_PRIZE_COINS,
        "percent": settings.DAILY_PRIZE_PERCENT,
    }
    return TemplateResponse(
        request, "daily/home.html", {"view": view, "deals_count": DEALS, "rewards": rewards}
    )


@login_required
@require_POST
def play(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Starts or resumes the player's next deal (the form names it: `deal`)."""
    raw = request.POST.get("deal", "")
    number = int(raw) if raw.isascii() and raw.isdigit() and len(raw) <= 2 else None
    if raw and number is None:
        messages.error(request, errors.DealNotYet().message)
        return redirect("daily:home")
    try:
        table = services.daily_play(user=request.user, number=number)
    except GameError as error:  # the daily deal's refusals, and games' AlreadyAtTable
        messages.error(request, error.message)
        return redirect("daily:home")
    return redirect("games:table", table_id=table.pk)


@login_required
@require_GET
def ranking_today(request: AuthenticatedHttpRequest) -> HttpResponse:
    today = services.day_of(timezone.now())
    return redirect("daily:ranking", day=today.isoformat())


@login_required
@require_GET
def ranking(request: AuthenticatedHttpRequest, day: str) -> TemplateResponse:
    when = _date(day)
    if when > services.day_of(timezone.now()):
        raise Http404("that day has not come yet")
    board = selectors.ranking(day=when, user=request.user)
    return TemplateResponse(request, "daily/ranking.html", {"board": board})


@login_required
@require_GET
def deal(request: AuthenticatedHttpRequest, day: str, number: int) -> TemplateResponse:
    when = _date(day)
    found = DailyDeal.objects.select_related("day").filter(day__date=when, number=number).first()
    if found is None:
        raise Http404("no such deal")
    visible, mine = selectors.deal_visible(deal=found, user=request.user)
    if not visible:
        return TemplateResponse(
            request,
            "daily/deal_hidden.html",
            {"deal": found, "message": errors.DealNotFinished().message},
            status=403,
        )
    moment = query_number(request, "at", default=0, minimum=0)
    view = selectors.deal_view(deal=found, mine=mine, moment=moment)
    if moment >= view.moments:
        raise Http404(f"no moment {moment}")
    partial = bool(request.htmx) and request.htmx.target == "replay"
    template = "daily/deal.html#replay" if partial else "daily/deal.html"
    return TemplateResponse(request, template, {"view": view, "deal": found})


@require_GET
def offline_deals(request: HttpRequest, day: str) -> JsonResponse:
    """A past day's deals for the offline practice (replayed unranked in the browser).
    Today's and later days' are refused: they are played here, once, for the ranking."""
    when = _date(day)
    if when >= services.day_of(timezone.now()):
        error = errors.DayNotOver()
        response = JsonResponse(
            {"error": error.code, "message": error.message, "daily": reverse("daily:home")},
            status=403,
        )
    else:
        response = JsonResponse(selectors.offline_deals(day=when))
    response["Cache-Control"] = "no-store"
    return response

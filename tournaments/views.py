"""Tournament pages (docs/tournaments.md, "Pages"). Thin: reads through the selectors,
each form calls one service.

- The list and a tournament's page are open to everyone; registering and withdrawing
  need a login (POST only).
- Live parts: a tournament's page polls its `tournament-live` region (standings,
  the round's tables, the bracket, the player's notice) with htmx every few seconds
  while the tournament runs (every minute before), and the view answers that
  request with the region alone.
- A form answers htmx with the page's `tournament-entry` region (the refusal or the
  notice in it, status 200: htmx swaps no 4xx answer); without JavaScript it
  redirects back (to the list when posted from there), the refusal or notice in
  Django's messages.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthenticatedHttpRequest, HtmxHttpRequest, query_number, query_text
from accounts.selectors import active_user_named
from tournaments import selectors
from tournaments.errors import InvalidTournament, PartnerUnknown, TournamentError
from tournaments.forms import ClubTournamentForm, RegisterForm
from tournaments.models import Tournament, TournamentState
from tournaments.services import tournament_register, tournament_withdraw
from tournaments.services.clubs import club_tournament_create

#: Seconds between two polls of a tournament's live region while it runs, and before.
POLL_RUNNING = 5
POLL_WAITING = 60


def _user_id(request: HtmxHttpRequest) -> int | None:
    user = request.user
    return user.pk if user.is_authenticated else None


def _tournament_or_404(tournament_id: int) -> Tournament:
    tournament = selectors.tournament_get(tournament_id)
    if tournament is None:
        raise Http404("no such tournament")
    return tournament


def _poll_seconds(tournament: Tournament) -> int | None:
    if tournament.state == TournamentState.RUNNING:
        return POLL_RUNNING
    if tournament.state in (TournamentState.FINISHED, TournamentState.CANCELLED):
        return None
    return POLL_WAITING


def _page_context(request: HtmxHttpRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    user_id = _user_id(request)
    # ?round=N draws that round's tables in full; ?standings=all every row.
    round_number = query_number(request, "round", minimum=1, maximum=tournament.current_round)
    everything = query_text(request, "standings", max_length=3) == "all"
    context: dict[str, Any] = {
        "page": selectors.tournament_page(
            tournament=tournament,
            user_id=user_id,
            round_number=round_number,
            everything=everything,
        ),
        "t": tournament,
        "now": timezone.now(),
        "poll": _poll_seconds(tournament),
        "partners": selectors.partner_choices(user_id) if user_id is not None else [],
        "form": RegisterForm(),
        "club": selectors.tournament_club(tournament),
    }
    context.update(extra)
    return context


@require_GET
def tournament_list(request: HtmxHttpRequest) -> HttpResponse:
    user_id = _user_id(request)
    context = {
        "lists": selectors.tournament_lists(user_id=user_id, now=timezone.now()),
        "now": timezone.now(),
        "partners": selectors.partner_choices(user_id) if user_id is not None else [],
    }
    return render(request, "tournaments/list.html", context)


@require_GET
def tournament_detail(request: HtmxHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    context = _page_context(request, tournament)
    if request.htmx and request.htmx.target == "tournament-live":
        return render(request, "tournaments/detail.html#live", context)
    return render(request, "tournaments/detail.html", context)


def _answer(
    request: AuthenticatedHttpRequest,
    tournament: Tournament,
    *,
    notice: str | None = None,
    error: str | None = None,
    form: RegisterForm | None = None,
) -> HttpResponse:
    if request.htmx:
        extra: dict[str, Any] = {"notice": notice, "error": error}
        if form is not None:
            extra["form"] = form
        context = _page_context(request, tournament, **extra)
        return render(request, "tournaments/detail.html#entry", context)
    if error:
        messages.error(request, error)
    elif notice:
        messages.success(request, notice)
    if request.POST.get("from") == "list":
        return redirect("tournaments:list")
    return redirect("tournaments:detail", tournament.pk)


@login_required
@require_POST
def register(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    form = RegisterForm(request.POST)
    if not form.is_valid():
        return _answer(
            request, tournament, error=_("Choose a partner from your friends, or none."), form=form
        )
    name = form.cleaned_data["partner"].strip()
    try:
        partner = None
        if name:
            partner = active_user_named(name)
            if partner is None:
                raise PartnerUnknown()
        tournament_register(tournament_id=tournament.pk, user=request.user, partner=partner)
    except TournamentError as refusal:
        return _answer(request, tournament, error=str(refusal.message), form=form)
    if partner is None:
        notice = _("You are registered. You will be paired with a partner of similar rating.")
    else:
        notice = _("You are registered with %(partner)s.") % {"partner": partner.username}
    return _answer(request, tournament, notice=notice)


@login_required
@require_POST
def withdraw(request: AuthenticatedHttpRequest, tournament_id: int) -> HttpResponse:
    tournament = _tournament_or_404(tournament_id)
    try:
        tournament_withdraw(tournament_id=tournament.pk, user=request.user)
    except TournamentError as refusal:
        return _answer(request, tournament, error=str(refusal.message))
    return _answer(request, tournament, notice=_("You have withdrawn. Any entry fee was refunded."))


@login_required
@require_GET
def table_panel(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    panel = selectors.table_tournament(table_id=table_id, user_id=request.user.pk)
    if panel is None:
        raise Http404("no tournament game at that table")
    return render(request, "tournaments/table_panel.html", {"panel": panel})


@login_required
@require_http_methods(["GET", "POST"])
def club_tournament_new(request: AuthenticatedHttpRequest, club_id: int) -> HttpResponse:
    """A club's owner or admins schedule a tournament for its members (anyone else:
    404, as the club's management page). A field out of bounds is said next to it
    (400, what was typed kept); a refusal of the service above the form."""
    club = selectors.club_run_by(club_id, request.user.pk)
    if club is None:
        raise Http404("not an admin of this club")
    if request.method == "GET":
        form = ClubTournamentForm(initial={"name": _("%(club)s tournament") % {"club": club.name}})
        return render(request, "tournaments/club_new.html", {"club": club, "form": form})
    form = ClubTournamentForm(request.POST)
    if form.is_valid():
        try:
            tournament = club_tournament_create(
                user=request.user, club_id=club.pk, **form.cleaned_data
            )
        except InvalidTournament as refusal:
            field = refusal.params.get("field")
            form.add_error(field if field in form.fields else None, refusal.message)
        except TournamentError as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(
                request,
                _("The tournament is scheduled: the club's members can register now."),
            )
            return redirect("tournaments:detail", tournament.pk)
    return render(request, "tournaments/club_new.html", {"club": club, "form": form}, status=400)

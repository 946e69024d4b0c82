"""Pages of online play: the queue and the stake tables. Thin: they call services."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest
from games.errors import GameError
from games.frames.live import linked_at_table
from games.frames.page import linked_text
from online import selectors, services
from online.errors import NotQueued, OnlineError
from online.forms import PartnerInviteForm, WatchersForm
from ratings.selectors import seat_rating
from social.selectors import blocked_usernames


def table_url(table_id: int) -> str:
    """The live table page (games app)."""
    return reverse("games:table", args=[table_id])


def _redirect(request: AuthenticatedHttpRequest, url: str) -> HttpResponse:
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


# --- the queue --------------------------------------------------------------------


def _play_context(request: AuthenticatedHttpRequest) -> dict[str, Any]:
    # The queue before the seat: a matchmaking pass takes a player out of the queue and
    # seats them in one commit, so one falling between the two reads leaves them
    # queued (the page polls on) or seated (it follows the seat), never neither.
    status = selectors.queue_status(user=request.user)
    table_id = selectors.live_table_id(user=request.user)
    return {
        "status": status,
        "partner_queue": selectors.partner_queue(user=request.user),
        "quit": selectors.quit_status(user=request.user),
        "live_table_id": table_id,
        "live_table_url": table_url(table_id) if table_id else None,
        "poll_seconds": settings.ONLINE_POLL_SECONDS,
    }


@login_required
@require_GET
def play(request: AuthenticatedHttpRequest) -> HttpResponse:
    context = _play_context(request)
    template = "online/play.html#queue" if request.htmx else "online/play.html"
    # Seated (perhaps by another player's join a moment ago): the page follows the
    # seat, never showing a static "you are seated" that would leave them behind.
    if context["live_table_url"] and not context["status"].queued:
        return _redirect(request, context["live_table_url"])
    if not request.htmx:  # the whole page (the queue's poll swaps its region only)
        value, provisional = seat_rating(request.user.pk)
        context["rating"] = {"value": value, "provisional": provisional}
    return TemplateResponse(request, template, context)


@login_required
@require_POST
def queue_join(request: AuthenticatedHttpRequest) -> HttpResponse:
    try:
        services.queue_join(user=request.user)
    except (OnlineError, GameError) as error:
        messages.error(request, error.message)
    else:
        # The matchmaking pass after the join may have seated them already.
        table_id = selectors.live_table_id(user=request.user)
        if table_id and (url := table_url(table_id)):
            return _redirect(request, url)
    return _redirect(request, reverse("online:play"))


@login_required
@require_POST
def queue_leave(request: AuthenticatedHttpRequest) -> HttpResponse:
    try:
        services.queue_leave(user=request.user)
    except NotQueued as error:
        messages.info(request, error.message)
    else:
        messages.success(request, _("You left the queue."))
    return _redirect(request, reverse("online:play"))


# --- queueing with a partner (docs/online.md, "Partners in the queue") -------------


@login_required
@require_POST
def queue_partner_invite(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Invites a standing partner to queue together; back to the lobby, which shows
    the invitation sent (and, once accepted, that the two wait in the queue)."""
    form = PartnerInviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _("Choose one of your partners."))
        return _redirect(request, reverse("games:lobby"))
    try:
        invitation = services.queue_partner_invite(
            user=request.user, username=form.cleaned_data["username"]
        )
    except (OnlineError, GameError) as error:
        messages.error(request, error.message)
    else:
        messages.success(
            request,
            _("%(name)s is invited to queue with you.") % {"name": invitation.to_user.username},
        )
    return _redirect(request, reverse("games:lobby"))


@login_required
@require_POST
def queue_partner_answer(
    request: AuthenticatedHttpRequest, invitation_id: str, answer: str
) -> HttpResponse:
    """Accepted: both wait in the queue, and the accepting player goes to the queue
    page (or their table, when the pass after the join seated them); declined or
    cancelled: back to the lobby."""
    user, pk = request.user, int(invitation_id)
    try:
        if answer == "accept":
            services.queue_partner_accept(user=user, invitation_id=pk)
        elif answer == "decline":
            services.queue_partner_decline(user=user, invitation_id=pk)
        else:
            services.queue_partner_cancel(user=user, invitation_id=pk)
    except (OnlineError, GameError) as error:
        messages.error(request, error.message)
        return _redirect(request, reverse("games:lobby"))
    if answer != "accept":
        return _redirect(request, reverse("games:lobby"))
    table_id = selectors.live_table_id(user=user)
    return _redirect(request, table_url(table_id) if table_id else reverse("online:play"))


# --- stake tables -------------------------------------------------------------------


@login_required
@require_GET
def stakes(request: AuthenticatedHttpRequest) -> HttpResponse:
    table_id = selectors.live_table_id(user=request.user)
    context = {
        "tables_by_stake": selectors.open_stake_tables(),
        "quit": selectors.quit_status(user=request.user),
        "blocked_names": blocked_usernames(request.user.pk),
        "live_table_id": table_id,
        "poll_seconds": settings.ONLINE_POLL_SECONDS * 2,
    }
    template = "online/stakes.html#tables" if request.htmx else "online/stakes.html"
    return TemplateResponse(request, template, context)


def _allow_watchers(request: AuthenticatedHttpRequest) -> bool | None:
    """The form's "let others watch" box (None: a value no browser sends, whose error
    is shown as a message)."""
    form = WatchersForm(request.POST)
    if not form.is_valid():
        for error in form.errors.get("allow_watchers", []):
            messages.error(request, str(error))
        return None
    allowed: bool = form.cleaned_data["allow_watchers"]
    return allowed


@login_required
@require_POST
def stake_open(request: AuthenticatedHttpRequest) -> HttpResponse:
    allow_watchers = _allow_watchers(request)
    if allow_watchers is None:
        return _redirect(request, reverse("online:stakes"))
    try:
        table = services.stake_table_open(
            user=request.user,
            stake=request.POST.get("stake"),
            allow_watchers=allow_watchers,
            min_reputation=request.POST.get("min_reputation"),
        )
    except (OnlineError, GameError) as error:
        messages.error(request, error.message)
        return _redirect(request, reverse("online:stakes"))
    return _redirect(request, reverse("online:stake_table", args=[table.pk]))


@login_required
@require_POST
def stake_sit(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    if request.POST.get("confirm") != "1" and _blocked_at(request, table_id):
        # Someone the user blocked sits there: the table's page says who, and sitting
        # takes one more click (docs/social.md).
        return _redirect(request, reverse("online:stake_table", args=[table_id]))
    allow_watchers = _allow_watchers(request)
    if allow_watchers is None:
        return _redirect(request, reverse("online:stake_table", args=[table_id]))
    try:
        services.stake_table_sit(
            user=request.user, table_id=table_id, allow_watchers=allow_watchers
        )
    except (OnlineError, GameError) as error:
        messages.error(request, error.message)
        return _redirect(request, reverse("online:stakes"))
    return _redirect(request, reverse("online:stake_table", args=[table_id]))


def _blocked_at(request: AuthenticatedHttpRequest, table_id: int) -> list[str]:
    """The names of the players at this stake table whom the user blocked."""
    view = selectors.stake_table_view(table_id=table_id, user=request.user)
    if view is None:
        return []
    blocked = blocked_usernames(request.user.pk)
    names = [s.user.username for s in view.seats if s.user is not None]
    return [name for name in names if name in blocked]


@login_required
@require_POST
def stake_leave(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    try:
        services.stake_table_leave(user=request.user, table_id=table_id)
    except (OnlineError, GameError) as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("You left the table; your stake was refunded."))
    return _redirect(request, reverse("online:stakes"))


@login_required
@require_GET
def stake_table(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    view = selectors.stake_table_view(table_id=table_id, user=request.user)
    if view is None:
        raise Http404(_("There is no such stake table."))
    live_url = table_url(table_id) if view.table.status == "playing" else None
    if live_url and view.seated:  # the page follows the seat, as the queue page does
        return _redirect(request, live_url)
    context = {
        "view": view,
        "blocked_here": _blocked_at(request, table_id),
        # Linked accounts sitting here, shown to everyone (docs/moderation.md).
        "linked": [linked_text(pair) for pair in linked_at_table(seats=view.seats)],
        "live_table_url": live_url,
        "poll_seconds": settings.ONLINE_POLL_SECONDS,
    }
    template = "online/stake_table.html#seats" if request.htmx else "online/stake_table.html"
    return TemplateResponse(request, template, context)


# --- the ladder of waits (docs/fairplay.md) -----------------------------------------


@login_required
@require_POST
def quit_notice_dismiss(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The player read what their last abandonment cost; back to the page they were on
    (one of this site's, else the queue page)."""
    services.quit_notice_dismiss(user=request.user)
    back = request.POST.get("next") or ""
    if not url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ) or not back.startswith("/"):
        back = reverse("online:play")
    return _redirect(request, back)

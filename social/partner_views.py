"""The partners page and its forms (docs/social.md, "Partners"). Thin: each form
calls one service; answered as the friends page's forms are (with htmx the page's
`partners` region, status 200; without, back to the page, the notice or error in
Django's messages)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest
from social import selectors, services
from social.errors import SocialError
from social.forms import PartnerMarkForm, PlayerForm
from social.models import Partnership


def _context(request: AuthenticatedHttpRequest, **extra: Any) -> dict[str, Any]:
    user = request.user
    pairs = selectors.partnerships_of(user.pk)
    context = {
        "standing": [p for p in pairs if p.standing],
        "dissolved": [p for p in pairs if not p.standing],
        "incoming": selectors.incoming_partner_requests(user.pk),
        "outgoing": selectors.outgoing_partner_requests(user.pk),
        "marks": selectors.partner_marks_of(user.pk),
        "friends": selectors.friends_to_ask(user.pk),
        "request_form": PlayerForm(),
        "mark_form": PartnerMarkForm(),
        "partners_max": settings.SOCIAL_PARTNERS_MAX,
    }
    context.update(extra)
    return context


def _answer(
    request: AuthenticatedHttpRequest,
    *,
    notice: str | None = None,
    error: str | None = None,
    status: int = 400,
    **extra: Any,
) -> HttpResponse:
    if request.htmx:  # 200 with the error in the region: htmx swaps no 4xx answer
        return render(
            request,
            "social/partners.html#partners",
            _context(request, notice=notice, error=error, **extra),
        )
    if error and extra:  # a typed form refused: the page again, holding what was typed
        return render(
            request,
            "social/partners.html",
            _context(request, error=error, **extra),
            status=status,
        )
    if error:
        messages.error(request, error, extra_tags="social")
    elif notice:
        messages.success(request, notice, extra_tags="social")
    return redirect("social:partners")


def _refused(name: str, refusal: SocialError) -> str:
    return _("“%(name)s”: %(reason)s") % {"name": name, "reason": refusal.message}


@login_required
@require_GET
def partners(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The page; with htmx its region only (the lobby socket says when it changed)."""
    template = "social/partners.html#partners" if request.htmx else "social/partners.html"
    return render(request, template, _context(request))


@login_required
@require_POST
def partner_request_send(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST)
    if not form.is_valid():
        return _answer(request, error=_("Write a player's username."), request_form=form)
    name = form.cleaned_data["username"]
    try:
        made = services.partner_request_send(user=request.user, username=name)
    except SocialError as refusal:
        return _answer(request, error=_refused(name, refusal), request_form=form)
    if isinstance(made, Partnership):
        return _answer(request, notice=_("You had asked each other: you are now partners."))
    return _answer(
        request, notice=_("Partner request sent to %(name)s.") % {"name": made.to_user.username}
    )


ANSWERS: dict[str, tuple[Callable[..., Any], Any]] = {
    "accept": (services.partner_request_accept, gettext_lazy("You are now partners.")),
    "decline": (services.partner_request_decline, gettext_lazy("Request declined.")),
    "cancel": (services.partner_request_cancel, gettext_lazy("Request cancelled.")),
}


@login_required
@require_POST
def partner_request_answer(
    request: AuthenticatedHttpRequest, request_id: str, answer: str
) -> HttpResponse:
    act, done = ANSWERS[answer]  # the URL admits these three only
    try:
        act(user=request.user, request_id=int(request_id))
    except SocialError as refusal:
        return _answer(request, error=refusal.message)
    return _answer(request, notice=str(done))


@login_required
@require_POST
def partnership_dissolve(request: AuthenticatedHttpRequest, pair_id: str) -> HttpResponse:
    try:
        services.partnership_dissolve(user=request.user, pair_id=int(pair_id))
    except SocialError as refusal:
        return _answer(request, error=refusal.message)
    return _answer(request, notice=_("The pair is dissolved; its matches stay on its page."))


@login_required
@require_POST
def partner_mark_set(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = PartnerMarkForm(request.POST)
    if not form.is_valid():
        return _answer(
            request,
            error=_("Write a player's username and choose a mark."),
            mark_form=form,
        )
    name = form.cleaned_data["username"]
    try:
        mark = services.partner_mark_set(
            user=request.user, username=name, kind=form.cleaned_data["kind"]
        )
    except SocialError as refusal:
        return _answer(request, error=_refused(name, refusal), mark_form=form)
    return _answer(
        request,
        notice=_("%(name)s: %(mark)s.")
        % {"name": mark.other.username, "mark": mark.get_kind_display()},
    )


@login_required
@require_POST
def partner_mark_remove(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = PlayerForm(request.POST)
    if not form.is_valid():
        return _answer(request, error=_("Write a player's username."))
    name = form.cleaned_data["username"]
    try:
        services.partner_mark_remove(user=request.user, username=name)
    except SocialError as refusal:
        return _answer(request, error=_refused(name, refusal))
    return _answer(request, notice=_("Mark removed."))

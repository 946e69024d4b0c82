"""The notifications page, the bell's count, the settings and push (un)subscribing.
Thin: each form calls one service."""

from __future__ import annotations

import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthenticatedHttpRequest
from notifications import cached, errors, kinds, selectors, services
from notifications.forms import SettingsForm


def _rows(user_id: int) -> list[dict[str, object]]:
    return [
        {"n": n, "sentence": kinds.sentence(n.kind, n.params)}
        for n in selectors.notifications_of(user_id)
    ]


def _list_response(request: AuthenticatedHttpRequest, template: str) -> HttpResponse:
    return render(
        request,
        template,
        {
            "rows": _rows(request.user.pk),
            "unread": cached.unread_count(request.user.pk),
        },
    )


@login_required
@require_GET
def notification_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _list_response(request, "notifications/list.html")


@login_required
@require_GET
def bell(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The bell, when the page had no cached count to draw it with."""
    return render(
        request,
        "notifications/_bell.html",
        {"notifications_unread": cached.unread_count(request.user.pk)},
    )


@require_GET
def unread(request: HttpRequest) -> HttpResponse:
    """The unread count as JSON, from the cache (counted once and cached when it is
    not there): what bell.js reads now and then on a page without the lobby socket.
    Signed out: 401, and the bell stops asking."""
    if not request.user.is_authenticated:
        return JsonResponse({"unread": None}, status=401)
    response = JsonResponse({"unread": cached.unread_count(request.user.pk)})
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def read(request: AuthenticatedHttpRequest, notification_id: str) -> HttpResponse:
    if not notification_id.isdigit() or len(notification_id) > 18:
        raise Http404
    try:
        services.notification_read(user=request.user, notification_id=int(notification_id))
    except errors.NotificationNotFound as missing:
        raise Http404 from missing
    if request.htmx:
        return _list_response(request, "notifications/_list.html")
    return redirect("notifications:list")


@login_required
@require_POST
def read_all(request: AuthenticatedHttpRequest) -> HttpResponse:
    services.notifications_read_all(user=request.user)
    if request.htmx:
        return _list_response(request, "notifications/_list.html")
    return redirect("notifications:list")


@login_required
@require_http_methods(["GET", "POST"])
def settings_page(request: AuthenticatedHttpRequest) -> HttpResponse:
    row = selectors.settings_of(request.user.pk)
    if request.method == "POST":
        form = SettingsForm(request.POST)
        if form.is_valid():
            data = form.cleaned_data
            services.settings_update(
                user=request.user,
                kinds_on=data["kinds_on"],
                quiet_start=data["quiet_start"],
                quiet_end=data["quiet_end"],
                timezone_name=data["timezone"],
                push_per_hour=data["push_per_hour"],
            )
            messages.success(request, _("Your notification settings are saved."))
            return redirect("notifications:settings")
    else:
        form = SettingsForm(
            initial={
                "kinds_on": [k for k in kinds.KINDS if kinds.enabled(k, row.kinds)],
                "quiet_start": row.quiet_start,
                "quiet_end": row.quiet_end,
                "timezone": row.timezone,
                "push_per_hour": row.push_per_hour,
            }
        )
    return render(request, "notifications/settings.html", {"form": form})


def _subscription(request: AuthenticatedHttpRequest) -> dict[str, str]:
    try:
        body = json.loads(request.body or b"{}")
        keys = body.get("keys") or {}
        return {
            "endpoint": str(body["endpoint"]),
            "p256dh": str(keys["p256dh"]),
            "auth": str(keys["auth"]),
        }
    except (ValueError, KeyError, TypeError, AttributeError) as bad:
        raise errors.BadSubscription() from bad


@login_required
@require_POST
def push_subscribe(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The browser's PushSubscription (its toJSON()), posted by static/js/push.js."""
    try:
        services.push_subscribe(user=request.user, **_subscription(request))
    except errors.BadSubscription as bad:
        return HttpResponseBadRequest(str(bad.message))
    return JsonResponse({"subscribed": True}, status=201)


@login_required
@require_POST
def push_unsubscribe(request: AuthenticatedHttpRequest) -> HttpResponse:
    try:
        endpoint = str(json.loads(request.body or b"{}")["endpoint"])
    except (ValueError, KeyError, TypeError):
        return HttpResponseBadRequest(str(errors.BadSubscription.message))
    services.push_unsubscribe(user=request.user, endpoint=endpoint)
    return JsonResponse({"subscribed": False})

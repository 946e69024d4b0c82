"""The friends page and its forms. Thin: each form calls one service.

With htmx a form swaps the page's `friends` region (the answer's notice or error
in it, with status 200: htmx swaps no 4xx answer); without JavaScript it posts and
is sent back to the page (302; a `next` on this site is followed), the notice or
error carried by Django's messages. A form that is not valid is an error too.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthenticatedHttpRequest, query_text
from games import services as games
from games.errors import GameError
from games.models import Mode, TableStatus
from games.selectors import live_table_for
from social import selectors, services
from social.errors import NoRoom, NotFriends, SocialError, UnknownPlayer
from social.forms import PlayerForm, PrivacyForm


def _my_open_room(user: Any) -> Any:
    """The friends room the user owns and is still filling, if any."""
    table = live_table_for(user)
    if (
        table is not None
        and table.mode == Mode.FRIENDS
        and table.status == TableStatus.OPEN
        and table.owner_id == user.pk
    ):
        return table
    return None


def _context(request: AuthenticatedHttpRequest, **extra: Any) -> dict[str, Any]:
    user = request.user
    privacy = selectors.privacy_of(user.pk)
    friends = selectors.friends_with_presence(user.pk)
    context = {
        "friends": friends,
        "incoming": selectors.incoming_requests(user.pk),
        "outgoing": selectors.outgoing_requests(user.pk),
        "blocked": selectors.blocked_list(user.pk),
        "room": _my_open_room(user),
        "watchable": selectors.friends_to_watch(user, friends),
        "request_form": PlayerForm(),
        "privacy_form": PrivacyForm(
            initial={
                "requests_from": privacy.requests_from,
                "show_table": privacy.show_table,
                "talk_hidden": privacy.talk_hidden,
            }
        ),
    }
    context.update(extra)
    return context


def _answer(
    request: AuthenticatedHttpRequest,
    *,
    notice: str | None = None,
    error: str | None = None,
    **extra: Any,
) -> HttpResponse:
    """The answer to a form: with htmx the region; without, back to the page it came
    from. A refusal of a form typed on this page (`extra` holds it, bound) is this page
    drawn again with the refusal and the typed name, with or without htmx."""
    if request.htmx:
        # 200 with the error in the region: htmx swaps no 4xx answer.
        context = _context(request, notice=notice, error=error, **extra)
        return render(request, "social/friends.html#friends", context)
    back = request.POST.get("next", "")
    back_allowed = bool(back) and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    )
    if error and extra and not back_allowed:
        context = _context(request, error=error, **extra)
        return render(request, "social/friends.html", context, status=400)
    # Tagged "social": the table page, which hides the site's messages, shows these in
    # its talk panel (a block confirmed from there comes back to it).
    if error:
        messages.error(request, error, extra_tags="social")
    elif notice:
        messages.success(request, notice, extra_tags="social")
    if back_allowed:
        return redirect(back)
    return redirect("social:friends")


def _with_player(
    request: AuthenticatedHttpRequest, act: Callable[[str], str], *, typed: str | None = None
) -> HttpResponse:
    """Validates the username form, runs `act(username)` (the notice it returns is
    shown), turns a refusal into the error shown, naming the player as written.
    `typed`: the context name of the page's form where the name was typed
    (`request_form`): refused, it is drawn again holding the name."""
    form = PlayerForm(request.POST)
    kept: dict[str, Any] = {typed: form} if typed else {}
    if not form.is_valid():
        return _answer(request, error=_("Write a player's username."), **kept)
    name = form.cleaned_data["username"]
    try:
        notice = act(name)
    except (SocialError, GameError) as refusal:
        # Named as typed: escaped where it is drawn (the region, the messages).
        error = _("“%(name)s”: %(reason)s") % {"name": name, "reason": refusal.message}
        return _answer(request, error=error, **kept)
    return _answer(request, notice=notice)


@login_required
@require_GET
def friends(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The page; with htmx its region only (the lobby socket says when it changed)."""
    template = "social/friends.html#friends" if request.htmx else "social/friends.html"
    return render(request, template, _context(request))


@login_required
@require_POST
def request_send(request: AuthenticatedHttpRequest) -> HttpResponse:
    def act(username: str) -> str:
        sent = services.friend_request_send(user=request.user, username=username)
        return _("Friend request sent to %(name)s.") % {"name": sent.to_user.username}

    return _with_player(request, act, typed="request_form")


@login_required
@require_POST
def request_answer(request: AuthenticatedHttpRequest, request_id: str, answer: str) -> HttpResponse:
    user, pk = request.user, int(request_id)
    try:
        if answer == "accept":
            services.friend_request_accept(user=user, request_id=pk)
            notice = _("You are now friends.")
        elif answer == "decline":
            services.friend_request_decline(user=user, request_id=pk)
            notice = _("Request declined.")
        else:
            services.friend_request_cancel(user=user, request_id=pk)
            notice = _("Request cancelled.")
    except SocialError as refusal:
        return _answer(request, error=refusal.message)
    return _answer(request, notice=notice)


@login_required
@require_POST
def friend_remove(request: AuthenticatedHttpRequest) -> HttpResponse:
    def act(username: str) -> str:
        services.friend_remove(user=request.user, username=username)
        return _("Removed from your friends.")

    return _with_player(request, act)


@login_required
@require_POST
def invite(request: AuthenticatedHttpRequest) -> HttpResponse:
    """Invites a friend to the room the user is filling (the room's own invitation)."""

    def act(username: str) -> str:
        friend = selectors.player_named(username)
        if friend is None or not selectors.are_friends(request.user.pk, friend.pk):
            raise NotFriends()
        room = _my_open_room(request.user)
        if room is None:
            raise NoRoom()
        games.invitation_create(user=request.user, table_id=room.pk, username=friend.username)
        return _("%(name)s is invited to your room.") % {"name": friend.username}

    return _with_player(request, act)


def _back(request: AuthenticatedHttpRequest, back: str) -> str:
    """`back` when it is an address of this site, else the friends page."""
    if back and url_has_allowed_host_and_scheme(
        back, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return back
    return reverse("social:friends")


@login_required
@require_http_methods(["GET", "POST"])
def block(request: AuthenticatedHttpRequest) -> HttpResponse:
    """GET: the confirmation (every Block button and link leads here, with or without
    JavaScript); POST: the block. A name that is no player is said on the page (404)."""
    if request.method == "GET":
        typed = query_text(request, "username", max_length=150) or ""
        player = selectors.player_named(typed)
        context: dict[str, Any] = {
            "player": player,
            "next": _back(request, request.GET.get("next", "")),
        }
        if player is None:
            refusal = UnknownPlayer().message
            context["error"] = _("“%(name)s”: %(reason)s") % {"name": typed, "reason": refusal}
            return render(request, "social/block_confirm.html", context, status=404)
        return render(request, "social/block_confirm.html", context)

    def act(username: str) -> str:
        done = services.block_add(user=request.user, username=username)
        return _("%(name)s is blocked.") % {"name": done.blocked.username}

    return _with_player(request, act)


@login_required
@require_POST
def unblock(request: AuthenticatedHttpRequest) -> HttpResponse:
    def act(username: str) -> str:
        services.block_remove(user=request.user, username=username)
        return _("Unblocked.")

    return _with_player(request, act)


@login_required
@require_POST
def privacy(request: AuthenticatedHttpRequest) -> HttpResponse:
    form = PrivacyForm(request.POST)
    if not form.is_valid():
        return _answer(request, error=_("Choose who may send you friend requests."))
    services.privacy_update(user=request.user, **form.cleaned_data)
    return _answer(request, notice=_("Settings saved."))


#: The follow page waiting for a friend to sit polls this often (docs/watching.md).
FOLLOW_POLL_SECONDS = 5


def _follow_reasons() -> dict[str, str]:
    return {
        "not_friend": _("This player is not one of your friends: you may follow friends only."),
        "hidden": _("%(name)s keeps where they play to themselves."),
        "not_playing": _(
            "%(name)s is not playing now. This page takes you to their table as soon as they sit."
        ),
        "closed": _(
            "%(name)s is playing at a table nobody may watch (practice, the daily deal "
            "or a private room)."
        ),
        "forbidden": _("The players at %(name)s's table do not let anyone watch it."),
        "playing_elsewhere": _(
            "You are playing a match of your own: you may watch %(name)s once it is over."
        ),
    }


@login_required
@require_GET
def follow(request: AuthenticatedHttpRequest, username: str) -> HttpResponse:
    """Follow a friend to the table they play at (docs/watching.md, "Pages"): there
    when the rules let the user watch it, else a page saying why. While the friend is
    not playing the page polls (htmx), and is sent to the table when they sit."""
    target = selectors.follow_target(user=request.user, username=username)
    if target.table_id is not None:
        url = reverse("games:table", args=[target.table_id])
        if not target.seated:
            url += "?" + urlencode({"follow": target.name})
        if request.htmx:
            response = HttpResponse(status=204)
            response["HX-Redirect"] = url
            return response
        return redirect(url)
    reasons = _follow_reasons()
    reason = target.reason or "not_friend"
    context = {
        "target": target,
        "reason": reason,
        "message": reasons.get(reason, reasons["not_friend"]) % {"name": target.name},
        "poll_seconds": FOLLOW_POLL_SECONDS,
    }
    if request.htmx:  # the poll: the region, 200 whatever the reason (htmx swaps no 4xx)
        return render(request, "social/follow.html#follow", context)
    status = {"not_friend": 404, "not_playing": 200}.get(reason, 403)
    return render(request, "social/follow.html", context, status=status)

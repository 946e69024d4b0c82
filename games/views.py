"""Lobby and table pages (thin: forms in, services called, partials out)."""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.forms import Form
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest, query_text
from games import errors, selectors, services
from games.fanout.presence import watchers_of
from games.forms import InviteForm, PracticeForm, RoomForm, RoomSettingsForm
from games.frames.page import board_context, table_facts
from games.frames.renderer_texts import table_strings
from games.hooks import link, page_sections
from games.models import Table
from games.modes import mode_policy
from games.words.talk_phrases import PHRASES


def _lobby_context(request: AuthenticatedHttpRequest, **extra: Any) -> dict[str, Any]:
    return {
        "live_table": selectors.live_table_for(request.user),
        "invitations": selectors.pending_invitations(request.user),
        "practice_form": extra.pop("practice_form", None) or PracticeForm(),
        "room_form": extra.pop("room_form", None) or RoomForm(),
        # What the apps above games add (the daily deal's link).
        "sections": page_sections("lobby", user=request.user),
        # Invitations of apps above games, reloaded with the lobby's own (the socket);
        # a section whose context says `pending` holds one.
        "invitation_sections": (sections := page_sections("lobby_invitations", user=request.user)),
        "others_pending": any(s.context.get("pending") for s in sections),
        **extra,
    }


@login_required
@require_GET
def lobby(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html", _lobby_context(request))


@login_required
@require_GET
def lobby_invitations(request: AuthenticatedHttpRequest) -> HttpResponse:
    return render(request, "games/lobby.html#invitations", _lobby_context(request))


#: The list of tables in play polls itself this often (docs/watching.md, "Pages").
WATCH_LIST_POLL_SECONDS = 10


@login_required
@require_GET
def watch_list(request: AuthenticatedHttpRequest) -> HttpResponse:
    """The tables in play anyone may watch; with htmx, the list's region only (its
    poll every WATCH_LIST_POLL_SECONDS)."""
    rows = selectors.tables_in_play()
    watching = watchers_of([row.table_id for row in rows])
    context = {
        "tables": [(row, watching.get(row.table_id, 0)) for row in rows],
        "poll_seconds": WATCH_LIST_POLL_SECONDS,
        "play_online_url": link("play_online"),
    }
    template = "games/watch.html#tables" if request.htmx else "games/watch.html"
    return render(request, template, context)


def _lobby_error(
    request: AuthenticatedHttpRequest, error: errors.GameError, **forms: Form
) -> HttpResponse:
    context = _lobby_context(request, lobby_error=error.message, **forms)
    return render(request, "games/lobby.html", context, status=400)


def _create_table(
    request: AuthenticatedHttpRequest,
    form_class: type[Form],
    form_name: str,
    create: Callable[..., Table],
) -> HttpResponse:
    """Validate the lobby form, create the table through `create`, go to it.

    A bad form or a refusal re-renders the lobby with the error (status 400).
    """
    form = form_class(request.POST)
    if not form.is_valid():
        return render(
            request, "games/lobby.html", _lobby_context(request, **{form_name: form}), status=400
        )
    try:
        table = create(user=request.user, **form.cleaned_data)
    except errors.GameError as error:
        return _lobby_error(request, error, **{form_name: form})
    return redirect("games:table", table_id=table.pk)


@login_required
@require_POST
def practice_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _create_table(request, PracticeForm, "practice_form", services.table_create_practice)


@login_required
@require_POST
def room_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _create_table(request, RoomForm, "room_form", services.table_create_friends)


@login_required
@require_POST
def invitation_answer(
    request: AuthenticatedHttpRequest, invitation_id: int, answer: str
) -> HttpResponse:
    if answer not in ("accept", "decline"):
        raise Http404
    try:
        if answer == "accept":
            table = services.invitation_accept(user=request.user, invitation_id=invitation_id)
            if request.htmx:
                response = HttpResponse(status=204)
                response["HX-Redirect"] = table_url(table.pk)
                return response
            return redirect("games:table", table_id=table.pk)
        services.invitation_decline(user=request.user, invitation_id=invitation_id)
    except errors.GameError as error:
        if request.htmx:
            context = _lobby_context(request, invitation_error=error.message)
            return render(request, "games/lobby.html#invitations", context)
        messages.error(request, error.message)
    if request.htmx:
        return render(request, "games/lobby.html#invitations", _lobby_context(request))
    return redirect("games:lobby")


def table_url(table_id: int) -> str:
    return reverse("games:table", kwargs={"table_id": table_id})


def _table_context(
    request: AuthenticatedHttpRequest, table_id: int, **extra: Any
) -> dict[str, Any]:
    """The table page's context: the board drawn from the seat's `state` frame (the
    one the renderer draws first), and the room's forms."""
    access = selectors.table_access(user=request.user, table_id=table_id)
    if access is None:
        raise Http404
    table = access.table
    frame = selectors.state_frame(
        table=table,
        seats=selectors.table_seats(table),
        match=selectors.latest_match(table),
        position=access.position,
    )
    context = board_context(frame)
    context["table"] = table
    context["table_frame"] = frame
    context["table_facts"] = table_facts(frame["table"])
    context["block_url"] = link("block")
    context["is_owner"] = table.owner_id == request.user.pk
    if table.status == "open":
        context["invitations"] = selectors.room_invitations(table)
        context["invite_form"] = extra.pop("invite_form", None) or InviteForm()
        context["settings_form"] = RoomSettingsForm(
            initial={
                "rules": table.rules,
                "bot_level": table.bot_level,
                "open_to_watch": table.open_to_watch,
            }
        )
    context.update(extra)
    return context


def _watch_refused(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse | None:
    """A watcher the rules refuse (docs/watching.md): a page naming why (403); None
    for a seated player, a watcher let in, or a table they may not see at all (the
    404 that follows)."""
    access = selectors.table_access(user=request.user, table_id=table_id)
    if access is None or access.position is not None:
        return None
    refusal = selectors.watch_refusal(user=request.user, table=access.table)
    if refusal is None:
        return None
    reasons = {
        "forbidden": _("The players of this table do not let anyone watch it."),
        "playing_elsewhere": _(
            "You are playing a match of your own: you may watch other tables once it is over."
        ),
    }
    context = {"table": access.table, "reason": reasons.get(refusal, reasons["forbidden"])}
    return render(request, "games/watch_refused.html", context, status=403)


def _follow(request: AuthenticatedHttpRequest) -> dict[str, str] | None:
    """The friend a watcher follows (`?follow=<username>`, from their follow page): the
    name and the follow URL, for the end-of-match "watch their next table"; None when
    absent or not a name the follow URL can hold."""
    name = query_text(request, "follow", max_length=150)
    if name is None:
        return None
    url = link("follow", name)  # None for a name the address cannot hold ("a/b")
    return None if url is None else {"name": name, "url": url}


@login_required
@require_GET
def table_page(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    refused = _watch_refused(request, table_id)
    if refused is not None:
        return refused
    # The seat, the board and the first frame from one snapshot: a seat change or a
    # start committed meanwhile cannot make them disagree (another seat's cards).
    with selectors.snapshot():
        # The renderer draws the first frame (`table_frame`) at once, then the socket's.
        context = _table_context(request, table_id)
        context["table_strings"] = table_strings()
        # Table talk: the players' phrases; a watcher reads them and talks with the
        # other watchers in the same phrases (docs/watching.md).
        context["talk_phrases"] = list(PHRASES.values())
        watching = context["position"] is None
        context["watcher"] = watching
        if not watching:  # the Mute toggles already on (docs/protocol.md, "Table talk")
            muted = selectors.talk_muted_seats(table_id, user_id=request.user.pk)
            context["talk_muted"] = ",".join(str(position) for position in muted)
        context["watchers_count"] = watchers_of([table_id]).get(table_id, 0)
        context["follow"] = _follow(request) if watching else None
        context["mode_panel_url"] = mode_policy(context["table"].mode).table_panel_url(
            table=context["table"]
        )
        return render(request, "games/table.html", context)


@login_required
@require_GET
def table_board(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    refused = _watch_refused(request, table_id)
    if refused is not None:
        return refused
    with selectors.snapshot():
        return render(request, "games/table.html#board", _table_context(request, table_id))


def _board_after(
    request: AuthenticatedHttpRequest,
    table_id: int,
    error: errors.GameError | None = None,
    **extra: Any,
) -> HttpResponse:
    """htmx gets the board region (with the error shown); a plain form the page."""
    if error is not None:
        extra["board_error"] = error.message
    if request.htmx:
        with selectors.snapshot():
            context = _table_context(request, table_id, **extra)
            return render(request, "games/table.html#board", context)
    if error is not None:
        messages.error(request, error.message)
    return redirect("games:table", table_id=table_id)


def _board_refusals(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """A table view whose service refuses: an unknown table is a 404; any other
    refusal redraws the board with its reason (services change nothing then)."""

    @wraps(view)
    def wrapped(
        request: AuthenticatedHttpRequest, table_id: int, *args: Any, **kwargs: Any
    ) -> HttpResponse:
        try:
            return view(request, table_id, *args, **kwargs)
        except errors.TableNotFound:
            raise Http404 from None
        except errors.GameError as error:
            return _board_after(request, table_id, error)

    return wrapped


@login_required
@require_POST
@_board_refusals
def table_play(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """The form fallback of a websocket `play` (same service, same checks)."""
    try:
        version = int(request.POST.get("version", ""))
    except ValueError:
        return _board_after(request, table_id, errors.StaleVersion())
    services.match_play(
        user=request.user,
        table_id=table_id,
        action=request.POST.get("action", ""),
        version=version,
    )
    return _board_after(request, table_id)


@login_required
@require_POST
def room_invite(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _board_after(request, table_id, errors.UnknownUser(), invite_form=form)
    try:
        services.invitation_create(
            user=request.user, table_id=table_id, username=form.cleaned_data["username"]
        )
    except errors.TableNotFound:
        raise Http404 from None
    except errors.GameError as error:
        return _board_after(request, table_id, error, invite_form=form)
    return _board_after(request, table_id)


@login_required
@require_POST
@_board_refusals
def room_settings(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    form = RoomSettingsForm(request.POST)
    if not form.is_valid():
        return _board_after(request, table_id, errors.InvalidChoice(), settings_form=form)
    services.table_configure(user=request.user, table_id=table_id, **form.cleaned_data)
    return _board_after(request, table_id)


@login_required
@require_POST
@_board_refusals
def room_seats(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    """Seat arrangement: `bot`/`empty` on a seat, or `swap` two seats."""
    op = request.POST.get("op", "")
    if op in ("bot", "empty"):
        services.seat_set_bot(
            user=request.user,
            table_id=table_id,
            position=request.POST.get("position"),
            bot=op == "bot",
        )
    elif op == "swap":
        services.seat_swap(
            user=request.user,
            table_id=table_id,
            first=request.POST.get("position"),
            second=request.POST.get("other"),
        )
    else:
        raise errors.InvalidSeat()
    return _board_after(request, table_id)


@login_required
@require_POST
@_board_refusals
def room_start(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    services.match_start(user=request.user, table_id=table_id)
    return _board_after(request, table_id)


@login_required
@require_POST
@_board_refusals
def table_leave(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    services.seat_leave(user=request.user, table_id=table_id)
    messages.info(request, _("You left the table."))
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = "/play/"
        return response
    return redirect("games:lobby")


@login_required
@require_POST
@_board_refusals
def table_again(request: AuthenticatedHttpRequest, table_id: int) -> HttpResponse:
    table = services.table_rematch(user=request.user, table_id=table_id)
    return redirect("games:table", table_id=table.pk)

"""Clubs' pages and forms (docs/clubs.md). Thin: each form calls one service; a
refusal (a domain error, or a form that is not valid) is said on the page it came
from (Django's messages, 302), the create form drawn again with it (400)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import InvalidPage, Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.http import AuthenticatedHttpRequest, page_or_404, query_number
from clubs import selectors, services
from clubs.errors import AlreadyOwner, ClubClosed, ClubError, ClubNotFound, MemberNotFound
from clubs.forms import (
    AnnouncementForm,
    ClubForm,
    ClubSettingsForm,
    MemberForm,
    RoleForm,
    SearchForm,
    TableForm,
)
from clubs.hooks import club_sections
from clubs.models import Admission, Club, Role
from games.errors import GameError


def _club_or_404(club_id: str) -> Club:
    club = selectors.club_by_id(club_id)
    if club is None or not club.is_open:
        raise Http404("no such club")
    return club


def _back(request: HttpRequest, club_id: str, *, notice: str = "", error: str = "") -> HttpResponse:
    """To the page the form was on (the club page, or its management page)."""
    if error:
        messages.error(request, error)
    elif notice:
        messages.success(request, notice)
    where = "clubs:manage" if request.POST.get("from") == "manage" else "clubs:club"
    return redirect(where, club_id=club_id)


@require_GET
def club_list(request: HttpRequest) -> HttpResponse:
    form = SearchForm(request.GET)
    query, language = "", ""
    if form.is_valid():
        query, language = form.cleaned_data["q"].strip(), form.cleaned_data["language"]
    page = page_or_404(
        Paginator(selectors.clubs_list(query=query, language=language), selectors.CLUBS_PAGE),
        query_number(request, "page", default=1, minimum=1),
    )
    mine = selectors.clubs_of(request.user.pk) if request.user.is_authenticated else []
    return render(
        request,
        "clubs/list.html",
        {"form": form, "page": page, "mine": mine, "query": query, "language": language},
    )


@login_required
@require_http_methods(["GET", "POST"])
def club_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    if request.method == "GET":
        form = ClubForm(initial={"language": request.LANGUAGE_CODE, "admission": Admission.OPEN})
        return render(request, "clubs/create.html", {"form": form})
    form = ClubForm(request.POST)
    if form.is_valid():
        try:
            club = services.club_create(user=request.user, **form.cleaned_data)
        except ClubError as refusal:
            form.add_error(None, refusal.message)
        else:
            messages.success(request, _("Your club is open. Invite your friends to join it."))
            return redirect("clubs:club", club_id=club.pk)
    return render(request, "clubs/create.html", {"form": form}, status=400)


def _members(request: HttpRequest, club: Club) -> Any:
    """The page of members the query asks for (`page`), or 404."""
    try:
        number = query_number(request, "page", default=1, minimum=1)
        return selectors.members_page(club.pk, number, count=club.members_count)
    except InvalidPage:
        raise Http404("no such page of members") from None


def _page_context(request: HttpRequest, club: Club) -> dict[str, Any]:
    user = request.user
    membership = selectors.membership_of(club.pk, user.pk) if user.is_authenticated else None
    admin = selectors.is_admin(membership)
    return {
        "club": club,
        "membership": membership,
        "is_admin": admin,
        "requested": user.is_authenticated
        and membership is None
        and club.pk in selectors.requested_by(user.pk),
        "requests_count": selectors.join_requests_count(club.pk) if admin else 0,
        "members": _members(request, club),
        "board": selectors.leaderboard(club.pk),
        "matches": selectors.recent_matches(club.pk),
        "announcements": selectors.announcements(club.pk),
        "tables": selectors.open_tables(club.pk) if membership is not None else [],
        "announcement_form": AnnouncementForm() if admin else None,
        "table_form": TableForm() if admin else None,
        "sections": club_sections(club=club, user=user, membership=membership),
    }


@require_GET
def club_page(request: HttpRequest, club_id: str) -> HttpResponse:
    club = _club_or_404(club_id)
    return render(request, "clubs/club.html", _page_context(request, club))


@login_required
@require_GET
def club_manage(request: AuthenticatedHttpRequest, club_id: str) -> HttpResponse:
    """The admins' page: requests waiting, members and their roles, settings. With
    htmx its region only (the lobby socket says when a request came)."""
    club = _club_or_404(club_id)
    membership = selectors.membership_of(club.pk, request.user.pk)
    if not selectors.is_admin(membership):
        raise Http404("not an admin of this club")
    context = {
        "club": club,
        "membership": membership,
        "is_owner": membership is not None and membership.role == Role.OWNER,
        "requests": selectors.join_requests(club.pk),
        "members": _members(request, club),
        "settings_form": ClubSettingsForm(
            initial={
                "description": club.description,
                "language": club.language,
                "admission": club.admission,
            }
        ),
        "own_table": selectors.open_club_table_of(request.user.pk),
        "heirs": selectors.heirs(club.pk)
        if membership is not None and membership.role == Role.OWNER and not request.htmx
        else [],
    }
    template = "clubs/manage.html#manage" if request.htmx else "clubs/manage.html"
    return render(request, template, context)


@login_required
@require_POST
def club_action(request: AuthenticatedHttpRequest, club_id: str, action: str) -> HttpResponse:
    user = request.user
    try:
        if action == "join":
            joined = services.club_join(user=user, club_id=club_id)
            notice = (
                _("Welcome to the club.")
                if hasattr(joined, "role")
                else _("Your request is sent: the club's admins will answer it.")
            )
        elif action == "cancel":
            services.request_cancel(user=user, club_id=club_id)
            notice = _("Request cancelled.")
        elif action == "leave":
            club = services.club_leave(user=user, club_id=club_id)
            messages.success(request, _("You have left the club."))
            del club
            return redirect("clubs:list")
        else:
            services.club_close(user=user, club_id=club_id)
            messages.success(request, _("The club is closed."))
            return redirect("clubs:list")
    except ClubError as refusal:
        if isinstance(refusal, (ClubNotFound, ClubClosed)):
            messages.error(request, refusal.message)
            return redirect("clubs:list")
        return _back(request, club_id, error=refusal.message)
    return _back(request, club_id, notice=notice)


@login_required
@require_POST
def club_settings(request: AuthenticatedHttpRequest, club_id: str) -> HttpResponse:
    form = ClubSettingsForm(request.POST)
    if not form.is_valid():
        return _back(request, club_id, error=_("Check the club's details."))
    try:
        services.club_update(user=request.user, club_id=club_id, **form.cleaned_data)
    except ClubError as refusal:
        return _back(request, club_id, error=refusal.message)
    return _back(request, club_id, notice=_("Settings saved."))


@login_required
@require_http_methods(["GET", "POST"])
def club_transfer(request: AuthenticatedHttpRequest, club_id: str) -> HttpResponse:
    """Handing the club to another member: GET (from the management page's list) asks
    to confirm, POST hands it over. Only the owner reaches the page (404 otherwise)."""
    club = _club_or_404(club_id)
    membership = selectors.membership_of(club.pk, request.user.pk)
    if membership is None or membership.role != Role.OWNER:
        raise Http404("not the owner of this club")

    def refused(error: str) -> HttpResponse:
        messages.error(request, error)
        return redirect("clubs:manage", club_id=club.pk)

    form = MemberForm(request.POST if request.method == "POST" else request.GET)
    if not form.is_valid():
        return refused(_("Choose a member."))
    username = form.cleaned_data["username"]
    if request.method == "GET":
        heir = selectors.membership_named(club.pk, username)
        if heir is None:
            return refused(str(MemberNotFound.default_message))
        if heir.user_id == request.user.pk:
            return refused(str(AlreadyOwner.default_message))
        return render(request, "clubs/transfer.html", {"club": club, "heir": heir})
    try:
        heir = services.club_transfer(user=request.user, club_id=club_id, username=username)
    except ClubError as refusal:
        return refused(refusal.message)
    messages.success(
        request,
        _("%(name)s owns %(club)s now; you are one of its admins.")
        % {"name": heir.user.username, "club": club.name},
    )
    return redirect("clubs:club", club_id=club.pk)


@login_required
@require_POST
def request_answer(request: AuthenticatedHttpRequest, request_id: str, answer: str) -> HttpResponse:
    club_id = request.POST.get("club", "")
    try:
        if answer == "accept":
            membership = services.request_accept(user=request.user, request_id=request_id)
            notice = _("%(name)s is a member now.") % {"name": membership.user.username}
        else:
            services.request_decline(user=request.user, request_id=request_id)
            notice = _("Request declined.")
    except ClubError as refusal:
        if not club_id.isdigit():
            messages.error(request, refusal.message)
            return redirect("clubs:list")
        return _back(request, club_id, error=refusal.message)
    if not club_id.isdigit():
        messages.success(request, notice)
        return redirect("clubs:list")
    return _back(request, club_id, notice=notice)


def _with_member(
    request: AuthenticatedHttpRequest, club_id: str, form: MemberForm, act: Any
) -> HttpResponse:
    if not form.is_valid():
        return _back(request, club_id, error=_("Choose a member."))
    try:
        notice = act(form.cleaned_data)
    except (ClubError, GameError) as refusal:
        return _back(request, club_id, error=refusal.message)
    return _back(request, club_id, notice=notice)


@login_required
@require_POST
def member_remove(request: AuthenticatedHttpRequest, club_id: str) -> HttpResponse:
    def act(data: dict[str, Any]) -> str:
        services.member_remove(user=request.user, club_id=club_id, username=data["username"])
        return _("%(name)s is no longer a member.") % {"name": data["username"]}

    return _with_member(request, club_id, MemberForm(request.POST), act)


@login_required
@require_POST
def member_role(request: AuthenticatedHttpRequest, club_id: str) -> HttpResponse:
    def act(data: dict[str, Any]) -> str:
        done = services.member_set_role(
            user=request.user, club_id=club_id, username=data["username"], role=data["role"]
        )
        if done.role == Role.ADMIN:
            return _("%(name)s is an admin now.") % {"name": done.user.username}
        return _("%(name)s is a member now.") % {"name": done.user.username}

    return _with_member(request, club_id, RoleForm(request.POST), act)


@login_required
@require_POST
def table_invite(request: AuthenticatedHttpRequest, club_id: str) -> HttpResponse:
    def act(data: dict[str, Any]) -> str:
        own = selectors.open_club_table_of(request.user.pk)
        services.club_table_invite(
            user=request.user,
            club_id=club_id,
            table_id=own.table_id if own is not None else None,
            username=data["username"],
        )
        return _("%(name)s is invited to your club table.") % {"name": data["username"]}

    return _with_member(request, club_id, MemberForm(request.POST), act)


@login_required
@require_POST
def announce(request: AuthenticatedHttpRequest, club_id: str) -> HttpResponse:
    form = AnnouncementForm(request.POST)
    if not form.is_valid():
        return _back(request, club_id, error=_("Write an announcement of at most 500 characters."))
    try:
        services.announcement_post(
            user=request.user, club_id=club_id, text=form.cleaned_data["text"]
        )
    except ClubError as refusal:
        return _back(request, club_id, error=refusal.message)
    return _back(request, club_id, notice=_("Announcement posted."))


@login_required
@require_POST
def announcement_delete(request: AuthenticatedHttpRequest, announcement_id: str) -> HttpResponse:
    club_id = request.POST.get("club", "")
    try:
        services.announcement_delete(user=request.user, announcement_id=announcement_id)
    except ClubError as refusal:
        messages.error(request, refusal.message)
    else:
        messages.success(request, _("Announcement deleted."))
    if club_id.isdigit():
        return redirect("clubs:club", club_id=club_id)
    return redirect("clubs:list")


@login_required
@require_POST
def table_open(request: AuthenticatedHttpRequest, club_id: str) -> HttpResponse:
    form = TableForm(request.POST)
    if not form.is_valid():
        return _back(request, club_id, error=_("Choose the rules."))
    try:
        table = services.club_table_open(
            user=request.user, club_id=club_id, rules=form.cleaned_data["rules"]
        )
    except (ClubError, GameError) as refusal:
        return _back(request, club_id, error=refusal.message)
    messages.success(
        request, _("Your club table is open: invite members from the club's management page.")
    )
    return redirect(reverse("games:table", args=[table.pk]))

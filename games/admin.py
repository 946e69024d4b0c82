"""Tables and matches in the Django admin: read-only lists with filters, and the
staff action that aborts a live match (through `services.match_abort`)."""

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.admin import ReadOnlyAdmin
from accounts.forms import ReasonForm
from accounts.http import AuthenticatedHttpRequest
from games import errors, services
from games.hooks import link
from games.models import Match, MatchSeat, MatchStatus, Seat, Table

ABORT_PERMISSION = "games.change_match"


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ("position", "kind", "user", "live", "connections", "absent_since", "abandoned")
    readonly_fields = fields


class MatchSeatInline(ReadOnlyInline):
    model = MatchSeat
    fields = ("position", "user", "is_bot", "abandoned", "personal_points", "place", "won")
    readonly_fields = fields


@admin.register(Table)
class TableAdmin(ReadOnlyAdmin):
    list_display = ("id", "mode", "rules", "status", "owner", "created_at")
    list_filter = ("status", "mode", "rules", "created_at")
    list_select_related = ("owner",)
    search_fields = ("owner__username", "seats__user__username")
    readonly_fields = ("mode", "rules", "bot_level", "owner", "status", "seq", "created_at")
    fields = readonly_fields
    inlines = [SeatInline]


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ("id", "mode", "rules", "status", "score", "started_at", "finished_at")
    list_filter = ("status", "table__mode", "rules", "started_at")
    list_select_related = ("table",)
    search_fields = ("match_seats__user__username",)
    fields = (
        "table",
        "rules",
        "status",
        "score_a",
        "score_b",
        "winner",
        "hand_no",
        "version",
        "started_at",
        "finished_at",
        "replay",
    )
    readonly_fields = fields
    inlines = [MatchSeatInline]
    change_form_template = "admin/games/match/change_form.html"

    @admin.display(description=gettext_lazy("mode"), ordering="table__mode")
    def mode(self, obj: Match) -> str:
        return obj.table.get_mode_display()

    @admin.display(description=gettext_lazy("score"))
    def score(self, obj: Match) -> str:
        return f"{obj.score_a}–{obj.score_b}"

    @admin.display(description=gettext_lazy("replay"))
    def replay(self, obj: Match) -> str:
        # Only a finished match has a public page; a live one's cards stay hidden.
        if obj.status != MatchStatus.FINISHED:
            return "—"
        url = link("match_page", obj.pk)
        if url is None:  # no history app: no page to open
            return "—"
        return format_html('<a href="{}">{}</a>', url, _("Open the match page"))

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:match_id>/abort/",
                self.admin_site.admin_view(self.abort_view),
                name="games_match_abort",
            ),
            *super().get_urls(),
        ]

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        extra_context = {
            **(extra_context or {}),
            "can_abort": request.user.has_perm(ABORT_PERMISSION),
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def abort_view(self, request: AuthenticatedHttpRequest, match_id: int) -> HttpResponse:
        if not request.user.has_perm(ABORT_PERMISSION):
            raise PermissionDenied
        match = get_object_or_404(Match, pk=match_id)
        form = ReasonForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                services.match_abort(
                    match_id=match.pk, staff_user=request.user, reason=form.cleaned_data["reason"]
                )
            except errors.GameError as error:
                form.add_error(None, error.message)
            else:
                self.message_user(request, _("Match %(id)s is aborted.") % {"id": match.pk})
                return redirect(reverse("admin:games_match_change", args=[match.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Abort match %(id)s") % {"id": match.pk},
            "object": match,
            "form": form,
            "opts": self.opts,
            "submit_label": _("Abort the match"),
        }
        return TemplateResponse(request, "admin/accounts/staff_action_form.html", context)

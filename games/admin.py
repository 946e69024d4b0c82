"""Tables and matches in the Django admin: read-only lists with filters, and the
staff action that aborts a live match (through `services.match_abort`)."""

from typing import Any

from django.contrib import admin
from django.db.models import Model
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.admin import ReadOnlyAdmin
from accounts.forms import ReasonForm
from accounts.http import AuthenticatedHttpRequest
from accounts.staff_actions import StaffActionsMixin
from games import services
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
class MatchAdmin(StaffActionsMixin, ReadOnlyAdmin):
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
    staff_actions = {"abort": ABORT_PERMISSION}

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

    def abort_view(self, request: AuthenticatedHttpRequest, match: Match) -> HttpResponse:
        def abort(data: dict[str, Any]) -> str:
            services.match_abort(match_id=match.pk, staff_user=request.user, reason=data["reason"])
            return _("Match %(id)s is aborted.") % {"id": match.pk}

        return self.staff_form(
            request,
            match,
            form=ReasonForm(request.POST or None),
            title=_("Abort match %(id)s") % {"id": match.pk},
            act=abort,
            back=reverse("admin:games_match_change", args=[match.pk]),
            submit_label=_("Abort the match"),
        )

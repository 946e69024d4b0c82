"""League admin: weeks, archived standings and memberships are read-only; closing is an action.

Viewing needs the usual view permissions (the `moderators` group has them);
the close action needs `leagues.close_leagueweek` (the `finance` group).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.admin import ReadOnlyAdmin
from leagues import services
from leagues.errors import LeagueError
from leagues.models import LeagueMembership, LeaguePoints, LeagueStanding, LeagueWeek


@admin.register(LeagueWeek)
class LeagueWeekAdmin(ReadOnlyAdmin):
    list_display = (
        "label",
        "starts_at",
        "ends_at",
        "status",
        "closed_at",
        "players",
        "promoted",
        "relegated",
        "prizes_paid",
    )
    list_filter = ("status",)
    date_hierarchy = "starts_at"
    actions = ["close_weeks"]

    @admin.display(description=_("week"), ordering="starts_at")
    def label(self, week: LeagueWeek) -> str:
        return week.label

    def has_close_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm("leagues.close_leagueweek")

    @admin.action(
        permissions=["close"],
        description=_("Close the selected weeks (earlier open weeks close first)"),
    )
    def close_weeks(self, request: HttpRequest, queryset: QuerySet[LeagueWeek]) -> None:
        now = timezone.now()
        for week in queryset.order_by("starts_at"):
            if week.ends_at > now:
                self.message_user(
                    request,
                    _("%(week)s has not ended yet; it was not closed.") % {"week": week.label},
                    messages.ERROR,
                )
                continue
            try:
                closings = services.league_weeks_close_due(now=now, up_to=week)
            except LeagueError as error:
                self.message_user(request, f"{week.label}: {error.message}", messages.ERROR)
                continue
            done = [c for c in closings if not c.replayed]
            for closing in done:
                self.log_change(request, closing.week, "Closed the league week")
            if not done:
                self.message_user(
                    request,
                    _("%(week)s was already closed; nothing changed.") % {"week": week.label},
                    messages.INFO,
                )
                continue
            self.message_user(
                request,
                ngettext(
                    "Closed %(count)d week, up to %(week)s.",
                    "Closed %(count)d weeks, up to %(week)s.",
                    len(done),
                )
                % {"count": len(done), "week": week.label},
                messages.SUCCESS,
            )


@admin.register(LeagueStanding)
class LeagueStandingAdmin(ReadOnlyAdmin):
    list_display = ("week", "division", "rank", "user", "points", "prize", "movement")
    list_filter = ("division", "movement", "week")
    list_select_related = ("week", "user")
    search_fields = ("user__username",)
    ordering = ("-week__starts_at", "division", "rank")
    show_full_result_count = False


@admin.register(LeagueMembership)
class LeagueMembershipAdmin(ReadOnlyAdmin):
    list_display = ("user", "division", "updated_at")
    list_filter = ("division",)
    list_select_related = ("user",)
    search_fields = ("user__username",)
    show_full_result_count = False


@admin.register(LeaguePoints)
class LeaguePointsAdmin(ReadOnlyAdmin):
    list_display = ("user", "match_id", "points", "finished_at", "week")
    list_select_related = ("user", "week")
    search_fields = ("user__username", "=match_id")
    show_full_result_count = False

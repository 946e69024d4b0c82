"""Staff's view of clubs (docs/clubs.md, "Moderation"): clubs, members, requests and
announcements, read-only; changes go through the services (the actions below)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.admin import ReadOnlyAdmin
from clubs import services
from clubs.errors import ClubError
from clubs.models import Announcement, Club, JoinRequest, Membership


class MembershipInline(admin.TabularInline):
    model = Membership
    fields = ("user", "role", "joined_at")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False
    show_change_link = False
    ordering = ("role", "joined_at")

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class AnnouncementInline(admin.TabularInline):
    model = Announcement
    fields = ("text", "author", "created_at")
    readonly_fields = fields
    extra = 0
    max_num = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


class OpenFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("open", _("Open")), ("closed", _("Closed"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "open":
            return queryset.filter(closed_at__isnull=True)
        if self.value() == "closed":
            return queryset.filter(closed_at__isnull=False)
        return queryset


@admin.register(Club)
class ClubAdmin(ReadOnlyAdmin):
    list_display = ("name", "language", "admission", "members_count", "created_at", "closed_at")
    list_filter = (OpenFilter, "language", "admission")
    search_fields = ("name", "description", "memberships__user__username")
    readonly_fields = (
        "name",
        "description",
        "language",
        "admission",
        "created_by",
        "created_at",
        "closed_at",
        "members_count",
    )
    inlines = (MembershipInline, AnnouncementInline)
    actions = ("close_clubs",)

    @admin.action(description=_("Close the selected clubs"))
    def close_clubs(self, request: HttpRequest, queryset: QuerySet[Club]) -> None:
        closed = 0
        for club_id in queryset.filter(closed_at__isnull=True).values_list("pk", flat=True):
            try:
                services.club_close(user=request.user, club_id=club_id)  # type: ignore[arg-type]
            except ClubError as refusal:
                self.message_user(request, refusal.message, messages.ERROR)
            else:
                closed += 1
        self.message_user(
            request,
            ngettext("%(count)d club closed.", "%(count)d clubs closed.", closed)
            % {"count": closed},
        )


@admin.register(Membership)
class MembershipAdmin(ReadOnlyAdmin):
    list_display = ("club", "user", "role", "joined_at")
    list_filter = ("role",)
    search_fields = ("club__name", "user__username")
    list_select_related = ("club", "user")


@admin.register(JoinRequest)
class JoinRequestAdmin(ReadOnlyAdmin):
    list_display = ("club", "user", "created_at")
    search_fields = ("club__name", "user__username")
    list_select_related = ("club", "user")


@admin.register(Announcement)
class AnnouncementAdmin(ReadOnlyAdmin):
    list_display = ("club", "author", "created_at", "text")
    search_fields = ("club__name", "text", "author__username")
    list_select_related = ("club", "author")
    actions = ("delete_announcements",)

    @admin.action(description=_("Delete the selected announcements"))
    def delete_announcements(self, request: HttpRequest, queryset: QuerySet[Announcement]) -> None:
        for announcement_id in queryset.values_list("pk", flat=True):
            services.announcement_delete(user=request.user, announcement_id=announcement_id)  # type: ignore[arg-type]
        self.message_user(request, _("Deleted."))

"""Staff's view of registered pairs, partner requests and partner marks (docs/social.md,
"Moderation"): read-only, searchable by either player's name; the one change, dissolving
a pair, goes through the service (`partnership_dissolve`), so no inconsistent row can be
made here."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from accounts.admin import ReadOnlyAdmin
from social import services
from social.errors import SocialError
from social.models import PartnerMark, PartnerRequest, Partnership


class StandingFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "standing"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("yes", _("Standing")), ("no", _("Dissolved"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(dissolved_at__isnull=True)
        if self.value() == "no":
            return queryset.filter(dissolved_at__isnull=False)
        return queryset


@admin.register(Partnership)
class PartnershipAdmin(ReadOnlyAdmin):
    list_display = ("pk", "user_low", "user_high", "created_at", "dissolved_at", "is_standing")
    list_display_links = ("pk",)
    list_filter = (StandingFilter, "created_at")
    search_fields = ("user_low__username", "user_high__username")
    list_select_related = ("user_low", "user_high")
    readonly_fields = ("user_low", "user_high", "created_at", "dissolved_at")
    date_hierarchy = "created_at"
    ordering = ("-created_at", "-pk")
    actions = ("dissolve_pairs",)

    @admin.display(boolean=True, description=_("standing"))
    def is_standing(self, obj: Partnership) -> bool:
        return obj.standing

    @admin.action(description=_("Dissolve the selected pairs"))
    def dissolve_pairs(self, request: HttpRequest, queryset: QuerySet[Partnership]) -> None:
        done = 0
        for pair_id in queryset.filter(dissolved_at__isnull=True).values_list("pk", flat=True):
            try:
                services.partnership_dissolve(user=request.user, pair_id=pair_id)  # type: ignore[arg-type]
            except SocialError as refusal:
                self.message_user(request, refusal.message, messages.ERROR)
            else:
                done += 1
        self.message_user(
            request,
            ngettext("%(count)d pair dissolved.", "%(count)d pairs dissolved.", done)
            % {"count": done},
        )


@admin.register(PartnerRequest)
class PartnerRequestAdmin(ReadOnlyAdmin):
    list_display = ("from_user", "to_user", "created_at")
    search_fields = ("from_user__username", "to_user__username")
    list_select_related = ("from_user", "to_user")
    readonly_fields = ("from_user", "to_user", "created_at")
    ordering = ("-created_at", "-pk")


@admin.register(PartnerMark)
class PartnerMarkAdmin(ReadOnlyAdmin):
    list_display = ("user", "kind", "other", "created_at")
    list_filter = ("kind",)
    search_fields = ("user__username", "other__username")
    list_select_related = ("user", "other")
    readonly_fields = ("user", "other", "kind", "created_at")
    ordering = ("-created_at", "-pk")

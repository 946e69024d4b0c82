"""The daily deal in the admin: each day's participation and results (read-only),
and voiding a player's result with a reason (`daily.void_dailyentry`, the
moderators' group), which computes the day's standings again."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import ReadOnlyAdmin
from accounts.http import AuthenticatedHttpRequest
from accounts.staff_actions import StaffActionsMixin
from daily import services
from daily.models import DailyDay, DailyEntry, DailyPlay

VOID_PERMISSION = "daily.void_dailyentry"


class VoidForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason"),
        widget=forms.Textarea(attrs={"rows": 3}),
        required=False,
        help_text=_(
            "Kept in the admin log with your name. The day's standings are computed again."
        ),
    )

    def clean_reason(self) -> str:
        reason = (self.cleaned_data.get("reason") or "").strip()
        if not reason:
            raise forms.ValidationError(gettext("Give a reason for voiding this result."))
        return reason


@admin.register(DailyDay)
class DailyDayAdmin(ReadOnlyAdmin):
    list_display = (
        "date",
        "status",
        "participants",
        "played_through",
        "players",
        "prizes",
        "voided",
        "standings_at",
        "closed_at",
        "results_link",
    )
    list_filter = ("status",)
    date_hierarchy = "date"
    change_form_template = "admin/daily/dailyday/change_form.html"

    def get_queryset(self, request: HttpRequest) -> QuerySet[DailyDay]:
        return (
            super()
            .get_queryset(request)
            .annotate(
                n_entries=Count("entries", distinct=True),
                n_through=Count(
                    "entries", filter=Q(entries__finished_at__isnull=False), distinct=True
                ),
                n_prizes=Count("entries", filter=Q(entries__prize_coins__gt=0), distinct=True),
                n_voided=Count(
                    "entries", filter=Q(entries__voided_at__isnull=False), distinct=True
                ),
            )
        )

    @admin.display(description=_("players who started"), ordering="n_entries")
    def participants(self, day: Any) -> int:
        return day.n_entries

    @admin.display(description=_("played the six deals"), ordering="n_through")
    def played_through(self, day: Any) -> int:
        return day.n_through

    @admin.display(description=_("coin prizes"), ordering="n_prizes")
    def prizes(self, day: Any) -> int:
        return day.n_prizes

    @admin.display(description=_("voided"), ordering="n_voided")
    def voided(self, day: Any) -> int:
        return day.n_voided

    @admin.display(description=_("results"))
    def results_link(self, day: DailyDay) -> str:
        url = reverse("admin:daily_dailyentry_changelist") + f"?day__id__exact={day.pk}"
        return format_html('<a href="{}">{}</a>', url, gettext("Results"))

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        day = DailyDay.objects.filter(pk=object_id).first() if object_id.isdigit() else None
        extra: dict[str, Any] = {**(extra_context or {})}
        if day is not None:
            extra["deal_rows"] = list(
                day.deals.annotate(
                    finished=Count("plays", filter=Q(plays__status="finished")),
                    unfinished=Count("plays", filter=~Q(plays__status="finished")),
                ).order_by("number")
            )
            extra["results_url"] = (
                reverse("admin:daily_dailyentry_changelist") + f"?day__id__exact={day.pk}"
            )
        return super().change_view(request, object_id, form_url, extra)


class DailyPlayInline(admin.TabularInline):
    model = DailyPlay
    fields = ("deal", "status", "result", "percent", "matchpoints", "finished_at", "match")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("deal__number",)

    def has_add_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(DailyEntry)
class DailyEntryAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = (
        "day",
        "user",
        "deals_finished",
        "finished_at",
        "score_percent",
        "rank",
        "prize_coins",
        "prize_xp",
        "voided_at",
    )
    list_filter = ("day__date", ("voided_at", admin.EmptyFieldListFilter))
    search_fields = ("user__username",)
    list_select_related = ("day", "user")
    ordering = ("-day__date", "rank")
    inlines = [DailyPlayInline]
    change_form_template = "admin/daily/dailyentry/change_form.html"
    staff_actions = {"void": VOID_PERMISSION}

    @admin.display(description=_("score (%)"), ordering="score")
    def score_percent(self, entry: DailyEntry) -> str:
        return "—" if entry.score is None else f"{entry.score:.1f}"

    def staff_action_rows(self, request: HttpRequest) -> QuerySet[DailyEntry]:
        return DailyEntry.objects.select_related("day", "user")

    def void_view(self, request: AuthenticatedHttpRequest, entry: DailyEntry) -> HttpResponse:
        which = {"user": entry.user.username, "day": entry.day.date.isoformat()}

        def void(data: dict[str, Any]) -> str:
            services.entry_void(staff_user=request.user, entry_id=entry.pk, reason=data["reason"])
            return gettext("The daily result of %(user)s on %(day)s is voided.") % which

        return self.staff_form(
            request,
            entry,
            form=VoidForm(request.POST or None),
            title=gettext("Void the daily result of %(user)s on %(day)s") % which,
            act=void,
            back=reverse("admin:daily_dailyentry_change", args=[entry.pk]),
            submit_label=gettext("Void the result"),
        )

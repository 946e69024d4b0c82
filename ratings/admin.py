"""Staff see a player's rating and its history, and reset it with a reason."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from accounts.admin import ReadOnlyAdmin
from accounts.http import AuthenticatedHttpRequest
from accounts.staff_actions import StaffActionsMixin
from ratings.forms import ResetForm
from ratings.models import ProtectionWithheld, Rating, RatingChange, RatingReset
from ratings.services import RESET_PERMISSION, rating_reset

#: Rated matches listed on a rating's admin page (the latest).
HISTORY_ROWS = 100


@admin.register(Rating)
class RatingAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = ("user", "value", "matches", "provisional", "last_rated_at")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    ordering = ("-value",)
    readonly_fields = ("user", "value", "mu", "sigma", "matches", "last_rated_at", "history")
    fields = readonly_fields
    staff_actions = {"reset": RESET_PERMISSION}

    @admin.display(boolean=True, description=gettext_lazy("provisional"))
    def provisional(self, obj: Rating) -> bool:
        return obj.provisional

    @admin.display(description=gettext_lazy("history"))
    def history(self, obj: Rating) -> SafeString:
        """The latest rated matches and every reset, newest first; a match where the
        partner's abandonment did not protect the player says why."""
        withheld = {
            match_id: str(ProtectionWithheld.Reason(reason).label)
            for match_id, reason in ProtectionWithheld.objects.filter(
                user_id=obj.user_id
            ).values_list("match_id", "reason")
        }
        changes: list[tuple[Any, int | None, int, int, str, str]] = [
            (
                c.at,
                c.match_id,
                c.before,
                c.after,
                f"{c.change:+d}",
                _("Partner left, rated down all the same: %(why)s") % {"why": withheld[c.match_id]}
                if c.match_id in withheld
                else "",
            )
            for c in RatingChange.objects.filter(user_id=obj.user_id).order_by("-at", "-pk")[
                :HISTORY_ROWS
            ]
        ]
        resets: list[tuple[Any, int | None, int, int, str, str]] = [
            (r.at, None, r.before, 1500, _("reset"), f"{r.staff}: {r.reason}")
            for r in RatingReset.objects.filter(user_id=obj.user_id).select_related("staff")
        ]
        rows = sorted(changes + resets, key=lambda row: row[0], reverse=True)
        if not rows:
            return format_html("{}", _("No rated match yet."))
        body = format_html_join(
            "",
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (
                    date_format(at, "SHORT_DATETIME_FORMAT"),
                    format_html(
                        '<a href="{}">{}</a>', reverse("history_match", args=[match_id]), match_id
                    )
                    if match_id
                    else "—",
                    before,
                    after,
                    change,
                    note,
                )
                for at, match_id, before, after, change, note in rows
            ),
        )
        head = format_html(
            "<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th></tr>",
            _("When"),
            _("Match"),
            _("Before"),
            _("After"),
            pgettext("rating", "Change"),
            _("Note"),
        )
        return format_html('<table class="rating-history">{}{}</table>', head, body)

    def staff_action_rows(self, request: HttpRequest) -> QuerySet[Rating]:
        return Rating.objects.select_related("user")

    def reset_view(self, request: AuthenticatedHttpRequest, rating: Rating) -> HttpResponse:
        def reset(data: dict[str, Any]) -> str:
            rating_reset(user=rating.user, staff_user=request.user, reason=data["reason"])
            return _("The rating of %(user)s is reset.") % {"user": rating.user}

        return self.staff_form(
            request,
            rating,
            form=ResetForm(request.POST or None),
            title=_("Reset the rating of %(user)s") % {"user": rating.user},
            act=reset,
            back=reverse("admin:ratings_rating_change", args=[rating.pk]),
            submit_label=_("Reset rating"),
            error_field="reason",
        )


@admin.register(RatingReset)
class RatingResetAdmin(ReadOnlyAdmin):
    list_display = ("user", "at", "staff", "before", "reason")
    search_fields = ("user__username", "reason")
    list_select_related = ("user", "staff")
    ordering = ("-at",)


@admin.register(ProtectionWithheld)
class ProtectionWithheldAdmin(ReadOnlyAdmin):
    """Players whose partner abandoned a match their pair lost, rated down all the same
    (linked accounts, or a pair that abandons repeatedly: docs/ratings.md)."""

    list_display = ("match", "user", "reason")
    list_filter = ("reason",)
    search_fields = ("user__username",)
    list_select_related = ("match", "user")
    ordering = ("-match",)

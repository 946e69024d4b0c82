"""Staff see a player's rating and its history, and reset it with a reason."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from accounts.admin import ReadOnlyAdmin
from accounts.http import AuthenticatedHttpRequest
from ratings.errors import RatingError
from ratings.forms import ResetForm
from ratings.models import ProtectionWithheld, Rating, RatingChange, RatingReset
from ratings.services import RESET_PERMISSION, rating_reset

#: Rated matches listed on a rating's admin page (the latest).
HISTORY_ROWS = 100


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "value", "matches", "provisional", "last_rated_at")
    search_fields = ("user__username",)
    list_select_related = ("user",)
    ordering = ("-value",)
    readonly_fields = ("user", "value", "mu", "sigma", "matches", "last_rated_at", "history")
    fields = readonly_fields

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

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:user_id>/reset/",
                self.admin_site.admin_view(self.reset_view),
                name="ratings_rating_reset",
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
            "can_reset": request.user.is_authenticated and request.user.has_perm(RESET_PERMISSION),
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def reset_view(self, request: AuthenticatedHttpRequest, user_id: int) -> HttpResponse:
        if not request.user.has_perm(RESET_PERMISSION):
            raise PermissionDenied
        rating = get_object_or_404(Rating.objects.select_related("user"), pk=user_id)
        form = ResetForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                rating_reset(
                    user=rating.user, staff_user=request.user, reason=form.cleaned_data["reason"]
                )
            except RatingError as error:
                form.add_error("reason", error.message)
            else:
                self.message_user(
                    request, _("The rating of %(user)s is reset.") % {"user": rating.user}
                )
                return redirect(reverse("admin:ratings_rating_change", args=[rating.pk]))
        context = {
            **self.admin_site.each_context(request),
            "title": _("Reset the rating of %(user)s") % {"user": rating.user},
            "object": rating,
            "form": form,
            "opts": self.opts,
            "submit_label": _("Reset rating"),
        }
        return TemplateResponse(request, "admin/accounts/staff_action_form.html", context)


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

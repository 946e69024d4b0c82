"""Fair play in the admin: the review queue of flagged pairs (open ones first, the
strongest on top), each with its evidence, its matches and their replays, and the
staff's decision (dismiss, confirm, open again) with a note, logged in the admin
log. Moderators may review (`fairplay.review_pairflag`); nothing is banned from
here: a confirmed pair's accounts are acted on from their own pages."""

from __future__ import annotations

from collections import defaultdict
from typing import Any, cast

from django import forms
from django.contrib import admin
from django.contrib.admin import ModelAdmin
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from accounts.admin import ReadOnlyAdmin
from accounts.http import AuthenticatedHttpRequest
from accounts.staff_actions import StaffActionsMixin
from fairplay import services
from fairplay.models import (
    BaselineBand,
    CloseDecision,
    FlagReason,
    FlagStatus,
    PairFlag,
    ScreenedMatch,
    ScreenRun,
)
from games.models import Mode

REVIEW_PERMISSION = services.REVIEW_PERMISSION
#: The decisions a reviewer can make, by the word in their address.


class NoteForm(forms.Form):
    note = forms.CharField(
        label=_("Note"),
        widget=forms.Textarea(attrs={"rows": 4}),
        required=False,
        max_length=2000,
        help_text=_("Why: kept with the flag and in the admin log, with your name."),
    )

    def clean_note(self) -> str:
        note = (self.cleaned_data.get("note") or "").strip()
        if not note:
            raise forms.ValidationError(gettext("Write a note saying why."))
        return note


class StatusFilter(admin.SimpleListFilter):
    """The queue opens on the open flags; the others are a click away."""

    title = _("status")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: ModelAdmin[Any]) -> list[tuple[str, Any]]:
        return [*FlagStatus.choices, ("all", _("All"))]

    def choices(self, changelist: Any) -> Any:
        current = self.value() or FlagStatus.OPEN
        for value, label in self.lookup_choices:
            yield {
                "selected": current == value,
                "query_string": changelist.get_query_string({self.parameter_name: value}),
                "display": label,
            }

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value() or FlagStatus.OPEN
        if value == "all":
            return queryset
        if value not in FlagStatus.values:
            return queryset.none()
        return queryset.filter(status=value)


def _names(flag: PairFlag) -> str:
    return f"{flag.user_a.username} · {flag.user_b.username}"


def _z(value: float | None) -> str:
    """A z-score as the page's language writes numbers, with its sign."""
    if value is None:
        return "—"
    return ("+" if value >= 0 else "−") + number_format(abs(value), 1)


@admin.register(PairFlag)
class PairFlagAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = (
        "pair",
        "status",
        "strength",
        "reasons_shown",
        "together",
        "lucky_shown",
        "coins_shown",
        "wins_shown",
        "updated_at",
    )
    list_filter = (StatusFilter,)
    list_select_related = ("user_a", "user_b")
    search_fields = ("user_a__username", "user_b__username")
    ordering = ("-strength", "pk")

    def get_queryset(self, request: HttpRequest) -> QuerySet[PairFlag]:
        return super().get_queryset(request).select_related("user_a", "user_b")

    change_form_template = "admin/fairplay/pairflag/change_form.html"
    fieldsets = (
        (None, {"fields": ("players", "status", "strength", "reasons_shown", "updated_at")}),
        (
            _("Together"),
            {
                "fields": ("window_days", "together", "as_partners", "as_opponents", "share"),
                "description": _(
                    "Rated, stake and league matches in the window. Playing together often "
                    "is not wrongdoing by itself (friends queue together)."
                ),
            },
        ),
        (
            _("Lucky guesses"),
            {
                "fields": (
                    "close_decisions",
                    "lucky_hits",
                    "lucky_expected",
                    "lucky_z",
                    "lucky_z_a",
                    "lucky_z_b",
                ),
                "description": _(
                    "In their matches as partners: decisions where the cards their own "
                    "knowledge rated nearly equal were far apart on the whole deal, and how "
                    "often they chose the whole deal's best, against players of their rating."
                ),
            },
        ),
        (
            _("Coins between them"),
            {
                "fields": ("stake_tables", "coins_a_to_b", "one_sided", "dump_z"),
                "description": _("At the stake tables where they sat as opponents."),
            },
        ),
        (
            _("Results against their ratings"),
            {
                "fields": (
                    "partner_wins",
                    "partner_expected",
                    "partner_z",
                    "versus_a_wins",
                    "versus_expected",
                    "versus_z",
                )
            },
        ),
        (_("Matches"), {"fields": ("match_list",)}),
        (_("Review"), {"fields": ("reviewed_by", "reviewed_at", "note", "created_at")}),
    )
    # Every field is evidence or the review's record: read, never edited here.
    readonly_fields = tuple(
        name for _title, part in fieldsets for name in cast("tuple[str, ...]", part["fields"])
    )

    @admin.display(description=_("pair"), ordering="user_a__username")
    def pair(self, flag: PairFlag) -> str:
        return _names(flag)

    @admin.display(description=_("players"))
    def players(self, flag: PairFlag) -> SafeString:
        return format_html_join(
            " · ",
            '{}: <a href="{}">{}</a>',
            (
                (label, reverse("admin:accounts_user_change", args=[user.pk]), user.username)
                for label, user in (("A", flag.user_a), ("B", flag.user_b))
            ),
        )

    @admin.display(description=_("reasons"))
    def reasons_shown(self, flag: PairFlag) -> str:
        labels = dict(FlagReason.choices)
        shown = [str(labels.get(reason, reason)) for reason in flag.reasons]
        return ", ".join(shown) or gettext("none now (still flagged for review)")

    @admin.display(description=_("share of their matches together"))
    def share(self, flag: PairFlag) -> str:
        return f"{flag.share_together:.0%}"

    @admin.display(description=_("lucky guesses (z)"), ordering="lucky_z")
    def lucky_shown(self, flag: PairFlag) -> str:
        best = [z for z in (flag.lucky_z, flag.lucky_z_a, flag.lucky_z_b) if z is not None]
        return _z(max(best) if best else None)

    @admin.display(description=_("net coins from A to B"), ordering="coins_a_to_b")
    def coins_shown(self, flag: PairFlag) -> str:
        return f"{flag.coins_a_to_b:+d}" if flag.stake_tables else "—"

    @admin.display(description=_("results (z)"))
    def wins_shown(self, flag: PairFlag) -> str:
        found = [abs(z) for z in (flag.partner_z, flag.versus_z) if z is not None]
        return _z(max(found) if found else None)

    @admin.display(description=_("matches and their replays"))
    def match_list(self, flag: PairFlag) -> SafeString | str:
        shown = list(flag.matches.all())
        if not shown:
            return "—"
        steps: dict[int, list[CloseDecision]] = defaultdict(list)
        for decision in CloseDecision.objects.filter(
            match_id__in=[m.match_id for m in shown], user_id__in=[flag.user_a_id, flag.user_b_id]
        ).order_by("number"):
            steps[decision.match_id].append(decision)
        names = {flag.user_a_id: flag.user_a.username, flag.user_b_id: flag.user_b.username}
        rows = []
        for row in shown:
            replay = reverse("history_match", args=[row.match_id])
            decisions = format_html_join(
                " ",
                '<a href="{}?step={}" title="{}">{}{}</a>',
                (
                    (
                        replay,
                        d.number,
                        names.get(d.user_id, ""),
                        d.chosen,
                        "✓" if d.hit else "✗",
                    )
                    for d in steps[row.match_id]
                ),
            )
            rows.append(
                (
                    replay,
                    row.match_id,
                    reverse("admin:games_match_change", args=[row.match_id]),
                    row.get_role_display(),
                    Mode(row.mode).label if row.mode in Mode.values else row.mode,
                    row.finished_at.strftime("%Y-%m-%d %H:%M"),
                    gettext("won") if row.a_won else gettext("lost"),
                    f"{row.hits}/{row.close}" if row.close else "—",
                    f"{row.coins_a_to_b:+d}" if row.coins_a_to_b else "—",
                    decisions or "—",
                )
            )
        head = format_html(
            "<tr><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th><th>{}</th>"
            "<th>{}</th><th>{}</th><th>{}</th></tr>",
            gettext("replay"),
            gettext("admin"),
            gettext("sat as"),
            gettext("mode"),
            gettext("finished"),
            gettext("A's side"),
            gettext("whole deal's choice / close"),
            gettext("coins A → B"),
            gettext("close decisions (✓ the whole deal's choice)"),
        )
        body = format_html_join(
            "",
            '<tr><td><a href="{}">#{}</a></td><td><a href="{}">{}</a></td><td>{}</td>'
            "<td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            (
                (replay, pk, admin_url, gettext("match"), *rest)
                for replay, pk, admin_url, *rest in rows
            ),
        )
        return format_html('<table class="fairplay-matches">{}{}</table>', head, body)

    staff_actions = {
        "dismiss": REVIEW_PERMISSION,
        "confirm": REVIEW_PERMISSION,
        "reopen": REVIEW_PERMISSION,
    }

    def staff_action_rows(self, request: HttpRequest) -> QuerySet[PairFlag]:
        return PairFlag.objects.select_related("user_a", "user_b")

    def dismiss_view(self, request: AuthenticatedHttpRequest, flag: PairFlag) -> HttpResponse:
        return self._decide(request, flag, FlagStatus.DISMISSED)

    def confirm_view(self, request: AuthenticatedHttpRequest, flag: PairFlag) -> HttpResponse:
        return self._decide(request, flag, FlagStatus.CONFIRMED)

    def _decide(
        self, request: AuthenticatedHttpRequest, flag: PairFlag, status: str
    ) -> HttpResponse:
        def decide(data: dict[str, Any]) -> str:
            services.flag_decide(
                staff_user=request.user, flag_id=flag.pk, decision=status, note=data["note"]
            )
            return self._decided_message(status, flag)

        dismissing = status == FlagStatus.DISMISSED
        title = (
            gettext("Dismiss the flag on %(pair)s")
            if dismissing
            else gettext("Confirm the flag on %(pair)s")
        )
        return self.staff_form(
            request,
            flag,
            form=NoteForm(request.POST or None),
            title=title % {"pair": _names(flag)},
            act=decide,
            back=reverse("admin:fairplay_pairflag_changelist"),
            submit_label=gettext("Dismiss") if dismissing else gettext("Confirm"),
        )

    def _decided_message(self, status: str, flag: PairFlag) -> str:
        pair = _names(flag)
        if status == FlagStatus.DISMISSED:
            return gettext("The flag on %(pair)s is dismissed.") % {"pair": pair}
        return gettext(
            "The flag on %(pair)s is confirmed. Act on the accounts from their pages."
        ) % {"pair": pair}

    def reopen_view(self, request: AuthenticatedHttpRequest, flag: PairFlag) -> HttpResponse:
        def reopen(data: dict[str, Any]) -> str:
            services.flag_reopen(staff_user=request.user, flag_id=flag.pk, note=data["note"])
            return gettext("The flag is open again.")

        return self.staff_form(
            request,
            flag,
            form=NoteForm(request.POST or None),
            title=gettext("Open the flag on %(pair)s again") % {"pair": _names(flag)},
            act=reopen,
            back=reverse("admin:fairplay_pairflag_change", args=[flag.pk]),
            submit_label=gettext("Open again"),
        )


@admin.register(ScreenRun)
class ScreenRunAdmin(ReadOnlyAdmin):
    list_display = (
        "started_at",
        "until",
        "candidates",
        "pair_matches",
        "baseline_matches",
        "flags_new",
        "flags_updated",
        "seconds",
    )
    readonly_fields = [field.name for field in ScreenRun._meta.fields]


@admin.register(BaselineBand)
class BaselineBandAdmin(ReadOnlyAdmin):
    list_display = ("band", "decisions", "hits", "rate_shown", "refreshed_at")
    readonly_fields = [field.name for field in BaselineBand._meta.fields]

    @admin.display(description=_("rate"))
    def rate_shown(self, band: BaselineBand) -> str:
        rate = band.rate
        return "—" if rate is None else f"{rate:.1%}"


@admin.register(ScreenedMatch)
class ScreenedMatchAdmin(ReadOnlyAdmin):
    list_display = ("match", "purpose", "screened_at", "decisions", "judged", "close", "error")
    list_filter = ("purpose",)
    readonly_fields = [field.name for field in ScreenedMatch._meta.fields]

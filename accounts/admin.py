from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from django.conf import settings
from django.contrib import admin
from django.contrib.admin import ModelAdmin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.db.models import Count, Exists, Model, OuterRef, QuerySet, Subquery
from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.forms import BanForm, ReasonForm
from accounts.hooks import match_talk
from accounts.http import AuthenticatedHttpRequest
from accounts.models import Ban, Report, User
from accounts.selectors import linked_accounts
from accounts.services import (
    BAN_PERMISSION,
    REPORT_CLOSE_PERMISSION,
    may_act_on,
    report_close,
    user_ban,
    user_unban,
)
from accounts.staff_actions import StaffActionsMixin

if TYPE_CHECKING:
    # Types only (django-stubs-ext is a development dependency).
    from django_stubs_ext import StrOrPromise, WithAnnotations


class BanStatus(TypedDict):
    """What UserAdmin.get_queryset annotates on each user."""

    is_banned: bool
    banned_until: datetime | None


class OpenAbout(TypedDict):
    """What ReportAdmin.get_queryset annotates on each report."""

    open_about: int | None


class ReadOnlyAdmin(admin.ModelAdmin):
    """Rows written by services only: staff may look, never add, change or delete.

    Shared by every app's admin (this app is the ground layer every app may import)."""

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class BannedFilter(admin.SimpleListFilter):
    title = gettext_lazy("ban status")
    parameter_name = "banned"

    def lookups(
        self, request: HttpRequest, model_admin: ModelAdmin[Any]
    ) -> list[tuple[str, StrOrPromise]]:
        return [("yes", gettext_lazy("Banned")), ("no", gettext_lazy("Not banned"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "yes":
            return queryset.filter(is_banned=True)
        if self.value() == "no":
            return queryset.filter(is_banned=False)
        return queryset


class BanInline(admin.TabularInline):
    model = Ban
    fk_name = "user"
    extra = 0
    can_delete = False
    fields = (
        "created_at",
        "created_by",
        "until",
        "reason",
        "lifted_at",
        "lifted_by",
        "lift_reason",
    )
    readonly_fields = fields
    verbose_name_plural = gettext_lazy("ban history")

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return request.user.has_perm("accounts.view_ban")


def _format_moment(moment: datetime) -> str:
    return date_format(timezone.localtime(moment), "DATETIME_FORMAT")


#: Who sees a user's linked accounts (the moderators' group holds it; accounts.groups).
LINKED_PERMISSION = "accounts.view_signin"


@admin.register(User)
class UserAdmin(StaffActionsMixin, DjangoUserAdmin):
    list_display = (
        "username",
        "email",
        "date_joined",
        "last_login",
        "is_active",
        "is_staff",
        "ban_status",
    )
    list_filter = (BannedFilter, *DjangoUserAdmin.list_filter)
    search_fields = ("username", "email")
    fieldsets = (
        *(DjangoUserAdmin.fieldsets or ()),  # always set; the stubs allow None
        (gettext_lazy("Preferences"), {"fields": ("language",)}),
    )
    inlines = [BanInline]
    change_form_template = "admin/accounts/user/change_form.html"
    readonly_fields = ("linked_accounts",)
    staff_actions = {"ban": BAN_PERMISSION, "unban": BAN_PERMISSION}

    def get_fieldsets(self, request: HttpRequest, obj: Model | None = None) -> Any:
        fieldsets = super().get_fieldsets(request, obj)
        if obj is None or not request.user.has_perm(LINKED_PERMISSION):
            return fieldsets
        linked = (
            gettext_lazy("Linked accounts"),
            {
                "fields": ("linked_accounts",),
                "description": _(
                    "Accounts that signed in on a device this one signed in on (in the "
                    "last %(keep)d days), or from a network this one signed in from, both "
                    "in the last %(days)d days. No address and no device id is kept: "
                    "only a keyed hash of each."
                )
                % {"keep": settings.SIGN_IN_KEEP_DAYS, "days": settings.LINKED_NETWORK_DAYS},
            },
        )
        return (*fieldsets, linked)

    @admin.display(description=gettext_lazy("linked accounts"))
    def linked_accounts(self, obj: User) -> str:
        """Each linked account (a link to its page), and the latest sign-in of it on a
        shared device and from a shared network."""
        links = linked_accounts(obj.pk)
        if not links:
            return _("No linked account.")

        def when(moment: datetime | None) -> str:
            return _format_moment(moment) if moment is not None else "—"

        head = format_html(
            '<thead><tr><th scope="col">{}</th><th scope="col">{}</th>'
            '<th scope="col">{}</th></tr></thead>',
            _("Account"),
            _("Same device, last sign-in"),
            _("Same network, last sign-in"),
        )
        body = format_html_join(
            "",
            '<tr><td><a href="{}">{}</a></td><td>{}</td><td>{}</td></tr>',
            (
                (
                    reverse("admin:accounts_user_change", args=[link.user_id]),
                    link.username,
                    when(link.device_at),
                    when(link.network_at),
                )
                for link in links
            ),
        )
        return format_html(
            '<table class="linked-accounts" data-testid="linked-accounts">{}<tbody>{}</tbody>'
            "</table>",
            head,
            body,
        )

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        # Annotated once for the whole page: the list shows every user's status without N+1.
        in_force = Ban.objects.active(timezone.now()).filter(user=OuterRef("pk"))
        return (
            super()
            .get_queryset(request)
            .annotate(
                is_banned=Exists(in_force),
                banned_until=Subquery(in_force.order_by("-created_at", "-pk").values("until")[:1]),
            )
        )

    @admin.display(description=gettext_lazy("ban"), ordering="is_banned")
    def ban_status(self, obj: WithAnnotations[User, BanStatus]) -> str:
        if not getattr(obj, "is_banned", False):
            return "—"
        if obj.banned_until is None:
            return _("Banned, no end")
        return _("Banned until %(until)s") % {"until": _format_moment(obj.banned_until)}

    def staff_action_rows(self, request: HttpRequest) -> QuerySet[User]:
        return self.get_queryset(request)

    def staff_may_act(self, request: HttpRequest, row: Model) -> bool:
        # Staff accounts: superusers only.
        staff = request.user
        return isinstance(staff, User) and isinstance(row, User) and may_act_on(staff, row)

    def ban_view(self, request: AuthenticatedHttpRequest, target: User) -> HttpResponse:
        def ban(data: dict[str, Any]) -> str:
            user_ban(
                user=target, staff_user=request.user, reason=data["reason"], until=data["until"]
            )
            return _("%(user)s is banned.") % {"user": target}

        return self.staff_form(
            request,
            target,
            form=BanForm(request.POST or None),
            title=_("Ban %(user)s") % {"user": target},
            act=ban,
            back=reverse("admin:accounts_user_change", args=[target.pk]),
            submit_label=_("Ban"),
        )

    def unban_view(self, request: AuthenticatedHttpRequest, target: User) -> HttpResponse:
        def unban(data: dict[str, Any]) -> str:
            user_unban(user=target, staff_user=request.user, reason=data["reason"])
            return _("The ban on %(user)s is lifted.") % {"user": target}

        return self.staff_form(
            request,
            target,
            form=ReasonForm(request.POST or None),
            title=_("Lift the ban on %(user)s") % {"user": target},
            act=unban,
            back=reverse("admin:accounts_user_change", args=[target.pk]),
            submit_label=_("Unban"),
        )


class ActiveBanFilter(admin.SimpleListFilter):
    title = gettext_lazy("in force")
    parameter_name = "in_force"

    def lookups(
        self, request: HttpRequest, model_admin: ModelAdmin[Any]
    ) -> list[tuple[str, StrOrPromise]]:
        return [("yes", gettext_lazy("In force")), ("no", gettext_lazy("Ended or lifted"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        active = Ban.objects.active(timezone.now()).values("pk")
        if self.value() == "yes":
            return queryset.filter(pk__in=active)
        if self.value() == "no":
            return queryset.exclude(pk__in=active)
        return queryset


@admin.register(Ban)
class BanAdmin(admin.ModelAdmin):
    """Bans are made and lifted from the user's page; here they are only listed."""

    list_display = ("user", "created_at", "until", "created_by", "lifted_at", "lifted_by")
    list_filter = (ActiveBanFilter, "created_at")
    list_select_related = ("user", "created_by", "lifted_by")
    search_fields = ("user__username", "user__email", "reason")
    readonly_fields = [field.name for field in Ban._meta.fields]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class OpenReportFilter(admin.SimpleListFilter):
    title = gettext_lazy("status")
    parameter_name = "status"

    def lookups(
        self, request: HttpRequest, model_admin: ModelAdmin[Any]
    ) -> list[tuple[str, StrOrPromise]]:
        return [("open", gettext_lazy("Open")), ("closed", gettext_lazy("Closed"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        if self.value() == "open":
            return queryset.filter(closed_at__isnull=True)
        if self.value() == "closed":
            return queryset.filter(closed_at__isnull=False)
        return queryset


@admin.register(Report)
class ReportAdmin(StaffActionsMixin, admin.ModelAdmin):
    list_display = (
        "__str__",
        "reporter",
        "reported",
        "reason",
        "created_at",
        "status",
        "match_link",
        "open_about_player",
    )
    list_filter = (OpenReportFilter, "reason", "created_at")
    list_select_related = ("reporter", "reported", "closed_by")
    search_fields = ("reporter__username", "reported__username", "text")
    readonly_fields = [
        *(field.name for field in Report._meta.fields),
        "match_link",
        "talk_transcript",
    ]
    change_form_template = "admin/accounts/report/change_form.html"
    staff_actions = {"close": REPORT_CLOSE_PERMISSION}

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        # The only change is closing, through its own form; the fields stay read-only.
        return False

    @admin.display(description=gettext_lazy("status"), boolean=False)
    def status(self, obj: Report) -> str:
        return _("Open") if obj.is_open else _("Closed")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Report]:
        # Duplicates grouped: each row says how many open reports name the same player.
        about_player = (
            Report.objects.filter(reported=OuterRef("reported"), closed_at__isnull=True)
            .order_by()
            .values("reported")
            .annotate(count=Count("pk"))
            .values("count")
        )
        return super().get_queryset(request).annotate(open_about=Subquery(about_player))

    @admin.display(description=gettext_lazy("open reports on this player"), ordering="-open_about")
    def open_about_player(self, obj: WithAnnotations[Report, OpenAbout]) -> str:
        count = obj.open_about or 0
        if not count:
            return "0"
        url = reverse("admin:accounts_report_changelist")
        return format_html(
            '<a href="{}?reported__id__exact={}&amp;status=open">{}</a>',
            url,
            obj.reported_id,
            count,
        )

    @admin.display(description=gettext_lazy("match"))
    def match_link(self, obj: Report) -> str:
        if obj.match_id is None:
            return "—"
        url = reverse("admin:games_match_change", args=[obj.match_id])
        return format_html('<a href="{}">#{}</a>', url, obj.match_id)

    @admin.display(description=gettext_lazy("table talk of the match"))
    def talk_transcript(self, obj: Report) -> str:
        """What was said at the match the report is about, in order (every phrase in
        the moderator's language, free text as written and escaped)."""
        if obj.match_id is None:
            return "—"
        lines = match_talk(obj.match_id)
        if not lines:
            return _("Nothing was said.")
        return format_html(
            '<ol class="talk-transcript">{}</ol>',
            format_html_join(
                "",
                '<li><time datetime="{}">{}</time> · {} ({}): {}</li>',
                (
                    (
                        line["at"].isoformat(),
                        line["at"].strftime("%H:%M:%S"),
                        line["name"],
                        # a watcher's line was said to the other watchers only
                        _("watcher")
                        if line["seat"] is None
                        else _("seat %(n)d") % {"n": line["seat"] + 1},
                        line["said"],
                    )
                    for line in lines
                ),
            ),
        )

    def close_view(self, request: AuthenticatedHttpRequest, report: Report) -> HttpResponse:
        form = ReasonForm(request.POST or None)
        form.fields["reason"].label = _("Note")

        def close(data: dict[str, Any]) -> str:
            report_close(report=report, staff_user=request.user, note=data["reason"])
            return _("The report is closed.")

        return self.staff_form(
            request,
            report,
            form=form,
            title=_("Close report %(report)s") % {"report": report},
            act=close,
            back=reverse("admin:accounts_report_changelist") + "?status=open",
            submit_label=_("Close report"),
        )

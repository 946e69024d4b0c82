from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any, TypedDict

from django.conf import settings
from django.contrib import admin, messages
from django.contrib.admin import AdminSite, ModelAdmin
from django.contrib.auth.admin import UserAdmin as DjangoUserAdmin
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Exists, Model, OuterRef, QuerySet, Subquery
from django.db.models.options import Options
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.errors import AccountsError
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


def staff_form_page(
    request: HttpRequest,
    admin_site: AdminSite,
    *,
    title: str,
    obj: Model,
    form: Form,
    opts: Options[Any],
    submit_label: str,
    status: int = 200,
) -> TemplateResponse:
    """A staff action's form on an object (a ban, closing a report, a flag's decision):
    the object's breadcrumbs, the form, its submit button and a way back. Shared by
    every app's admin."""
    context = {
        **admin_site.each_context(request),
        "title": title,
        "object": obj,
        "form": form,
        "opts": opts,
        "submit_label": submit_label,
    }
    return TemplateResponse(
        request, "admin/accounts/staff_action_form.html", context, status=status
    )


#: Who sees a user's linked accounts (the moderators' group holds it; accounts.groups).
LINKED_PERMISSION = "accounts.view_signin"


@admin.register(User)
class UserAdmin(DjangoUserAdmin):
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

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:user_id>/ban/",
                self.admin_site.admin_view(self.ban_view),
                name="accounts_user_ban",
            ),
            path(
                "<int:user_id>/unban/",
                self.admin_site.admin_view(self.unban_view),
                name="accounts_user_unban",
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
        target = User.objects.filter(pk=object_id).first() if str(object_id).isdigit() else None
        extra_context = {
            **(extra_context or {}),
            # admin_view lets only signed-in staff here; is_authenticated narrows the type.
            "can_ban": request.user.is_authenticated
            and request.user.has_perm(BAN_PERMISSION)
            and (target is None or may_act_on(request.user, target)),
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def _target(self, request: AuthenticatedHttpRequest, user_id: int) -> User:
        if not request.user.has_perm(BAN_PERMISSION):
            raise PermissionDenied
        target = get_object_or_404(self.get_queryset(request), pk=user_id)
        if not may_act_on(request.user, target):
            raise PermissionDenied  # staff accounts: superusers only
        return target

    def _back(self, target: User) -> HttpResponse:
        return redirect(reverse("admin:accounts_user_change", args=[target.pk]))

    def ban_view(self, request: AuthenticatedHttpRequest, user_id: int) -> HttpResponse:
        target = self._target(request, user_id)
        form = BanForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                user_ban(
                    user=target,
                    staff_user=request.user,
                    reason=form.cleaned_data["reason"],
                    until=form.cleaned_data["until"],
                )
            except AccountsError as error:
                form.add_error(None, str(error))
            else:
                self.message_user(request, _("%(user)s is banned.") % {"user": target})
                return self._back(target)
        return staff_form_page(
            request,
            self.admin_site,
            title=_("Ban %(user)s") % {"user": target},
            obj=target,
            form=form,
            opts=self.opts,
            submit_label=_("Ban"),
        )

    def unban_view(self, request: AuthenticatedHttpRequest, user_id: int) -> HttpResponse:
        target = self._target(request, user_id)
        form = ReasonForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            try:
                user_unban(user=target, staff_user=request.user, reason=form.cleaned_data["reason"])
            except AccountsError as error:
                form.add_error(None, str(error))
            else:
                self.message_user(request, _("The ban on %(user)s is lifted.") % {"user": target})
                return self._back(target)
        return staff_form_page(
            request,
            self.admin_site,
            title=_("Lift the ban on %(user)s") % {"user": target},
            obj=target,
            form=form,
            opts=self.opts,
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
class ReportAdmin(admin.ModelAdmin):
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

    def get_urls(self) -> list[URLPattern]:
        return [
            path(
                "<int:report_id>/close/",
                self.admin_site.admin_view(self.close_view),
                name="accounts_report_close",
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
            "can_close": request.user.has_perm(REPORT_CLOSE_PERMISSION),
        }
        return super().change_view(request, object_id, form_url, extra_context)

    def close_view(self, request: AuthenticatedHttpRequest, report_id: int) -> HttpResponse:
        if not request.user.has_perm(REPORT_CLOSE_PERMISSION):
            raise PermissionDenied
        report = get_object_or_404(Report, pk=report_id)
        form = ReasonForm(request.POST or None)
        form.fields["reason"].label = _("Note")
        if request.method == "POST" and form.is_valid():
            try:
                report_close(
                    report=report, staff_user=request.user, note=form.cleaned_data["reason"]
                )
            except AccountsError as error:
                form.add_error(None, str(error))
            else:
                messages.success(request, _("The report is closed."))
                return redirect(reverse("admin:accounts_report_changelist") + "?status=open")
        return staff_form_page(
            request,
            self.admin_site,
            title=_("Close report %(report)s") % {"report": report},
            obj=report,
            form=form,
            opts=self.opts,
            submit_label=_("Close report"),
        )

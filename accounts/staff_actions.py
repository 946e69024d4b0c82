"""Staff actions in the admin: a page per action on one row (ban or unban a user,
close a report, abort a match, void a daily result, reset a rating, adjust a
balance), each behind its own permission and each calling one service.

`StaffActionsMixin` gives a ModelAdmin what every such action needs, once:

- its URL, `<id>/<action>/`, named `<app>_<model>_<action>` (`admin:accounts_user_ban`);
- the permission checked, and the row looked up (404 when there is none), before the
  action's method runs: `<action>_view(request, row)`;
- a `can_<action>` flag on the change page, which shows the action's button;
- the action's form page (`staff_form`): the form under a title; once posted and
  valid, the service runs, and its refusal (a domain error) is shown on the form
  (400), or the staff member is sent back with what was done.

Shared by every app's admin (this app is the ground layer every app may import).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Model, QuerySet
from django.forms import Form
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path

from accounts.http import AuthenticatedHttpRequest
from ops.domain import DomainError

#: The page of a staff action: a form, its submit button, the row it acts on.
STAFF_ACTION_FORM = "admin/accounts/staff_action_form.html"


class StaffActionsMixin(admin.ModelAdmin):
    """Staff actions on one row of this admin's model (see the module's docstring).
    Put it first among the bases: `class MatchAdmin(StaffActionsMixin, ReadOnlyAdmin)`."""

    #: Each action by name (its URL's last part) and the permission it needs.
    staff_actions: Mapping[str, str] = {}

    def staff_action_rows(self, request: HttpRequest) -> QuerySet[Any]:
        """The rows an action may be asked for (others are 404)."""
        return self.model._default_manager.all()

    def staff_may_act(self, request: HttpRequest, row: Model) -> bool:
        """Whether the staff member, who holds the action's permission, may act on
        `row` (accounts: only superusers act on staff accounts)."""
        return True

    def get_urls(self) -> list[URLPattern]:
        opts = self.opts
        return [
            path(
                f"<int:object_id>/{name}/",
                self.admin_site.admin_view(self._staff_view(name)),
                name=f"{opts.app_label}_{opts.model_name}_{name}",
            )
            for name in self.staff_actions
        ] + super().get_urls()

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        extra = {**(extra_context or {})}
        allowed = {
            name: request.user.is_authenticated and request.user.has_perm(permission)
            for name, permission in self.staff_actions.items()
        }
        row = self.get_object(request, object_id) if any(allowed.values()) else None
        on_row = row is None or self.staff_may_act(request, row)
        for name, permitted in allowed.items():
            extra[f"can_{name}"] = permitted and on_row
        return super().change_view(request, object_id, form_url, extra)

    def _staff_view(self, name: str) -> Callable[..., HttpResponse]:
        permission = self.staff_actions[name]
        act: Callable[[AuthenticatedHttpRequest, Any], HttpResponse] = getattr(self, f"{name}_view")

        def view(request: AuthenticatedHttpRequest, object_id: int) -> HttpResponse:
            if not request.user.has_perm(permission):
                raise PermissionDenied
            row = get_object_or_404(self.staff_action_rows(request), pk=object_id)
            if not self.staff_may_act(request, row):
                raise PermissionDenied
            return act(request, row)

        return view

    def staff_form(
        self,
        request: AuthenticatedHttpRequest,
        row: Model,
        *,
        form: Form,
        title: str,
        act: Callable[[dict[str, Any]], str],
        back: str,
        submit_label: str = "",
        error_field: str | None = None,
        template: str = STAFF_ACTION_FORM,
    ) -> HttpResponse:
        """The action's page: `form` under `title`. Posted and valid, `act(cleaned_data)`
        calls the service and says what was done; the staff member is then sent to
        `back` with that message. A refusal of the service (a domain error) is shown on
        the form (on `error_field`, else above it), as is an invalid form: 400."""
        if request.method == "POST" and form.is_valid():
            try:
                done = act(form.cleaned_data)
            except DomainError as error:
                form.add_error(error_field, error.message)
            else:
                self.message_user(request, done, messages.SUCCESS)
                return redirect(back)
        context = {
            **self.admin_site.each_context(request),
            "title": title,
            "object": row,
            "form": form,
            "opts": self.opts,
            "submit_label": submit_label,
        }
        status = 400 if request.method == "POST" else 200
        return TemplateResponse(request, template, context, status=status)

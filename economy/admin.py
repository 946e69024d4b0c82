"""The ledger in the admin: read-only accounts, transactions and entries; a staff
adjustment form that posts a correcting transaction; editable products."""

import uuid
from typing import Any

from django.contrib import admin, messages
from django.db.models import Model, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.admin import ReadOnlyAdmin
from accounts.http import AuthenticatedHttpRequest
from accounts.staff_actions import StaffActionsMixin
from economy.forms import AdjustmentForm
from economy.models import (
    Account,
    AccountKind,
    Entry,
    LedgerAudit,
    Perk,
    Product,
    Transaction,
)
from economy.services import balance_adjust

ADJUST_PERMISSION = "economy.adjust_balance"


class EntryInline(admin.TabularInline):
    model = Entry
    fields = ("account", "amount")
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


@admin.register(Account)
class AccountAdmin(StaffActionsMixin, ReadOnlyAdmin):
    list_display = ("__str__", "kind", "currency", "user", "table_id", "balance", "settled_at")
    list_filter = ("kind", "currency")
    search_fields = ("user__username", "user__email", "table_id")
    list_select_related = ("user",)
    readonly_fields = (
        "kind",
        "currency",
        "user",
        "table_id",
        "balance",
        "settled_at",
        "created_at",
        "adjust_link",
    )
    actions = ["adjust_balance"]
    staff_actions = {"adjust": ADJUST_PERMISSION}

    @admin.display(description=gettext_lazy("adjustment"))
    def adjust_link(self, obj: Account) -> str:
        if obj.kind != AccountKind.USER:
            return "—"
        url = reverse("admin:economy_account_adjust", args=[obj.pk])
        return format_html('<a class="button" href="{}">{}</a>', url, _("Adjust balance"))

    def has_adjust_permission(self, request: HttpRequest) -> bool:
        return request.user.has_perm(ADJUST_PERMISSION)

    @admin.action(
        description=gettext_lazy("Adjust the balance of the selected account"),
        permissions=["adjust"],
    )
    def adjust_balance(
        self, request: HttpRequest, queryset: QuerySet[Account]
    ) -> HttpResponse | None:
        accounts = list(queryset[:2])
        if len(accounts) != 1 or accounts[0].kind != AccountKind.USER:
            self.message_user(
                request, _("Select exactly one user account to adjust."), messages.ERROR
            )
            return None
        return redirect("admin:economy_account_adjust", accounts[0].pk)

    def staff_action_rows(self, request: HttpRequest) -> QuerySet[Account]:
        # Only a user's account (economy_account_user_iff_user_kind: it has its user).
        return Account.objects.filter(kind=AccountKind.USER, user__isnull=False)

    def adjust_view(self, request: AuthenticatedHttpRequest, account: Account) -> HttpResponse:
        user = account.user
        assert user is not None  # staff_action_rows

        def adjust(data: dict[str, Any]) -> str:
            txn = balance_adjust(
                staff_user=request.user,
                user=user,
                amount=data["amount"],
                reason=data["reason"],
                idempotency_key=str(data["key"]),
                currency=account.currency,
            )
            self.log_change(
                request,
                account,
                f"adjustment {txn.pk}: {data['amount']:+d} {account.currency}, "
                f"reason: {data['reason']}",
            )
            return _("Adjustment posted as transaction %(id)s.") % {"id": txn.pk}

        posted = request.method == "POST"
        return self.staff_form(
            request,
            account,
            form=AdjustmentForm(request.POST if posted else None, initial={"key": uuid.uuid4()}),
            title=_("Adjust the balance of %(account)s") % {"account": account},
            act=adjust,
            back=reverse("admin:economy_account_change", args=[account.pk]),
            submit_label=_("Post adjustment"),
            template="admin/economy/adjust_form.html",
        )


@admin.register(Transaction)
class TransactionAdmin(ReadOnlyAdmin):
    list_display = ("pk", "created_at", "kind", "memo", "product", "staff_user", "match_id")
    list_filter = ("kind",)
    search_fields = ("idempotency_key", "memo", "entries__account__user__username")
    list_select_related = ("product", "staff_user")
    date_hierarchy = "created_at"
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("pk", "transaction", "account", "amount")
    list_select_related = ("transaction", "account", "account__user")
    search_fields = ("account__user__username",)
    list_filter = ("account__currency", "account__kind")


@admin.register(Perk)
class PerkAdmin(ReadOnlyAdmin):
    list_display = ("user", "effect", "ends_at")
    list_filter = ("effect",)
    search_fields = ("user__username",)
    list_select_related = ("user",)


@admin.register(Product)
class ProductAdmin(admin.ModelAdmin):
    list_display = ("label", "code", "effect", "price", "duration", "active", "position")
    list_editable = ("price", "active", "position")
    list_filter = ("active", "effect")

    @admin.display(description=gettext_lazy("name"), ordering="name")
    def label(self, obj: Product) -> str:
        """The name in the reader's language (the stored name is the catalogue's msgid)."""
        return _(obj.name)

    def has_delete_permission(self, request: HttpRequest, obj: Product | None = None) -> bool:
        return False  # switch a product off instead: past purchases point at it


@admin.register(LedgerAudit)
class LedgerAuditAdmin(ReadOnlyAdmin):
    """The periodic audit's runs: what it found, when (the alerts point here)."""

    list_display = ("ran_at", "violations", "seconds")
    list_filter = ("violations",)
    fields = ("ran_at", "violations", "seconds", "detail")
    readonly_fields = fields
    date_hierarchy = "ran_at"

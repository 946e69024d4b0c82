"""Wallet, daily bonus and shop pages. Thin: the services do the work."""

import uuid
from decimal import Decimal

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts.http import AuthenticatedHttpRequest, page_or_404, query_number
from economy import selectors, services
from economy.errors import EconomyError
from economy.forms import PurchaseForm
from economy.models import Product


@login_required
@require_GET
def wallet(request: AuthenticatedHttpRequest) -> HttpResponse:
    per_page = settings.ECONOMY_TRANSACTIONS_PER_PAGE
    paginator = Paginator(selectors.user_transactions(request.user), per_page=per_page)
    page = page_or_404(paginator, query_number(request, "page", default=1, minimum=1))
    context = {"summary": selectors.wallet_summary(request.user), "page": page}
    template = "economy/wallet.html"
    if request.htmx and request.htmx.target == "transactions":
        template += "#transactions"
    return TemplateResponse(request, template, context)


@login_required
@require_POST
def daily_bonus(request: AuthenticatedHttpRequest) -> HttpResponse:
    txn = services.daily_bonus_claim(user=request.user)
    amount = txn.entries.filter(account__user=request.user).values_list("amount", flat=True)[0]
    if txn.replayed:
        message = _("You already claimed today's bonus. Come back tomorrow.")
    else:
        message = _("You got %(amount)s coins.") % {"amount": amount}
    if not request.htmx:
        # A second claim is a refusal, and looks like one.
        (messages.error if txn.replayed else messages.success)(request, message)
        return redirect("wallet")
    # The daily region, and out of band the balance, the nav and the newest transactions.
    per_page = settings.ECONOMY_TRANSACTIONS_PER_PAGE
    context = {
        "summary": selectors.wallet_summary(request.user),
        "page": Paginator(selectors.user_transactions(request.user), per_page=per_page).page(1),
        "daily_message": message,
        "daily_refused": txn.replayed,
        "oob_nav": True,
    }
    return TemplateResponse(request, "economy/wallet.html#daily", context)


@login_required
@require_GET
def shop(request: AuthenticatedHttpRequest) -> HttpResponse:
    return _shop_page(request)


def _shop_page(
    request: AuthenticatedHttpRequest,
    *,
    confirm: Product | None = None,
    form: PurchaseForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "products": selectors.products_on_sale(),
        "summary": selectors.wallet_summary(request.user),
        "confirm": confirm,
        "form": form,
        "rates": {
            # Decimals, so that the page writes them the reader's way ("×1,5" in Spanish).
            "booster": Decimal(settings.ECONOMY_BOOSTER_MULTIPLIER),
            "vip": Decimal(settings.ECONOMY_VIP_MULTIPLIER),
            "vip_daily_bonus": settings.ECONOMY_DAILY_BONUS_VIP,
            # The coach's daily analyses without a VIP pass (docs/coach.md).
            "coach_daily": settings.COACH_DAILY_ANALYSES,
        },
    }
    return TemplateResponse(request, "economy/shop.html", context, status=status)


@login_required
@require_GET
def purchase_confirm(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    product = get_object_or_404(Product, code=code)
    if not product.active:
        return _refuse(request, product, _("This product is not on sale."))
    form = PurchaseForm(initial={"key": uuid.uuid4()})
    if request.htmx:
        context = {
            "product": product,
            "form": form,
            "summary": selectors.wallet_summary(request.user),
        }
        return TemplateResponse(request, "economy/shop.html#confirm", context)
    return _shop_page(request, confirm=product, form=form)


@login_required
@require_POST
def purchase(request: AuthenticatedHttpRequest, code: str) -> HttpResponse:
    product = get_object_or_404(Product, code=code)
    form = PurchaseForm(request.POST)
    if not form.is_valid():
        return _refuse(request, product, _("This purchase form is not valid. Please try again."))
    try:
        txn = services.product_purchase(
            user=request.user, product=product, idempotency_key=str(form.cleaned_data["key"])
        )
    except EconomyError as error:
        return _refuse(request, product, error.message)
    perk = request.user.perks.get(effect=product.effect)
    message = _("%(product)s bought. Active until %(end)s.") % {
        "product": _(product.name),
        "end": formats.date_format(timezone.localtime(perk.ends_at), "SHORT_DATETIME_FORMAT"),
    }
    if not request.htmx:
        messages.success(request, message)
        return redirect("shop")
    context = {
        "product": product,
        "result": message,
        "ok": True,
        "replayed": txn.replayed,
        "summary": selectors.wallet_summary(request.user),
        "oob_nav": True,
    }
    return TemplateResponse(request, "economy/shop.html#result", context)


def _refuse(request: AuthenticatedHttpRequest, product: Product, message: str) -> HttpResponse:
    if not request.htmx:
        messages.error(request, message)
        return redirect("shop")
    context = {
        "product": product,
        "result": message,
        "ok": False,
        "summary": selectors.wallet_summary(request.user),
    }
    return TemplateResponse(request, "economy/shop.html#result", context)

"""The shop: buying a booster or the VIP pass with coins."""

from __future__ import annotations

from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from economy.errors import InsufficientFunds, ProductUnavailable
from economy.models import AccountKind, Currency, Perk, Product, Transaction, TransactionKind
from economy.services import ledger
from economy.services.ledger import (
    accounts_for,
    cached_balance,
    call_fingerprint,
    lock_in_order,
    posted,
    record,
    system_account,
    user_account,
)


def product_purchase(
    *, user: User, product: Product, idempotency_key: str, now: datetime | None = None
) -> Transaction:
    """Buy `product` for `user`: coins to the shop, the perk started or extended from its end.

    Key "purchase:<user_id>:<idempotency_key>" (the shop form sends a fresh key per
    confirmation, so a double click buys once). Raises ProductUnavailable when the
    product is switched off and InsufficientFunds when the balance is short; nothing
    changes then.
    """
    now = now or timezone.now()
    key = f"purchase:{user.pk}:{idempotency_key}"
    fingerprint = call_fingerprint(user=user.pk, product=product.pk)
    if (done := posted(key, TransactionKind.PURCHASE, fingerprint)) is not None:
        return done
    coins, shop = accounts_for(
        user_account(user, Currency.COINS), system_account(AccountKind.SHOP, Currency.COINS)
    )
    with transaction.atomic():
        locked = lock_in_order([coins])
        if (done := posted(key, TransactionKind.PURCHASE, fingerprint)) is not None:
            return done
        fresh = Product.objects.filter(pk=product.pk).first()
        if fresh is None or not fresh.active:
            raise ProductUnavailable()
        product = fresh
        if cached_balance(locked[coins.pk]) < product.price:
            raise InsufficientFunds()
        txn = record(
            key=key,
            kind=TransactionKind.PURCHASE,
            fingerprint=fingerprint,
            legs=[(coins, -product.price), (shop, product.price)],
            memo=product.name,
            product=product,
        )
        if txn.replayed:
            return txn
        # The coin account lock serialises this user's purchases, so the perk row is safe.
        perk = Perk.objects.select_for_update().filter(user=user, effect=product.effect).first()
        if perk is None:
            Perk.objects.create(user=user, effect=product.effect, ends_at=now + product.duration)
        else:
            perk.ends_at = max(perk.ends_at, now) + product.duration
            perk.save(update_fields=["ends_at"])
        ledger.fault("after-perk")
        return txn

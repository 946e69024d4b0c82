"""Coins and XP issued to a user: grants (league prizes), the signup bonus and the
daily bonus. No booster or VIP multiplier ever applies to them."""

from __future__ import annotations

from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from economy.models import AccountKind, Currency, Effect, Transaction, TransactionKind
from economy.selectors import bonus_day, perk_active
from economy.services.ledger import (
    accounts_for,
    call_fingerprint,
    lock_in_order,
    positive_int,
    posted,
    record,
    system_account,
    user_account,
)

GRANT_KINDS = (
    TransactionKind.GRANT,
    TransactionKind.SIGNUP_BONUS,
    TransactionKind.DAILY_BONUS,
    TransactionKind.LEAGUE_PRIZE,
)


def ledger_grant(
    *,
    user: User,
    amount: int,
    idempotency_key: str,
    currency: str = Currency.COINS,
    kind: str = TransactionKind.GRANT,
    memo: str = "",
) -> Transaction:
    """Issue `amount` coins or XP to `user` from the issuance account (bonuses, league prizes).

    `idempotency_key` is used as given (e.g. "league:2026-W48:gold:1:<user_id>"); no
    booster or VIP multiplier ever applies. The fingerprint covers the user, amount,
    currency and kind (not the memo, a label).
    """
    amount = positive_int(amount)
    if kind not in GRANT_KINDS:
        raise ValueError(f"ledger_grant cannot post a {kind!r} transaction")
    fingerprint = call_fingerprint(user=user.pk, amount=amount, currency=currency, kind=kind)
    return _grant(
        user=user,
        amount=amount,
        key=idempotency_key,
        currency=currency,
        kind=kind,
        memo=memo,
        fingerprint=fingerprint,
    )


def _grant(
    *, user: User, amount: int, key: str, currency: str, kind: str, memo: str, fingerprint: str
) -> Transaction:
    if (done := posted(key, kind, fingerprint)) is not None:
        return done  # before accounts_for: a replayed or refused call creates nothing
    account, issuance = accounts_for(
        user_account(user, currency), system_account(AccountKind.ISSUANCE, currency)
    )
    with transaction.atomic():
        lock_in_order([account])
        if (done := posted(key, kind, fingerprint)) is not None:
            return done
        return record(
            key=key,
            kind=kind,
            fingerprint=fingerprint,
            legs=[(issuance, -amount), (account, amount)],
            memo=memo,
        )


def signup_bonus_grant(*, user: User) -> Transaction | None:
    """Open the user's coin and XP accounts and grant the signup bonus once.

    Key "signup:<user_id>".
    """
    accounts_for(user_account(user, Currency.COINS), user_account(user, Currency.XP))
    amount = settings.ECONOMY_SIGNUP_BONUS
    if amount <= 0:
        return None
    # The request is "this user's bonus": a changed setting replays, not conflicts.
    return _grant(
        user=user,
        amount=amount,
        key=f"signup:{user.pk}",
        currency=Currency.COINS,
        kind=TransactionKind.SIGNUP_BONUS,
        memo="signup bonus",
        fingerprint=call_fingerprint(user=user.pk),
    )


def daily_bonus_claim(*, user: User, now: datetime | None = None) -> Transaction:
    """Grant today's daily bonus (VIP: the VIP amount); key "daily:<user_id>:<Madrid date>".

    A second claim the same day returns the first transaction with `replayed=True`.
    """
    now = now or timezone.now()
    vip = perk_active(user=user, effect=Effect.VIP, now=now)
    amount = settings.ECONOMY_DAILY_BONUS_VIP if vip else settings.ECONOMY_DAILY_BONUS
    day = bonus_day(now)
    # The request is "this user's bonus for this day": the amount is derived from it.
    return _grant(
        user=user,
        amount=positive_int(amount),
        key=f"daily:{user.pk}:{day}",
        currency=Currency.COINS,
        kind=TransactionKind.DAILY_BONUS,
        memo=f"daily bonus {day}" + (" (VIP)" if vip else ""),
        fingerprint=call_fingerprint(user=user.pk, day=day),
    )

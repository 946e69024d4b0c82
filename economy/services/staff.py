"""Staff corrections of a balance (the admin's "Adjust balance")."""

from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext

from accounts.models import User
from economy.errors import InsufficientFunds, InvalidAmount, NotStaff, ReasonRequired
from economy.models import AccountKind, Currency, Transaction, TransactionKind
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


def balance_adjust(
    *,
    staff_user: User,
    user: User,
    amount: int,
    reason: str,
    idempotency_key: str,
    currency: str = Currency.COINS,
) -> Transaction:
    """Post a staff correction: `amount` (±) to the user, the opposite to the adjustments account.

    Key "adjust:<idempotency_key>" (the admin form sends a fresh one). The reason
    is required and kept as the memo, with the staff user. A correction may not
    make the balance negative (InsufficientFunds).
    """
    # The admin page checks the permission too; the service must not trust its caller.
    if not (
        staff_user.is_active
        and staff_user.is_staff
        and staff_user.has_perm("economy.adjust_balance")
    ):
        raise NotStaff()
    if (user.is_staff or user.is_superuser) and not staff_user.is_superuser:
        # Staff accounts (one's own included) are adjusted by superusers only.
        raise NotStaff(gettext("Only a superuser can adjust a staff account's balance."))
    reason = (reason or "").strip()
    if not reason:
        raise ReasonRequired()
    if isinstance(amount, bool) or not isinstance(amount, int) or amount == 0:
        raise InvalidAmount()
    key = f"adjust:{idempotency_key}"
    fingerprint = call_fingerprint(
        staff=staff_user.pk, user=user.pk, amount=amount, currency=currency, reason=reason
    )
    if (done := posted(key, TransactionKind.ADJUSTMENT, fingerprint)) is not None:
        return done
    account, adjustments = accounts_for(
        user_account(user, currency), system_account(AccountKind.ADJUSTMENTS, currency)
    )
    with transaction.atomic():
        locked = lock_in_order([account])
        if (done := posted(key, TransactionKind.ADJUSTMENT, fingerprint)) is not None:
            return done
        if cached_balance(locked[account.pk]) + amount < 0:
            raise InsufficientFunds(
                gettext("The adjustment would make the balance negative. Nothing was posted.")
            )
        return record(
            key=key,
            kind=TransactionKind.ADJUSTMENT,
            fingerprint=fingerprint,
            legs=[(account, amount), (adjustments, -amount)],
            memo=reason,
            staff_user=staff_user,
        )

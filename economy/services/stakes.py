"""Stake tables: a stake into the table's escrow, refunds, and the pot paid out."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from economy.errors import EscrowSettled, InsufficientFunds, NothingToPay, NothingToRefund
from economy.models import Account, Currency, Transaction, TransactionKind
from economy.selectors import escrow_stakes
from economy.services.ledger import (
    accounts_for,
    cached_balance,
    call_fingerprint,
    escrow_account,
    lock_in_order,
    positive_int,
    posted,
    record,
    user_account,
)


def stake_place(
    *, user: User, table_id: int, amount: int, idempotency_key: str | None = None
) -> Transaction:
    """Move a stake from the user's coins into the table's escrow.

    Key "stake:<table_id>:<user_id>" unless given (pass one that names the sitting
    if a player may stake twice at one table). InsufficientFunds when short,
    EscrowSettled when the table's pot was already paid out or refunded.
    """
    amount = positive_int(amount)
    key = idempotency_key or f"stake:{table_id}:{user.pk}"
    fingerprint = call_fingerprint(user=user.pk, table=table_id, amount=amount)
    if (done := posted(key, TransactionKind.STAKE, fingerprint)) is not None:
        return done
    coins, escrow = accounts_for(user_account(user, Currency.COINS), escrow_account(table_id))
    with transaction.atomic():
        locked = lock_in_order([coins, escrow])
        if (done := posted(key, TransactionKind.STAKE, fingerprint)) is not None:
            return done
        if locked[escrow.pk].settled_at is not None:
            raise EscrowSettled()
        if cached_balance(locked[coins.pk]) < amount:
            raise InsufficientFunds()
        return record(
            key=key,
            kind=TransactionKind.STAKE,
            fingerprint=fingerprint,
            legs=[(coins, -amount), (escrow, amount)],
            memo=f"stake at table {table_id}",
            table_id=table_id,
        )


def stake_refund(
    *,
    table_id: int,
    user: User | None = None,
    idempotency_key: str | None = None,
    now: datetime | None = None,
) -> Transaction | None:
    """Give stakes back from the table's escrow, never multiplied.

    With `user`: that player's stake (they left before the table filled); key
    "refund:<table_id>:<user_id>"; NothingToRefund if they have none. Without
    `user`: every remaining stake (table cancelled or match aborted) and the escrow is
    settled; key "refund:<table_id>:all"; returns None when nobody had staked.
    """
    now = now or timezone.now()
    key = idempotency_key or f"refund:{table_id}:{user.pk if user else 'all'}"
    fingerprint = call_fingerprint(table=table_id, user=user.pk if user else None)
    if (done := posted(key, TransactionKind.REFUND, fingerprint)) is not None:
        return done
    escrow, *mine = accounts_for(
        escrow_account(table_id), *([user_account(user, Currency.COINS)] if user else [])
    )
    own = mine[0] if mine else None
    # Read the stakers before locking so that every account is locked in pk order;
    # once the escrow is locked no stake can be added, so the re-read below is final.
    stakers = list(Account.objects.filter(pk__in=escrow_stakes(table_id=table_id)))
    with transaction.atomic():
        locked = lock_in_order([escrow, *stakers, *([own] if own else [])])
        if (done := posted(key, TransactionKind.REFUND, fingerprint)) is not None:
            return done
        if locked[escrow.pk].settled_at is not None:
            paid = Transaction.objects.filter(table_id=table_id, kind=TransactionKind.POT_PAYOUT)
            if user is None and not paid.exists():
                return None  # already cancelled with nobody staked: nothing more to do
            raise EscrowSettled()
        net = escrow_stakes(table_id=table_id)
        if own is not None:
            net = {pk: amount for pk, amount in net.items() if pk == own.pk}
            if not net:
                raise NothingToRefund()
        missing = [pk for pk in net if pk not in locked]
        locked.update(lock_in_order(Account.objects.filter(pk__in=missing)))
        legs: list[tuple[Account, int]] = [(locked[pk], amount) for pk, amount in net.items()]
        legs.append((escrow, -sum(net.values())))
        txn = None
        if net:
            txn = record(
                key=key,
                kind=TransactionKind.REFUND,
                fingerprint=fingerprint,
                legs=legs,
                memo=f"refund at table {table_id}",
                table_id=table_id,
            )
        if user is None:
            Account.objects.filter(pk=escrow.pk).update(settled_at=now)
        return txn


def pot_pay_out(
    *,
    table_id: int,
    winners: Sequence[User],
    match_id: int | None = None,
    idempotency_key: str | None = None,
    now: datetime | None = None,
) -> Transaction:
    """Share the table's whole escrow equally among `winners` and settle the escrow.

    Key "pot:<table_id>". The games code passes the winning pair, or only the
    partner when the other winner abandoned. A remainder that does not split evenly
    goes to the first winner given. Never multiplied by boosters or VIP.
    """
    now = now or timezone.now()
    key = idempotency_key or f"pot:{table_id}"
    # The winners in the order given (the first takes an odd remainder); `match_id`
    # only labels the transaction, as a table hosts one match.
    fingerprint = call_fingerprint(table=table_id, winners=[w.pk for w in winners])
    if (done := posted(key, TransactionKind.POT_PAYOUT, fingerprint)) is not None:
        return done
    escrow, *accounts = accounts_for(
        escrow_account(table_id), *(user_account(w, Currency.COINS) for w in winners)
    )
    if len({a.pk for a in accounts}) != len(accounts):
        raise ValueError("a winner appears twice")
    with transaction.atomic():
        locked = lock_in_order([escrow, *accounts])
        if (done := posted(key, TransactionKind.POT_PAYOUT, fingerprint)) is not None:
            return done
        if locked[escrow.pk].settled_at is not None:
            raise EscrowSettled()
        pot = cached_balance(locked[escrow.pk])
        if pot <= 0 or not accounts:
            raise NothingToPay()
        share, remainder = divmod(pot, len(accounts))
        legs = [(escrow, -pot)]
        for index, account in enumerate(accounts):
            legs.append((account, share + (remainder if index == 0 else 0)))
        txn = record(
            key=key,
            kind=TransactionKind.POT_PAYOUT,
            fingerprint=fingerprint,
            legs=legs,
            memo=f"pot of table {table_id}",
            match_id=match_id,
            table_id=table_id,
        )
        Account.objects.filter(pk=escrow.pk).update(settled_at=now)
        return txn

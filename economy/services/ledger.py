"""The ledger's plumbing, shared by every service of the package: the accounts a
call needs (created on first use), the one lock order, the fingerprint and the
idempotency check of a key, and the insert of one balanced transaction.

Not part of the app's API (economy.services re-exports `accounts_lock` only):
the other modules of this package build each service from these.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence

from django.db import IntegrityError, connection, transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from economy.errors import IdempotencyKeyConflict, InsufficientFunds, InvalidAmount
from economy.models import (
    CACHED_KINDS,
    Account,
    AccountKind,
    Currency,
    Entry,
    Product,
    Transaction,
    TransactionKind,
)
from economy.signals import balances_changed
from ops import metrics


def fault(point: str) -> None:
    """A no-op the failure-injection tests patch to crash a service mid-way."""


# kind, currency, user, and the table id (stake escrow) or tournament id (tournament escrow)
Spec = tuple[str, str, "User | None", "int | None"]


def user_account(user: User, currency: str) -> Spec:
    return (AccountKind.USER, currency, user, None)


def system_account(kind: str, currency: str) -> Spec:
    return (kind, currency, None, None)


def escrow_account(table_id: int) -> Spec:
    return (AccountKind.ESCROW, Currency.COINS, None, table_id)


def tournament_escrow_account(tournament_id: int) -> Spec:
    return (AccountKind.TOURNAMENT, Currency.COINS, None, tournament_id)


def _refs(kind: str, ref: int | None) -> dict[str, int | None]:
    """The account's table id or tournament id columns for a spec's fourth element."""
    if kind == AccountKind.TOURNAMENT:
        return {"table_id": None, "tournament_id": ref}
    return {"table_id": ref, "tournament_id": None}


def accounts_for(*specs: Spec) -> list[Account]:
    """The accounts for `specs`, in order, read in one query; missing ones are created."""
    wanted = Q()
    for kind, currency, user, ref in specs:
        wanted |= Q(kind=kind, currency=currency, user=user, **_refs(kind, ref))
    found = {
        (a.kind, a.currency, a.user_id, a.tournament_id or a.table_id): a
        for a in Account.objects.filter(wanted)
    }
    result = []
    for kind, currency, user, ref in specs:
        account = found.get((kind, currency, user.pk if user else None, ref))
        if account is None:
            account = _account_create(kind=kind, currency=currency, user=user, ref=ref)
        result.append(account)
    return result


def _account_create(*, kind: str, currency: str, user: User | None, ref: int | None) -> Account:
    lookup = {"kind": kind, "currency": currency, "user": user, **_refs(kind, ref)}
    cached = kind in CACHED_KINDS
    try:
        with transaction.atomic():
            return Account.objects.create(**lookup, balance=0 if cached else None)
    except IntegrityError:
        # Someone created it at the same moment: theirs is the one.
        return Account.objects.get(**lookup)


def lock_in_order(accounts: Iterable[Account]) -> dict[int, Account]:
    """Lock the cached-balance accounts in pk order and return fresh copies by pk.

    The ledger's one lock order: every service, and every caller that posts several
    transactions in one database transaction (accounts_lock), locks accounts here
    and only here, all those it needs at once, by primary key.
    """
    pks = sorted({a.pk for a in accounts if a.kind in CACHED_KINDS})
    locked = Account.objects.select_for_update().filter(pk__in=pks).order_by("pk")
    return {account.pk: account for account in locked}


def cached_balance(account: Account) -> int:
    """A user or escrow account's balance: never null for those (the CHECK constraint
    economy_account_balance_cached_iff_user_or_escrow), and only those are locked."""
    if account.balance is None:
        raise ValueError(f"account {account.pk} keeps no cached balance")
    return account.balance


def accounts_lock(*, users: Iterable[User], currencies: Sequence[str] = (Currency.COINS,)) -> None:
    """Lock these users' accounts now, in the ledger's one order, until the caller commits.

    For a caller that posts several ledger transactions in one database
    transaction (the league close pays every prize): each service locks only its
    own accounts, so without this the caller would hold the first user's account
    while waiting for the next one in its own order, and could deadlock with a
    match payout locking the same accounts by primary key.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("accounts_lock only makes sense inside transaction.atomic()")
    specs = [user_account(user, currency) for user in users for currency in currencies]
    if specs:
        lock_in_order(accounts_for(*specs))


def call_fingerprint(**parameters: object) -> str:
    """SHA-256 of a call's parameters (users and products by id), stored with its key."""
    canonical = json.dumps(parameters, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def posted(key: str, kind: str, fingerprint: str) -> Transaction | None:
    """The transaction already posted under `key`, or None; a different call raises.

    A key reused for another kind of transaction or with other parameters is
    refused (IdempotencyKeyConflict), as Stripe refuses a reused key with a
    different request. Rows posted before fingerprints existed (NULL) compare
    by kind only.
    """
    existing = Transaction.objects.filter(idempotency_key=key).first()
    if existing is None:
        return None
    if existing.kind != kind or existing.fingerprint not in (None, fingerprint):
        raise IdempotencyKeyConflict(key=key)
    existing.replayed = True
    return existing


def record(
    *,
    key: str,
    kind: str,
    fingerprint: str,
    legs: Sequence[tuple[Account, int]],
    memo: str = "",
    product: Product | None = None,
    staff_user: User | None = None,
    match_id: int | None = None,
    table_id: int | None = None,
) -> Transaction:
    """Insert one balanced transaction; on a duplicate key return the first one instead.

    Must run inside transaction.atomic() with the accounts already locked. The
    AFTER INSERT trigger on entries moves the cached balances; the CHECK on
    balances turns an overdraft into an IntegrityError (InsufficientFunds).
    """
    legs = [(account, amount) for account, amount in legs if amount != 0]
    txn = Transaction(
        idempotency_key=key,
        kind=kind,
        fingerprint=fingerprint,
        memo=memo[:500],
        product=product,
        staff_user=staff_user,
        match_id=match_id,
        table_id=table_id,
        created_at=timezone.now(),
    )
    # ON CONFLICT DO NOTHING: a racing duplicate waits for the first to commit and then
    # inserts nothing, with no savepoint round trips (PostgreSQL and SQLite >= 3.35).
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {Transaction._meta.db_table} (idempotency_key, kind, fingerprint, memo,"
            " product_id, staff_user_id, match_id, table_id, created_at)"
            " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s)"
            " ON CONFLICT (idempotency_key) DO NOTHING RETURNING id",
            [
                key,
                kind,
                fingerprint,
                txn.memo,
                product.pk if product else None,
                staff_user.pk if staff_user else None,
                match_id,
                table_id,
                connection.ops.adapt_datetimefield_value(txn.created_at),
            ],
        )
        row = cursor.fetchone()
    if row is None:
        existing = posted(key, kind, fingerprint)
        if existing is None:  # cannot happen: the conflict was on this key
            raise IntegrityError(f"idempotency key {key!r} conflicted but is not found")
        return existing
    txn.pk = row[0]
    txn._state.adding = False
    fault("after-transaction")
    try:
        # No savepoint: any error here aborts the caller's whole transaction anyway.
        Entry.objects.bulk_create(
            [Entry(transaction=txn, account=account, amount=amount) for account, amount in legs]
        )
    except IntegrityError as error:
        if "balance_not_negative" in str(error):
            raise InsufficientFunds() from error
        raise
    fault("after-entries")
    _count_flows(kind, legs)
    user_ids = sorted({a.user_id for a, _ in legs if a.kind == AccountKind.USER and a.user_id})
    if user_ids and kind != TransactionKind.SIGNUP_BONUS:
        transaction.on_commit(
            lambda: balances_changed.send(sender=Transaction, user_ids=user_ids, kind=kind)
        )
    return txn


def _count_flows(kind: str, legs: Sequence[tuple[Account, int]]) -> None:
    """Once committed, what left issuance (coins and XP issued) and what reached the
    shop (coins spent), by currency and transaction kind (ops.metrics)."""
    flows = []
    for account, amount in legs:
        if account.kind == AccountKind.ISSUANCE:
            flows.append((metrics.CURRENCY_ISSUED, account.currency, -amount))
        elif account.kind == AccountKind.SHOP:
            flows.append((metrics.CURRENCY_SPENT, account.currency, amount))
    if flows:

        def record() -> None:
            for counter, currency, amount in flows:
                if amount > 0:  # a counter only goes up; a refund is not un-issuing
                    counter.labels(currency, kind).inc(amount)

        metrics.after_commit(record)


def positive_int(amount: object) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise InvalidAmount()
    return amount

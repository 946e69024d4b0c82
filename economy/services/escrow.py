"""An escrow's three moves, shared by the stake tables (`stakes`) and tournaments
(`tournaments`): coins held into it from a player, what players hold in it given
back (one player's, or everyone's and the escrow settled), and the whole of it paid
out (the escrow settled). Each caller names its escrow, its kind of transaction, its
key, fingerprint and memo, and decides the amounts; these do the rest the same way:
the replay check before and after the lock, the one lock order (every account in
primary-key order, in one go), the settled escrow refused, the balanced legs."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from django.db import transaction

from economy.errors import EscrowSettled, InsufficientFunds, NothingToRefund
from economy.models import Account, Transaction
from economy.services.ledger import (
    Spec,
    accounts_for,
    cached_balance,
    lock_in_order,
    posted,
    record,
)


def escrow_hold(
    *,
    key: str,
    kind: str,
    fingerprint: str,
    payer: Spec,
    escrow: Spec,
    amount: int,
    memo: str,
    table_id: int | None = None,
) -> Transaction:
    """Move `amount` (already checked positive) from `payer` into `escrow`, once per
    key. InsufficientFunds when short, EscrowSettled when the escrow was paid out or
    refunded."""
    if (done := posted(key, kind, fingerprint)) is not None:
        return done
    coins, held = accounts_for(payer, escrow)
    with transaction.atomic():
        locked = lock_in_order([coins, held])
        if (done := posted(key, kind, fingerprint)) is not None:
            return done
        if locked[held.pk].settled_at is not None:
            raise EscrowSettled()
        if cached_balance(locked[coins.pk]) < amount:
            raise InsufficientFunds()
        return record(
            key=key,
            kind=kind,
            fingerprint=fingerprint,
            legs=[(coins, -amount), (held, amount)],
            memo=memo,
            table_id=table_id,
        )


def escrow_refund(
    *,
    key: str,
    kind: str,
    fingerprint: str,
    escrow: Spec,
    own: Spec | None,
    held: Callable[[], dict[int, int]],
    settled_quietly: Callable[[Account], bool],
    memo: str,
    now: datetime,
    table_id: int | None = None,
) -> Transaction | None:
    """Give back what players hold in `escrow` (`held()`: account id → net amount), never
    twice. With `own`: that account's only (NothingToRefund when it holds nothing).
    Without: everyone's, and the escrow is settled; None when nothing was held. An
    escrow already settled: None when `settled_quietly(escrow)` says the caller's
    earlier refund-all settled it (nothing more to do), EscrowSettled otherwise."""
    if (done := posted(key, kind, fingerprint)) is not None:
        return done
    account, *mine = accounts_for(escrow, *([own] if own else []))
    own_account = mine[0] if mine else None
    # The payers read before locking so that every account is locked in pk order; once
    # the escrow is locked nothing can be added, so the re-read below is final.
    payers = list(Account.objects.filter(pk__in=held()))
    with transaction.atomic():
        locked = lock_in_order([account, *payers, *([own_account] if own_account else [])])
        if (done := posted(key, kind, fingerprint)) is not None:
            return done
        if locked[account.pk].settled_at is not None:
            if settled_quietly(locked[account.pk]):
                return None
            raise EscrowSettled()
        net = held()
        if own_account is not None:
            net = {pk: amount for pk, amount in net.items() if pk == own_account.pk}
            if not net:
                raise NothingToRefund()
        missing = [pk for pk in net if pk not in locked]
        locked.update(lock_in_order(Account.objects.filter(pk__in=missing)))
        legs: list[tuple[Account, int]] = [(locked[pk], amount) for pk, amount in net.items()]
        legs.append((account, -sum(net.values())))
        txn = None
        if net:
            txn = record(
                key=key,
                kind=kind,
                fingerprint=fingerprint,
                legs=legs,
                memo=memo,
                table_id=table_id,
            )
        if own_account is None:
            Account.objects.filter(pk=account.pk).update(settled_at=now)
        return txn


def escrow_pay_out(
    *,
    key: str,
    kind: str,
    fingerprint: str,
    escrow: Spec,
    payees: Sequence[Spec],
    split: Callable[[int], list[int]],
    memo: str,
    now: datetime,
    match_id: int | None = None,
    table_id: int | None = None,
) -> Transaction | None:
    """Pay the whole of `escrow` to `payees` and settle it, once per key: `split(pot)`
    gives each payee's amount, in order, summing to the pot (it raises what the caller
    refuses: nothing to pay, amounts that do not sum). None when the pot is empty and
    `split` accepts that (the escrow is settled all the same). A payee twice:
    ValueError. EscrowSettled when already paid or refunded."""
    if (done := posted(key, kind, fingerprint)) is not None:
        return done
    account, *accounts = accounts_for(escrow, *payees)
    if len({a.pk for a in accounts}) != len(accounts):
        raise ValueError("a winner appears twice")
    with transaction.atomic():
        locked = lock_in_order([account, *accounts])
        if (done := posted(key, kind, fingerprint)) is not None:
            return done
        if locked[account.pk].settled_at is not None:
            raise EscrowSettled()
        pot = cached_balance(locked[account.pk])
        amounts = split(pot)
        txn = None
        if pot:
            legs = [(account, -pot)]
            legs.extend((payee, amount) for payee, amount in zip(accounts, amounts, strict=True))
            txn = record(
                key=key,
                kind=kind,
                fingerprint=fingerprint,
                legs=legs,
                memo=memo,
                match_id=match_id,
                table_id=table_id,
            )
        Account.objects.filter(pk=account.pk).update(settled_at=now)
        return txn

"""Tournament entry fees: held in the tournament's escrow, refunded, or paid out as
prizes. The tournaments app decides every amount; these only move them (docs/economy.md,
docs/tournaments.md). Modelled on the stake tables' escrow (`stakes`)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from accounts.models import User
from economy.errors import EscrowSettled, InsufficientFunds, NothingToRefund
from economy.models import Account, Currency, Transaction, TransactionKind
from economy.selectors import tournament_fees
from economy.services.ledger import (
    accounts_for,
    cached_balance,
    call_fingerprint,
    lock_in_order,
    positive_int,
    posted,
    record,
    tournament_escrow_account,
    user_account,
)


def tournament_fee_hold(
    *, user: User, tournament_id: int, amount: int, idempotency_key: str
) -> Transaction:
    """Move an entry fee from the user's coins into the tournament's escrow, once per
    key (the tournaments app names the entry in it). InsufficientFunds when short,
    EscrowSettled when the tournament's escrow was already paid out or refunded."""
    amount = positive_int(amount)
    key = idempotency_key
    fingerprint = call_fingerprint(user=user.pk, tournament=tournament_id, amount=amount)
    if (done := posted(key, TransactionKind.ENTRY_FEE, fingerprint)) is not None:
        return done
    coins, escrow = accounts_for(
        user_account(user, Currency.COINS), tournament_escrow_account(tournament_id)
    )
    with transaction.atomic():
        locked = lock_in_order([coins, escrow])
        if (done := posted(key, TransactionKind.ENTRY_FEE, fingerprint)) is not None:
            return done
        if locked[escrow.pk].settled_at is not None:
            raise EscrowSettled()
        if cached_balance(locked[coins.pk]) < amount:
            raise InsufficientFunds()
        return record(
            key=key,
            kind=TransactionKind.ENTRY_FEE,
            fingerprint=fingerprint,
            legs=[(coins, -amount), (escrow, amount)],
            memo=f"entry fee of tournament {tournament_id}",
        )


def tournament_fee_refund(
    *,
    tournament_id: int,
    user: User | None = None,
    idempotency_key: str | None = None,
    now: datetime | None = None,
) -> Transaction | None:
    """Give entry fees back from the tournament's escrow, never twice.

    With `user`: what that player still has in it (they withdrew, or were left without
    a partner); NothingToRefund if nothing. Without: every fee left, and the escrow is
    settled (the tournament was cancelled); None when nothing was held. Key
    "tournament-refund:<id>:<user id or all>" unless given.
    """
    now = now or timezone.now()
    key = idempotency_key or f"tournament-refund:{tournament_id}:{user.pk if user else 'all'}"
    fingerprint = call_fingerprint(tournament=tournament_id, user=user.pk if user else None)
    if (done := posted(key, TransactionKind.FEE_REFUND, fingerprint)) is not None:
        return done
    escrow, *mine = accounts_for(
        tournament_escrow_account(tournament_id),
        *([user_account(user, Currency.COINS)] if user else []),
    )
    own = mine[0] if mine else None
    # The payers read before locking, so every account is locked at once in pk order;
    # with the escrow locked no fee can be added, so the re-read below is final.
    payers = list(Account.objects.filter(pk__in=tournament_fees(tournament_id=tournament_id)))
    with transaction.atomic():
        locked = lock_in_order([escrow, *payers, *([own] if own else [])])
        if (done := posted(key, TransactionKind.FEE_REFUND, fingerprint)) is not None:
            return done
        if locked[escrow.pk].settled_at is not None:
            if user is None and cached_balance(locked[escrow.pk]) == 0:
                paid = Transaction.objects.filter(
                    kind=TransactionKind.TOURNAMENT_PRIZE,
                    entries__account=escrow,
                )
                if not paid.exists():
                    return None  # already cancelled: nothing more to do
            raise EscrowSettled()
        net = tournament_fees(tournament_id=tournament_id)
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
                kind=TransactionKind.FEE_REFUND,
                fingerprint=fingerprint,
                legs=legs,
                memo=f"entry fees of tournament {tournament_id} refunded",
            )
        if user is None:
            Account.objects.filter(pk=escrow.pk).update(settled_at=now)
        return txn


def tournament_prizes_pay(
    *,
    tournament_id: int,
    prizes: Sequence[tuple[User, int]],
    idempotency_key: str | None = None,
    now: datetime | None = None,
) -> Transaction | None:
    """Pay the tournament's whole escrow to its winners, `prizes` (user, coins) as the
    tournaments app split it (the amounts must sum to what the escrow holds:
    ValueError otherwise), in one transaction, and settle the escrow. Key
    "tournament-prizes:<id>" unless given. None when the escrow held nothing (it is
    settled all the same)."""
    now = now or timezone.now()
    key = idempotency_key or f"tournament-prizes:{tournament_id}"
    wanted = [(user, amount) for user, amount in prizes if amount]
    for _user, amount in wanted:
        positive_int(amount)
    if len({user.pk for user, _ in wanted}) != len(wanted):
        raise ValueError("a winner appears twice")
    fingerprint = call_fingerprint(
        tournament=tournament_id, prizes=[(user.pk, amount) for user, amount in wanted]
    )
    if (done := posted(key, TransactionKind.TOURNAMENT_PRIZE, fingerprint)) is not None:
        return done
    escrow, *accounts = accounts_for(
        tournament_escrow_account(tournament_id),
        *(user_account(user, Currency.COINS) for user, _ in wanted),
    )
    with transaction.atomic():
        locked = lock_in_order([escrow, *accounts])
        if (done := posted(key, TransactionKind.TOURNAMENT_PRIZE, fingerprint)) is not None:
            return done
        if locked[escrow.pk].settled_at is not None:
            raise EscrowSettled()
        pool = cached_balance(locked[escrow.pk])
        total = sum(amount for _, amount in wanted)
        if total != pool:
            raise ValueError(f"the prizes sum to {total} but the escrow holds {pool}")
        txn = None
        if pool:
            legs = [(escrow, -pool)]
            legs.extend(
                (account, amount) for account, (_, amount) in zip(accounts, wanted, strict=True)
            )
            txn = record(
                key=key,
                kind=TransactionKind.TOURNAMENT_PRIZE,
                fingerprint=fingerprint,
                legs=legs,
                memo=f"prizes of tournament {tournament_id}",
            )
        Account.objects.filter(pk=escrow.pk).update(settled_at=now)
        return txn

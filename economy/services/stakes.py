"""Stake tables: a stake into the table's escrow, refunds, and the pot paid out (the
escrow's moves are `escrow`'s, shared with tournaments)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils import timezone

from accounts.models import User
from economy.errors import NothingToPay
from economy.models import Account, Currency, Transaction, TransactionKind
from economy.selectors import escrow_stakes
from economy.services.escrow import escrow_hold, escrow_pay_out, escrow_refund
from economy.services.ledger import (
    call_fingerprint,
    escrow_account,
    positive_int,
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
    return escrow_hold(
        key=idempotency_key or f"stake:{table_id}:{user.pk}",
        kind=TransactionKind.STAKE,
        fingerprint=call_fingerprint(user=user.pk, table=table_id, amount=amount),
        payer=user_account(user, Currency.COINS),
        escrow=escrow_account(table_id),
        amount=amount,
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

    def settled_quietly(escrow: Account) -> bool:
        # Already cancelled with nobody staked: nothing more to do.
        paid = Transaction.objects.filter(table_id=table_id, kind=TransactionKind.POT_PAYOUT)
        return user is None and not paid.exists()

    return escrow_refund(
        key=idempotency_key or f"refund:{table_id}:{user.pk if user else 'all'}",
        kind=TransactionKind.REFUND,
        fingerprint=call_fingerprint(table=table_id, user=user.pk if user else None),
        escrow=escrow_account(table_id),
        own=user_account(user, Currency.COINS) if user else None,
        held=lambda: escrow_stakes(table_id=table_id),
        settled_quietly=settled_quietly,
        memo=f"refund at table {table_id}",
        now=now or timezone.now(),
        table_id=table_id,
    )


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

    def split(pot: int) -> list[int]:
        if pot <= 0 or not winners:
            raise NothingToPay()
        share, remainder = divmod(pot, len(winners))
        return [share + (remainder if index == 0 else 0) for index in range(len(winners))]

    # The winners in the order given (the first takes an odd remainder); `match_id`
    # only labels the transaction, as a table hosts one match.
    txn = escrow_pay_out(
        key=idempotency_key or f"pot:{table_id}",
        kind=TransactionKind.POT_PAYOUT,
        fingerprint=call_fingerprint(table=table_id, winners=[w.pk for w in winners]),
        escrow=escrow_account(table_id),
        payees=[user_account(w, Currency.COINS) for w in winners],
        split=split,
        memo=f"pot of table {table_id}",
        now=now or timezone.now(),
        match_id=match_id,
        table_id=table_id,
    )
    assert txn is not None  # an empty pot raised NothingToPay
    return txn

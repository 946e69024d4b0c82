"""Tournament entry fees: held in the tournament's escrow, refunded, or paid out as
prizes. The tournaments app decides every amount; these only move them (docs/economy.md,
docs/tournaments.md). The escrow's moves are `escrow`'s, shared with the stake tables."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from django.utils import timezone

from accounts.models import User
from economy.models import Account, Currency, Transaction, TransactionKind
from economy.selectors import tournament_fees
from economy.services.escrow import escrow_hold, escrow_pay_out, escrow_refund
from economy.services.ledger import (
    cached_balance,
    call_fingerprint,
    positive_int,
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
    return escrow_hold(
        key=idempotency_key,
        kind=TransactionKind.ENTRY_FEE,
        fingerprint=call_fingerprint(user=user.pk, tournament=tournament_id, amount=amount),
        payer=user_account(user, Currency.COINS),
        escrow=tournament_escrow_account(tournament_id),
        amount=amount,
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

    def settled_quietly(escrow: Account) -> bool:
        # Already cancelled (emptied by a refund, not by prizes): nothing more to do.
        if user is not None or cached_balance(escrow) != 0:
            return False
        paid = Transaction.objects.filter(
            kind=TransactionKind.TOURNAMENT_PRIZE, entries__account=escrow
        )
        return not paid.exists()

    return escrow_refund(
        key=idempotency_key or f"tournament-refund:{tournament_id}:{user.pk if user else 'all'}",
        kind=TransactionKind.FEE_REFUND,
        fingerprint=call_fingerprint(tournament=tournament_id, user=user.pk if user else None),
        escrow=tournament_escrow_account(tournament_id),
        own=user_account(user, Currency.COINS) if user else None,
        held=lambda: tournament_fees(tournament_id=tournament_id),
        settled_quietly=settled_quietly,
        memo=f"entry fees of tournament {tournament_id} refunded",
        now=now or timezone.now(),
    )


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
    wanted = [(user, amount) for user, amount in prizes if amount]
    for _user, amount in wanted:
        positive_int(amount)
    if len({user.pk for user, _ in wanted}) != len(wanted):
        raise ValueError("a winner appears twice")

    def split(pool: int) -> list[int]:
        total = sum(amount for _, amount in wanted)
        if total != pool:
            raise ValueError(f"the prizes sum to {total} but the escrow holds {pool}")
        return [amount for _, amount in wanted]

    return escrow_pay_out(
        key=idempotency_key or f"tournament-prizes:{tournament_id}",
        kind=TransactionKind.TOURNAMENT_PRIZE,
        fingerprint=call_fingerprint(
            tournament=tournament_id, prizes=[(user.pk, amount) for user, amount in wanted]
        ),
        escrow=tournament_escrow_account(tournament_id),
        payees=[user_account(user, Currency.COINS) for user, _ in wanted],
        split=split,
        memo=f"prizes of tournament {tournament_id}",
        now=now or timezone.now(),
    )

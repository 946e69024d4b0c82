"""Many users' prizes at once (the daily deal pays every player of a day): one
ledger transaction per prize, inserted by the thousand."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.db import connection, transaction
from django.utils import timezone

from accounts.models import User
from economy.errors import IdempotencyKeyConflict, InvalidAmount
from economy.models import Account, AccountKind, Currency, Entry, Perk, Transaction, TransactionKind
from economy.selectors import perks_multiplier
from economy.services.ledger import (
    accounts_for,
    call_fingerprint,
    fault,
    system_account,
    user_account,
)


@dataclass(frozen=True)
class Prize:
    """One user's prize: coins (never multiplied) and XP (multiplied by the booster
    and VIP pass running at `xp_at`), posted as one transaction under its own key."""

    user_id: int
    idempotency_key: str
    coins: int = 0
    xp: int = 0
    xp_at: datetime | None = None
    memo: str = ""


@dataclass(frozen=True)
class PrizesGranted:
    """What prizes_grant posted: (coins, xp) by key for the new transactions, and the
    keys that had been posted before (a replay: nothing moved for them)."""

    paid: dict[str, tuple[int, int]] = field(default_factory=dict)
    replayed: frozenset[str] = frozenset()


#: Rows one INSERT carries (the transactions, then their entries).
PRIZE_BATCH = 2000


def prizes_grant(
    *, prizes: Sequence[Prize], kind: str = TransactionKind.DAILY_PRIZE, now: datetime | None = None
) -> PrizesGranted:
    """Issue many prizes from the issuance account in one database transaction: one
    ledger transaction per prize (its key, e.g. "daily-deal:<date>:<user_id>"), with
    a coin leg and an XP leg. Built for thousands at once (the daily deal pays every
    player of a day): the rows go in by the thousand, the users' accounts are locked
    once, all together, in the ledger's one order.

    Idempotent per key as every service: a key already posted with the same user,
    base amounts and kind is a replay (nothing moves, `replayed` names it); with
    anything else, IdempotencyKeyConflict and nothing is written. XP is multiplied
    by the booster and VIP active at the prize's `xp_at` (rounded down once); coins
    never are. Prizes worth nothing are skipped. The navigation's balances are not
    pushed to open sockets (one lookup per user would cost more than the payout):
    the next page shows them.
    """
    if kind not in (TransactionKind.DAILY_PRIZE, TransactionKind.GRANT):
        raise ValueError(f"prizes_grant cannot post a {kind!r} transaction")
    now = now or timezone.now()
    wanted: dict[str, Prize] = {}
    for prize in prizes:
        for amount in (prize.coins, prize.xp):
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise InvalidAmount()
        if prize.idempotency_key in wanted:
            raise ValueError(f"the key {prize.idempotency_key!r} appears twice")
        if prize.coins or prize.xp:
            wanted[prize.idempotency_key] = prize
    if not wanted:
        return PrizesGranted()

    def fingerprint(prize: Prize) -> str:
        return call_fingerprint(user=prize.user_id, coins=prize.coins, xp=prize.xp, kind=kind)

    with transaction.atomic():
        replayed = _prizes_posted(wanted, kind, fingerprint)
        todo = [p for key, p in wanted.items() if key not in replayed]
        if not todo:
            return PrizesGranted(replayed=frozenset(replayed))
        user_ids = sorted({p.user_id for p in todo})
        accounts = _prize_accounts(user_ids)
        issuance_coins, issuance_xp = accounts_for(
            system_account(AccountKind.ISSUANCE, Currency.COINS),
            system_account(AccountKind.ISSUANCE, Currency.XP),
        )
        # The ledger's one lock order (by primary key, as lock_in_order), a batch at a time.
        pks = sorted(account.pk for account in accounts.values())
        for start in range(0, len(pks), PRIZE_BATCH):
            list(
                Account.objects.select_for_update()
                .filter(pk__in=pks[start : start + PRIZE_BATCH])
                .order_by("pk")
                .values_list("pk", flat=True)
            )
        perks: dict[int, list[tuple[str, datetime]]] = {}
        for start in range(0, len(user_ids), PRIZE_BATCH):
            for user_id, effect, ends_at in Perk.objects.filter(
                user_id__in=user_ids[start : start + PRIZE_BATCH]
            ).values_list("user_id", "effect", "ends_at"):
                perks.setdefault(user_id, []).append((effect, ends_at))
        amounts: dict[str, tuple[int, int]] = {}
        for prize in todo:
            moment = prize.xp_at or now
            active = {
                effect for effect, ends_at in perks.get(prize.user_id, []) if moment < ends_at
            }
            amounts[prize.idempotency_key] = (prize.coins, int(prize.xp * perks_multiplier(active)))
        created_at = connection.ops.adapt_datetimefield_value(now)
        ids: dict[str, int] = {}
        with connection.cursor() as cursor:
            for start in range(0, len(todo), PRIZE_BATCH):
                batch = todo[start : start + PRIZE_BATCH]
                rows = ", ".join(["(%s, %s, %s, %s, %s)"] * len(batch))
                params: list[Any] = []
                for prize in batch:
                    params += [
                        prize.idempotency_key,
                        kind,
                        fingerprint(prize),
                        prize.memo[:500],
                        created_at,
                    ]
                cursor.execute(
                    f"INSERT INTO {Transaction._meta.db_table}"
                    " (idempotency_key, kind, fingerprint, memo, created_at)"
                    f" VALUES {rows} ON CONFLICT (idempotency_key) DO NOTHING"
                    " RETURNING id, idempotency_key",
                    params,
                )
                ids.update({key: pk for pk, key in cursor.fetchall()})
        # A key missing here was posted by a racing call since we looked: its first
        # transaction stands (or conflicts), as in _record.
        raced = {p.idempotency_key: p for p in todo if p.idempotency_key not in ids}
        replayed |= _prizes_posted(raced, kind, fingerprint)
        fault("after-transaction")
        entries = []
        for prize in todo:
            pk = ids.get(prize.idempotency_key)
            if pk is None:
                continue
            coins, xp = amounts[prize.idempotency_key]
            legs = [
                (accounts[(prize.user_id, Currency.COINS)], coins),
                (issuance_coins, -coins),
                (accounts[(prize.user_id, Currency.XP)], xp),
                (issuance_xp, -xp),
            ]
            entries += [
                Entry(transaction_id=pk, account=account, amount=amount)
                for account, amount in legs
                if amount
            ]
        Entry.objects.bulk_create(entries, batch_size=PRIZE_BATCH)
        fault("after-entries")
    paid = {key: amounts[key] for key in ids}
    return PrizesGranted(paid=paid, replayed=frozenset(replayed))


def _prizes_posted(
    prizes: dict[str, Prize], kind: str, fingerprint: Callable[[Prize], str]
) -> set[str]:
    """The keys of `prizes` already posted for the same request; IdempotencyKeyConflict
    when one was posted for another."""
    posted: set[str] = set()
    keys = list(prizes)
    for start in range(0, len(keys), PRIZE_BATCH):
        for key, existing_kind, existing_fingerprint in Transaction.objects.filter(
            idempotency_key__in=keys[start : start + PRIZE_BATCH]
        ).values_list("idempotency_key", "kind", "fingerprint"):
            if existing_kind != kind or existing_fingerprint not in (
                None,
                fingerprint(prizes[key]),
            ):
                raise IdempotencyKeyConflict(key=key)
            posted.add(key)
    return posted


def _prize_accounts(user_ids: list[int]) -> dict[tuple[int, str], Account]:
    """Every user's coin and XP account by (user id, currency); missing ones created."""
    found: dict[tuple[int, str], Account] = {}
    for start in range(0, len(user_ids), PRIZE_BATCH):
        for account in Account.objects.filter(
            kind=AccountKind.USER,
            currency__in=(Currency.COINS, Currency.XP),
            user_id__in=user_ids[start : start + PRIZE_BATCH],
        ):
            assert account.user_id is not None
            found[(account.user_id, account.currency)] = account
    missing = [
        (user_id, currency)
        for user_id in user_ids
        for currency in (Currency.COINS, Currency.XP)
        if (user_id, currency) not in found
    ]
    if missing:
        users = User.objects.in_bulk([user_id for user_id, _ in missing])
        created = accounts_for(
            *(user_account(users[user_id], currency) for user_id, currency in missing)
        )
        for (user_id, currency), account in zip(missing, created, strict=True):
            found[(user_id, currency)] = account
    return found

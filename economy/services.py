"""The only code that writes the ledger.

Every service here is keyword-only, runs in one database transaction, locks
the cached-balance accounts it touches in primary-key order (so two services
never deadlock on each other), and is idempotent by its key, as Stripe's API
is: the transaction stores a fingerprint of the call's parameters with its
key; a second call with the same key and the same parameters returns the first
transaction, with `transaction.replayed = True`, and moves nothing, also when
both calls race (the key is UNIQUE); the same key with other parameters raises
IdempotencyKeyConflict and writes nothing. docs/economy.md lists the
signatures, default keys and what each fingerprint covers.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Q, Sum
from django.utils import timezone
from django.utils.translation import gettext

from accounts.models import User
from economy.errors import (
    EscrowSettled,
    IdempotencyKeyConflict,
    InsufficientFunds,
    InvalidAmount,
    NothingToPay,
    NothingToRefund,
    NotStaff,
    ProductUnavailable,
    ReasonRequired,
)
from economy.models import (
    Account,
    AccountKind,
    Currency,
    Effect,
    Entry,
    Perk,
    Product,
    Transaction,
    TransactionKind,
)
from economy.signals import balances_changed

# --- Plumbing ---------------------------------------------------------------------


def _fault(point: str) -> None:
    """A no-op the failure-injection tests patch to crash a service mid-way."""


Spec = tuple[str, str, "User | None", "int | None"]  # kind, currency, user, table_id


def _user(user: User, currency: str) -> Spec:
    return (AccountKind.USER, currency, user, None)


def _system(kind: str, currency: str) -> Spec:
    return (kind, currency, None, None)


def _escrow(table_id: int) -> Spec:
    return (AccountKind.ESCROW, Currency.COINS, None, table_id)


def _accounts(*specs: Spec) -> list[Account]:
    """The accounts for `specs`, in order, read in one query; missing ones are created."""
    wanted = Q()
    for kind, currency, user, table_id in specs:
        wanted |= Q(kind=kind, currency=currency, user=user, table_id=table_id)
    found = {(a.kind, a.currency, a.user_id, a.table_id): a for a in Account.objects.filter(wanted)}
    result = []
    for kind, currency, user, table_id in specs:
        account = found.get((kind, currency, user.pk if user else None, table_id))
        if account is None:
            account = _account_create(kind=kind, currency=currency, user=user, table_id=table_id)
        result.append(account)
    return result


def _account_create(
    *, kind: str, currency: str, user: User | None, table_id: int | None
) -> Account:
    lookup = {"kind": kind, "currency": currency, "user": user, "table_id": table_id}
    cached = kind in (AccountKind.USER, AccountKind.ESCROW)
    try:
        with transaction.atomic():
            return Account.objects.create(**lookup, balance=0 if cached else None)
    except IntegrityError:
        # Someone created it at the same moment: theirs is the one.
        return Account.objects.get(**lookup)


def _lock(accounts: Iterable[Account]) -> dict[int, Account]:
    """Lock the cached-balance accounts in pk order and return fresh copies by pk.

    The ledger's one lock order: every service, and every caller that posts several
    transactions in one database transaction (accounts_lock), locks accounts here
    and only here, all those it needs at once, by primary key.
    """
    pks = sorted({a.pk for a in accounts if a.kind in (AccountKind.USER, AccountKind.ESCROW)})
    locked = Account.objects.select_for_update().filter(pk__in=pks).order_by("pk")
    return {account.pk: account for account in locked}


def _cached_balance(account: Account) -> int:
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
    specs = [_user(user, currency) for user in users for currency in currencies]
    if specs:
        _lock(_accounts(*specs))


def _fingerprint(**parameters: object) -> str:
    """SHA-256 of a call's parameters (users and products by id), stored with its key."""
    canonical = json.dumps(parameters, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def _replay(key: str, kind: str, fingerprint: str) -> Transaction | None:
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


def _record(
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
            "INSERT INTO economy_transaction (idempotency_key, kind, fingerprint, memo,"
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
        existing = _replay(key, kind, fingerprint)
        if existing is None:  # cannot happen: the conflict was on this key
            raise IntegrityError(f"idempotency key {key!r} conflicted but is not found")
        return existing
    txn.pk = row[0]
    txn._state.adding = False
    _fault("after-transaction")
    try:
        # No savepoint: any error here aborts the caller's whole transaction anyway.
        Entry.objects.bulk_create(
            [Entry(transaction=txn, account=account, amount=amount) for account, amount in legs]
        )
    except IntegrityError as error:
        if "balance_not_negative" in str(error):
            raise InsufficientFunds() from error
        raise
    _fault("after-entries")
    user_ids = sorted({a.user_id for a, _ in legs if a.kind == AccountKind.USER and a.user_id})
    if user_ids and kind != TransactionKind.SIGNUP_BONUS:
        transaction.on_commit(
            lambda: balances_changed.send(sender=Transaction, user_ids=user_ids, kind=kind)
        )
    return txn


def _positive_int(amount: object) -> int:
    if isinstance(amount, bool) or not isinstance(amount, int) or amount <= 0:
        raise InvalidAmount()
    return amount


# --- Grants and bonuses ---------------------------------------------------------------

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
    amount = _positive_int(amount)
    if kind not in GRANT_KINDS:
        raise ValueError(f"ledger_grant cannot post a {kind!r} transaction")
    fingerprint = _fingerprint(user=user.pk, amount=amount, currency=currency, kind=kind)
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
    if (done := _replay(key, kind, fingerprint)) is not None:
        return done  # before _accounts: a replayed or refused call creates nothing
    account, issuance = _accounts(_user(user, currency), _system(AccountKind.ISSUANCE, currency))
    with transaction.atomic():
        _lock([account])
        if (done := _replay(key, kind, fingerprint)) is not None:
            return done
        return _record(
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
    _accounts(_user(user, Currency.COINS), _user(user, Currency.XP))
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
        fingerprint=_fingerprint(user=user.pk),
    )


def bonus_day(now: datetime) -> str:
    """The calendar day (ISO date) of `now` where daily bonuses are counted."""
    return now.astimezone(ZoneInfo(settings.ECONOMY_DAY_TIME_ZONE)).date().isoformat()


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
        amount=_positive_int(amount),
        key=f"daily:{user.pk}:{day}",
        currency=Currency.COINS,
        kind=TransactionKind.DAILY_BONUS,
        memo=f"daily bonus {day}" + (" (VIP)" if vip else ""),
        fingerprint=_fingerprint(user=user.pk, day=day),
    )


# --- Shop --------------------------------------------------------------------------


def perk_active(*, user: User, effect: str, now: datetime) -> bool:
    """True while the user's booster/VIP runs: from purchase up to, not including, its end."""
    return Perk.objects.filter(user=user, effect=effect, ends_at__gt=now).exists()


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
    fingerprint = _fingerprint(user=user.pk, product=product.pk)
    if (done := _replay(key, TransactionKind.PURCHASE, fingerprint)) is not None:
        return done
    coins, shop = _accounts(_user(user, Currency.COINS), _system(AccountKind.SHOP, Currency.COINS))
    with transaction.atomic():
        locked = _lock([coins])
        if (done := _replay(key, TransactionKind.PURCHASE, fingerprint)) is not None:
            return done
        fresh = Product.objects.filter(pk=product.pk).first()
        if fresh is None or not fresh.active:
            raise ProductUnavailable()
        product = fresh
        if _cached_balance(locked[coins.pk]) < product.price:
            raise InsufficientFunds()
        txn = _record(
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
        _fault("after-perk")
        return txn


# --- Match rewards --------------------------------------------------------------------


@dataclass(frozen=True)
class RewardRate:
    """The share of the place rewards (ECONOMY_PLACE_REWARDS) a kind of match pays,
    decided by the caller (the mode's policy in games or online): coins and XP
    multiplied by their rate and rounded down, for the places in `places` only."""

    coins: Fraction = Fraction(1)
    xp: Fraction = Fraction(1)
    places: frozenset[int] = frozenset({1, 2, 3, 4})


#: Every place paid in full.
FULL_RATE = RewardRate()


@dataclass(frozen=True)
class Placement:
    """One seat's result: `user` None for a bot; `abandoned` players earn nothing."""

    user: User | None
    place: int
    abandoned: bool = False


@dataclass(frozen=True)
class MatchRewards:
    """What match_reward paid: (coins, xp) by user id; `transaction` None when nobody earned."""

    transaction: Transaction | None
    by_user: dict[int, tuple[int, int]] = field(default_factory=dict)
    replayed: bool = False


def reward_multiplier(*, user: User, now: datetime) -> Fraction:
    """Booster x2 and VIP x1.5 (settings), multiplied together, for rewards earned at `now`."""
    effects = set(Perk.objects.filter(user=user, ends_at__gt=now).values_list("effect", flat=True))
    return _multiplier(effects)


def _multiplier(effects: set[str]) -> Fraction:
    multiplier = Fraction(1)
    if Effect.BOOSTER in effects:
        multiplier *= Fraction(settings.ECONOMY_BOOSTER_MULTIPLIER)
    if Effect.VIP in effects:
        multiplier *= Fraction(settings.ECONOMY_VIP_MULTIPLIER)
    return multiplier


def base_reward(*, rate: RewardRate, place: int) -> tuple[int, int]:
    """(coins, xp) before multipliers for a human who finished in `place` of a match
    paying `rate`."""
    table = {int(k): v for k, v in settings.ECONOMY_PLACE_REWARDS.items()}
    if place not in table:
        raise ValueError(f"place must be one of {sorted(table)}, not {place!r}")
    if place not in rate.places:
        return 0, 0
    coins, xp = table[place]
    return int(coins * rate.coins), int(xp * rate.xp)  # int() of a positive Fraction rounds down


def match_reward(
    *,
    match_id: int,
    label: str,
    placements: Sequence[Placement],
    rate: RewardRate = FULL_RATE,
    now: datetime | None = None,
    idempotency_key: str | None = None,
) -> MatchRewards:
    """Pay a finished match's coins and XP to its human, non-abandoning players, once.

    The caller decides the amounts: `rate` scales the place rewards (its mode's
    policy gives it) and `label` names the kind of match in the ledger's memo
    ("online match"); the economy knows nothing of modes.
    Key "match:<match_id>:reward". Boosters/VIP active at `now` (the end of the
    match) multiply each amount, rounded down once. Bots (user None) and abandoners
    get nothing. A repeat (redelivered task, second worker) pays nothing more and
    returns what the first call paid.
    """
    now = now or timezone.now()
    key = idempotency_key or f"match:{match_id}:reward"
    humans = [(p, p.user) for p in placements if p.user is not None]
    if len({user.pk for _, user in humans}) != len(humans):
        raise ValueError("a user appears twice in the placements")
    fingerprint = _fingerprint(
        match=match_id,
        # Named "mode" as when the economy took the mode: stored fingerprints still match.
        mode=str(label),
        placements=sorted(((p.user.pk if p.user else 0), p.place, p.abandoned) for p in placements),
    )
    if (done := _replay(key, TransactionKind.MATCH_REWARD, fingerprint)) is not None:
        return MatchRewards(transaction=done, by_user=match_rewards_paid(done), replayed=True)
    perks: dict[int, set[str]] = {}
    for user_id, effect in Perk.objects.filter(
        user__in=[user for _, user in humans], ends_at__gt=now
    ).values_list("user_id", "effect"):
        perks.setdefault(user_id, set()).add(effect)
    amounts: dict[int, tuple[int, int]] = {}
    for p, user in humans:
        coins, xp = base_reward(rate=rate, place=p.place)
        if p.abandoned:
            continue
        multiplier = _multiplier(perks.get(user.pk, set()))
        coins, xp = int(coins * multiplier), int(xp * multiplier)
        if coins or xp:
            amounts[user.pk] = (coins, xp)
    if not amounts:
        return MatchRewards(transaction=None)
    users = {user.pk: user for _, user in humans}
    specs: list[Spec] = []
    moves: list[int] = []
    for user_id, (coins, xp) in amounts.items():
        specs += [_user(users[user_id], Currency.COINS), _user(users[user_id], Currency.XP)]
        moves += [coins, xp]
    specs += [
        _system(AccountKind.ISSUANCE, Currency.COINS),
        _system(AccountKind.ISSUANCE, Currency.XP),
    ]
    moves += [-sum(c for c, _ in amounts.values()), -sum(x for _, x in amounts.values())]
    legs = list(zip(_accounts(*specs), moves, strict=True))
    with transaction.atomic():
        _lock(account for account, _ in legs)
        txn = _replay(key, TransactionKind.MATCH_REWARD, fingerprint) or _record(
            key=key,
            kind=TransactionKind.MATCH_REWARD,
            fingerprint=fingerprint,
            legs=legs,
            memo=f"{label} match",
            match_id=match_id,
        )
    if txn.replayed:
        return MatchRewards(transaction=txn, by_user=match_rewards_paid(txn), replayed=True)
    return MatchRewards(transaction=txn, by_user=amounts)


def match_rewards_paid(txn: Transaction) -> dict[int, tuple[int, int]]:
    """(coins, xp) by user id as posted in a match reward transaction."""
    paid: dict[int, list[int]] = {}
    for user_id, currency, amount in Entry.objects.filter(
        transaction=txn, account__kind=AccountKind.USER
    ).values_list("account__user_id", "account__currency", "amount"):
        slot = paid.setdefault(user_id, [0, 0])
        slot[0 if currency == Currency.COINS else 1] += amount
    return {user_id: (c, x) for user_id, (c, x) in paid.items()}


# --- Stake tables -------------------------------------------------------------------


def stake_place(
    *, user: User, table_id: int, amount: int, idempotency_key: str | None = None
) -> Transaction:
    """Move a stake from the user's coins into the table's escrow.

    Key "stake:<table_id>:<user_id>" unless given (pass one that names the sitting
    if a player may stake twice at one table). InsufficientFunds when short,
    EscrowSettled when the table's pot was already paid out or refunded.
    """
    amount = _positive_int(amount)
    key = idempotency_key or f"stake:{table_id}:{user.pk}"
    fingerprint = _fingerprint(user=user.pk, table=table_id, amount=amount)
    if (done := _replay(key, TransactionKind.STAKE, fingerprint)) is not None:
        return done
    coins, escrow = _accounts(_user(user, Currency.COINS), _escrow(table_id))
    with transaction.atomic():
        locked = _lock([coins, escrow])
        if (done := _replay(key, TransactionKind.STAKE, fingerprint)) is not None:
            return done
        if locked[escrow.pk].settled_at is not None:
            raise EscrowSettled()
        if _cached_balance(locked[coins.pk]) < amount:
            raise InsufficientFunds()
        return _record(
            key=key,
            kind=TransactionKind.STAKE,
            fingerprint=fingerprint,
            legs=[(coins, -amount), (escrow, amount)],
            memo=f"stake at table {table_id}",
            table_id=table_id,
        )


def _net_stakes(table_id: int) -> dict[int, int]:
    """What each user account still has in the table's escrow (stakes minus refunds)."""
    rows = (
        Entry.objects.filter(
            transaction__table_id=table_id,
            transaction__kind__in=[TransactionKind.STAKE, TransactionKind.REFUND],
            account__kind=AccountKind.USER,
        )
        .values("account_id")
        .annotate(net=Sum("amount"))
    )
    return {row["account_id"]: -row["net"] for row in rows if row["net"] < 0}


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
    fingerprint = _fingerprint(table=table_id, user=user.pk if user else None)
    if (done := _replay(key, TransactionKind.REFUND, fingerprint)) is not None:
        return done
    escrow, *mine = _accounts(_escrow(table_id), *([_user(user, Currency.COINS)] if user else []))
    own = mine[0] if mine else None
    # Read the stakers before locking so that every account is locked in pk order;
    # once the escrow is locked no stake can be added, so the re-read below is final.
    stakers = list(Account.objects.filter(pk__in=_net_stakes(table_id)))
    with transaction.atomic():
        locked = _lock([escrow, *stakers, *([own] if own else [])])
        if (done := _replay(key, TransactionKind.REFUND, fingerprint)) is not None:
            return done
        if locked[escrow.pk].settled_at is not None:
            paid = Transaction.objects.filter(table_id=table_id, kind=TransactionKind.POT_PAYOUT)
            if user is None and not paid.exists():
                return None  # already cancelled with nobody staked: nothing more to do
            raise EscrowSettled()
        net = _net_stakes(table_id)
        if own is not None:
            net = {pk: amount for pk, amount in net.items() if pk == own.pk}
            if not net:
                raise NothingToRefund()
        missing = [pk for pk in net if pk not in locked]
        locked.update(_lock(Account.objects.filter(pk__in=missing)))
        legs: list[tuple[Account, int]] = [(locked[pk], amount) for pk, amount in net.items()]
        legs.append((escrow, -sum(net.values())))
        txn = None
        if net:
            txn = _record(
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
    fingerprint = _fingerprint(table=table_id, winners=[w.pk for w in winners])
    if (done := _replay(key, TransactionKind.POT_PAYOUT, fingerprint)) is not None:
        return done
    escrow, *accounts = _accounts(_escrow(table_id), *(_user(w, Currency.COINS) for w in winners))
    if len({a.pk for a in accounts}) != len(accounts):
        raise ValueError("a winner appears twice")
    with transaction.atomic():
        locked = _lock([escrow, *accounts])
        if (done := _replay(key, TransactionKind.POT_PAYOUT, fingerprint)) is not None:
            return done
        if locked[escrow.pk].settled_at is not None:
            raise EscrowSettled()
        pot = _cached_balance(locked[escrow.pk])
        if pot <= 0 or not accounts:
            raise NothingToPay()
        share, remainder = divmod(pot, len(accounts))
        legs = [(escrow, -pot)]
        for index, account in enumerate(accounts):
            legs.append((account, share + (remainder if index == 0 else 0)))
        txn = _record(
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


# --- Staff ------------------------------------------------------------------------------


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
    fingerprint = _fingerprint(
        staff=staff_user.pk, user=user.pk, amount=amount, currency=currency, reason=reason
    )
    if (done := _replay(key, TransactionKind.ADJUSTMENT, fingerprint)) is not None:
        return done
    account, adjustments = _accounts(
        _user(user, currency), _system(AccountKind.ADJUSTMENTS, currency)
    )
    with transaction.atomic():
        locked = _lock([account])
        if (done := _replay(key, TransactionKind.ADJUSTMENT, fingerprint)) is not None:
            return done
        if _cached_balance(locked[account.pk]) + amount < 0:
            raise InsufficientFunds(
                gettext("The adjustment would make the balance negative. Nothing was posted.")
            )
        return _record(
            key=key,
            kind=TransactionKind.ADJUSTMENT,
            fingerprint=fingerprint,
            legs=[(account, amount), (adjustments, -amount)],
            memo=reason,
            staff_user=staff_user,
        )

"""Reads of the ledger: for pages, the navigation and the audit, and those the
services make before they write (a perk running, the reward multiplier, what a
match reward or the stakes at a table came to)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from fractions import Fraction
from zoneinfo import ZoneInfo

from django.conf import settings
from django.db import connection
from django.db.models import Count, Q, QuerySet, Sum
from django.db.models.functions import TruncMonth
from django.utils import timezone

from accounts.models import User
from economy.levels import LevelProgress, level_progress
from economy.models import (
    CACHED_KINDS,
    ESCROW_KINDS,
    Account,
    AccountKind,
    Currency,
    Effect,
    Entry,
    LedgerAudit,
    Perk,
    Product,
    Transaction,
    TransactionKind,
)


def balances(user: User | int) -> dict[str, int]:
    """The user's cached coin and XP balances (0 for an account not opened yet).

    Read on every logged-in page (the navigation), never cached (a balance shows
    every action at once); plain SQL: building the query was most of its cost."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT currency, balance FROM {Account._meta.db_table} "
            "WHERE kind = %s AND user_id = %s",
            [AccountKind.USER.value, user if isinstance(user, int) else user.pk],
        )
        found = dict(cursor.fetchall())
    return {
        Currency.COINS: found.get(Currency.COINS) or 0,
        Currency.XP: found.get(Currency.XP) or 0,
    }


# --- Perks, bonuses, rewards and stakes (the services' reads too) -------------------


def bonus_day(now: datetime) -> str:
    """The calendar day (ISO date) of `now` where daily bonuses are counted."""
    return now.astimezone(ZoneInfo(settings.ECONOMY_DAY_TIME_ZONE)).date().isoformat()


def perk_active(*, user: User, effect: str, now: datetime) -> bool:
    """True while the user's booster/VIP runs: from purchase up to, not including, its end."""
    return Perk.objects.filter(user=user, effect=effect, ends_at__gt=now).exists()


def reward_multiplier(*, user: User, now: datetime) -> Fraction:
    """Booster x2 and VIP x1.5 (settings), multiplied together, for rewards earned at `now`."""
    effects = set(Perk.objects.filter(user=user, ends_at__gt=now).values_list("effect", flat=True))
    return perks_multiplier(effects)


def perks_multiplier(effects: set[str]) -> Fraction:
    """Booster x2 and VIP x1.5 (settings) for these active effects, multiplied together."""
    multiplier = Fraction(1)
    if Effect.BOOSTER in effects:
        multiplier *= Fraction(settings.ECONOMY_BOOSTER_MULTIPLIER)
    if Effect.VIP in effects:
        multiplier *= Fraction(settings.ECONOMY_VIP_MULTIPLIER)
    return multiplier


def match_rewards_paid(txn: Transaction) -> dict[int, tuple[int, int]]:
    """(coins, xp) by user id as posted in a match reward transaction."""
    paid: dict[int, list[int]] = {}
    for user_id, currency, amount in Entry.objects.filter(
        transaction=txn, account__kind=AccountKind.USER
    ).values_list("account__user_id", "account__currency", "amount"):
        slot = paid.setdefault(user_id, [0, 0])
        slot[0 if currency == Currency.COINS else 1] += amount
    return {user_id: (c, x) for user_id, (c, x) in paid.items()}


def escrow_stakes(*, table_id: int) -> dict[int, int]:
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


def tournament_fees(*, tournament_id: int) -> dict[int, int]:
    """What each user account still has in the tournament's escrow (entry fees minus
    fee refunds), by account id."""
    rows = (
        Entry.objects.filter(
            transaction__kind__in=[TransactionKind.ENTRY_FEE, TransactionKind.FEE_REFUND],
            transaction__entries__account__kind=AccountKind.TOURNAMENT,
            transaction__entries__account__tournament_id=tournament_id,
            account__kind=AccountKind.USER,
        )
        .values("account_id")
        .annotate(net=Sum("amount"))
    )
    return {row["account_id"]: -row["net"] for row in rows if row["net"] < 0}


def stake_nets(*, table_ids: list[int]) -> dict[int, dict[int, int]]:
    """What each player came away with from these stake tables, by table then user id:
    the pot paid to them minus their stakes, refunds counted (0 for a refunded stake;
    the fair-play screen's coins moved between two players, docs/fairplay.md). One
    query per 5,000 tables."""
    nets: dict[int, dict[int, int]] = {}
    ids = sorted(set(table_ids))
    for start in range(0, len(ids), 5000):
        rows = (
            Entry.objects.filter(
                transaction__table_id__in=ids[start : start + 5000],
                transaction__kind__in=[
                    TransactionKind.STAKE,
                    TransactionKind.REFUND,
                    TransactionKind.POT_PAYOUT,
                ],
                account__kind=AccountKind.USER,
                account__currency=Currency.COINS,
            )
            .values("transaction__table_id", "account__user_id")
            .annotate(net=Sum("amount"))
            .values_list("transaction__table_id", "account__user_id", "net")
        )
        for table_id, user_id, net in rows:
            if table_id is not None and user_id is not None:
                nets.setdefault(table_id, {})[user_id] = net
    return nets


def ledger_sums_by_month(
    *, user: User, since: datetime | None, until: datetime | None
) -> dict[tuple[str, date], int]:
    """The user's ledger entries summed by currency and month (local time), from
    `since` (inclusive) to `until` (exclusive), either open: one query. Entries are
    dated when posted, never back-dated, so a month over is closed."""
    entries = Entry.objects.filter(account__user=user, account__kind=AccountKind.USER)
    if since is not None:
        entries = entries.filter(transaction__created_at__gte=since)
    if until is not None:
        entries = entries.filter(transaction__created_at__lt=until)
    sums: dict[tuple[str, date], int] = {}
    for row in (
        entries.annotate(month=TruncMonth("transaction__created_at"))
        .values("account__currency", "month")
        .annotate(total=Sum("amount"))
    ):
        month = row["month"]
        month = month.date() if isinstance(month, datetime) else month
        sums[(row["account__currency"], month)] = row["total"]
    return sums


def user_level(user: User) -> LevelProgress:
    return level_progress(balances(user)[Currency.XP])


@dataclass(frozen=True)
class ActivePerk:
    effect: str
    label: str
    ends_at: datetime
    time_left: timedelta


@dataclass(frozen=True)
class WalletSummary:
    coins: int
    xp: int
    level: LevelProgress
    perks: list[ActivePerk] = field(default_factory=list)
    daily_bonus_claimed: bool = False


def active_perks(user: User, now: datetime | None = None) -> list[ActivePerk]:
    now = now or timezone.now()
    return [
        ActivePerk(
            effect=perk.effect,
            label=perk.get_effect_display(),
            ends_at=perk.ends_at,
            time_left=perk.ends_at - now,
        )
        for perk in Perk.objects.filter(user=user, ends_at__gt=now).order_by("effect")
    ]


def daily_bonus_claimed(user: User, now: datetime | None = None) -> bool:
    now = now or timezone.now()
    return Transaction.objects.filter(idempotency_key=f"daily:{user.pk}:{bonus_day(now)}").exists()


def wallet_summary(user: User, now: datetime | None = None) -> WalletSummary:
    now = now or timezone.now()
    money = balances(user)
    return WalletSummary(
        coins=money[Currency.COINS],
        xp=money[Currency.XP],
        level=level_progress(money[Currency.XP]),
        perks=active_perks(user, now),
        daily_bonus_claimed=daily_bonus_claimed(user, now),
    )


def user_transactions(user: User) -> QuerySet[Transaction]:
    """The user's transactions, newest first, with the coins and XP each moved for them."""
    mine = Q(entries__account__kind=AccountKind.USER, entries__account__user=user)
    return (
        Transaction.objects.filter(mine)
        .annotate(
            coins=Sum("entries__amount", filter=mine & Q(entries__account__currency="coins")),
            xp=Sum("entries__amount", filter=mine & Q(entries__account__currency="xp")),
        )
        .select_related("product")
        .order_by("-created_at", "-pk")
    )


def products_on_sale() -> QuerySet[Product]:
    return Product.objects.filter(active=True)


# --- Audit -------------------------------------------------------------------------------


@dataclass
class AuditReport:
    violations: list[str] = field(default_factory=list)
    totals: dict[str, dict[str, int]] = field(default_factory=dict)


def ledger_audit() -> AuditReport:
    """Check every invariant of the ledger (see economy/management/commands/audit_ledger.py)."""
    report = AuditReport()

    empty = Transaction.objects.annotate(n=Count("entries")).filter(n=0)
    for txn in empty.values_list("pk", flat=True)[:100]:
        report.violations.append(f"transaction {txn} has no entries")

    unbalanced = (
        Entry.objects.values("transaction_id", "account__currency")
        .annotate(total=Sum("amount"))
        .exclude(total=0)
    )
    for row in unbalanced[:100]:
        report.violations.append(
            f"transaction {row['transaction_id']} is off by"
            f" {row['total']} {row['account__currency']}"
        )

    zero = Entry.objects.filter(amount=0).values_list("pk", flat=True)
    for pk in zero[:100]:
        report.violations.append(f"entry {pk} has a zero amount")

    summed = Account.objects.annotate(total=Sum("entries__amount")).values(
        "pk", "kind", "currency", "balance", "total", "settled_at"
    )
    for account in summed:
        total = account["total"] or 0
        cached = account["kind"] in CACHED_KINDS
        if cached and account["balance"] != total:
            report.violations.append(
                f"account {account['pk']} caches {account['balance']}"
                f" but its entries sum to {total}"
            )
        if not cached and account["balance"] is not None:
            report.violations.append(f"system account {account['pk']} has a cached balance")
        if cached and (total < 0 or (account["balance"] or 0) < 0):
            report.violations.append(
                f"account {account['pk']} ({account['kind']}) is negative: {total}"
            )
        if account["kind"] in ESCROW_KINDS and account["settled_at"] is not None and total != 0:
            report.violations.append(
                f"escrow account {account['pk']} is settled but still holds {total}"
            )

    for currency in Currency.values:
        per_kind = dict(
            Entry.objects.filter(account__currency=currency)
            .values_list("account__kind")
            .annotate(total=Sum("amount"))
        )
        issued = -per_kind.get(AccountKind.ISSUANCE, 0)
        held = sum(total for kind, total in per_kind.items() if kind != AccountKind.ISSUANCE)
        if issued != held:
            report.violations.append(
                f"{currency}: issuance issued {issued} but the other accounts hold {held}"
            )
        report.totals[currency] = {
            "issued": issued,
            "held": held,
            "transactions": Transaction.objects.filter(entries__account__currency=currency)
            .distinct()
            .count(),
        }
    return report


def match_rewards(match_ids: list[int], users: list[User] | None = None) -> dict:
    """Coins and XP each user got from each match, from the ledger entries carrying
    the match id: {(match_id, user_id): {"coins": n, "xp": n}}, in one query."""
    from economy.models import Account, Entry, Transaction

    if not match_ids:
        return {}
    # The entries of the matches' transactions (found by their match id), in one
    # query; the users are picked out here: a filter on them in SQL leads the planner
    # to start from the players' accounts and walk every entry they ever had.
    # Plain SQL: the page asks it on every view, and building it is most of its cost.
    wanted = None if users is None else {user.pk for user in users}
    placeholders = ", ".join(["%s"] * len(match_ids))
    sql = f"""
        SELECT t.match_id, a.user_id, a.currency, SUM(e.amount)
        FROM {Entry._meta.db_table} e
        JOIN {Transaction._meta.db_table} t ON t.id = e.transaction_id
        JOIN {Account._meta.db_table} a ON a.id = e.account_id
        WHERE t.match_id IN ({placeholders}) AND a.user_id IS NOT NULL
        GROUP BY t.match_id, a.user_id, a.currency
    """
    rewards: dict[tuple[int, int], dict[str, int]] = {}
    with connection.cursor() as cursor:
        cursor.execute(sql, [int(match_id) for match_id in match_ids])
        for match_id, user_id, currency, total in cursor.fetchall():
            if wanted is None or user_id in wanted:
                rewards.setdefault((match_id, user_id), {})[currency] = int(total)
    return rewards


def ledger_audit_last() -> LedgerAudit | None:
    """The latest stored run of the periodic ledger audit."""
    return LedgerAudit.objects.order_by("-ran_at").first()

"""The ledger: accounts, immutable balanced transactions and their entries.

Only economy.services writes these tables. The database itself refuses what
would break the ledger (see migrations 0002): negative user/escrow balances,
zero-amount entries, edited or deleted entries and transactions, and (on
PostgreSQL) transactions whose entries do not sum to zero per currency.

A user/escrow account's `balance` is a cache of the sum of its entries, kept
by an AFTER INSERT trigger on entries in the same database transaction. The
busy system accounts (issuance, shop, adjustments) keep no cached balance
(NULL): caching it would make every reward and purchase queue on one row.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class Currency(models.TextChoices):
    COINS = "coins", _("coins")
    XP = "xp", _("XP")


class AccountKind(models.TextChoices):
    USER = "user", _("user")
    ISSUANCE = "issuance", _("issuance")
    SHOP = "shop", _("shop")
    ADJUSTMENTS = "adjustments", _("staff adjustments")
    ESCROW = "escrow", _("stake table escrow")
    # A tournament's entry fees, held until its prizes are paid or the fees refunded.
    TOURNAMENT = "tournament", _("tournament escrow")


# Accounts whose balance is cached (and so lockable and CHECKed).
CACHED_KINDS = (AccountKind.USER, AccountKind.ESCROW, AccountKind.TOURNAMENT)
# Accounts that hold coins for a while and are settled (emptied, then final) once.
ESCROW_KINDS = (AccountKind.ESCROW, AccountKind.TOURNAMENT)
SYSTEM_KINDS = (AccountKind.ISSUANCE, AccountKind.SHOP, AccountKind.ADJUSTMENTS)


class Account(models.Model):
    kind = models.CharField(_("kind"), max_length=16, choices=AccountKind.choices)
    currency = models.CharField(_("currency"), max_length=8, choices=Currency.choices)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.PROTECT,  # a user with ledger history is deactivated, never deleted
        null=True,
        blank=True,
        related_name="ledger_accounts",
    )
    # The games app does not exist yet: a stake table is referred to by its id.
    table_id = models.BigIntegerField(_("table id"), null=True, blank=True)
    # A tournament escrow's tournament (the tournaments app sits above economy: an id).
    tournament_id = models.BigIntegerField(_("tournament id"), null=True, blank=True)
    balance = models.BigIntegerField(_("balance"), null=True, blank=True)
    settled_at = models.DateTimeField(_("settled at"), null=True, blank=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        verbose_name = _("account")
        verbose_name_plural = _("accounts")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "currency"],
                condition=Q(kind="user"),
                name="economy_account_one_per_user_currency",
            ),
            models.UniqueConstraint(
                fields=["table_id", "currency"],
                condition=Q(kind="escrow"),
                name="economy_account_one_escrow_per_table",
            ),
            models.UniqueConstraint(
                fields=["tournament_id", "currency"],
                condition=Q(kind="tournament"),
                name="economy_account_one_escrow_per_tournament",
            ),
            models.UniqueConstraint(
                fields=["kind", "currency"],
                condition=Q(kind__in=["issuance", "shop", "adjustments"]),
                name="economy_account_one_system_account",
            ),
            models.CheckConstraint(
                condition=Q(kind="user", user__isnull=False)
                | Q(~Q(kind="user"), user__isnull=True),
                name="economy_account_user_iff_user_kind",
            ),
            models.CheckConstraint(
                condition=Q(kind="escrow", table_id__isnull=False, currency="coins")
                | Q(~Q(kind="escrow"), table_id__isnull=True),
                name="economy_account_table_iff_escrow",
            ),
            models.CheckConstraint(
                condition=Q(kind="tournament", tournament_id__isnull=False, currency="coins")
                | Q(~Q(kind="tournament"), tournament_id__isnull=True),
                name="economy_account_tournament_iff_tournament_escrow",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["user", "escrow", "tournament"], balance__isnull=False)
                | Q(kind__in=["issuance", "shop", "adjustments"], balance__isnull=True),
                name="economy_account_balance_cached_iff_user_or_escrow",
            ),
            models.CheckConstraint(
                condition=Q(balance__isnull=True) | Q(balance__gte=0),
                name="economy_account_balance_not_negative",
            ),
        ]

    def __str__(self) -> str:
        if self.kind == AccountKind.USER:
            return f"{self.user} / {self.get_currency_display()}"
        if self.kind == AccountKind.ESCROW:
            return f"{self.get_kind_display()} #{self.table_id}"
        if self.kind == AccountKind.TOURNAMENT:
            return f"{self.get_kind_display()} #{self.tournament_id}"
        return f"{self.get_kind_display()} / {self.get_currency_display()}"


class TransactionKind(models.TextChoices):
    SIGNUP_BONUS = "signup_bonus", _("signup bonus")
    DAILY_BONUS = "daily_bonus", _("daily bonus")
    MATCH_REWARD = "match_reward", _("match reward")
    PURCHASE = "purchase", _("purchase")
    STAKE = "stake", _("stake")
    REFUND = "refund", _("stake refund")
    POT_PAYOUT = "pot_payout", _("pot payout")
    LEAGUE_PRIZE = "league_prize", _("league prize")
    DAILY_PRIZE = "daily_prize", _("daily deal reward")
    ENTRY_FEE = "entry_fee", _("tournament entry fee")
    FEE_REFUND = "fee_refund", _("tournament fee refund")
    TOURNAMENT_PRIZE = "tournament_prize", _("tournament prize")
    GRANT = "grant", _("grant")
    ADJUSTMENT = "adjustment", _("staff adjustment")


class Transaction(models.Model):
    """One balanced movement. Never edited or deleted: a mistake gets a correcting one."""

    idempotency_key = models.CharField(_("idempotency key"), max_length=200, unique=True)
    kind = models.CharField(_("kind"), max_length=16, choices=TransactionKind.choices)
    # SHA-256 of the posting call's parameters: the same key with other ones is refused.
    # NULL on rows posted before fingerprints were stored (compared by kind only); a
    # nullable column is also one SQLite adds without rebuilding the table (and its triggers).
    fingerprint = models.CharField(  # noqa: DJ001
        _("parameters fingerprint"), max_length=64, null=True, blank=True, editable=False
    )
    memo = models.CharField(_("memo"), max_length=500, blank=True)
    product = models.ForeignKey(
        "economy.Product",
        verbose_name=_("product"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    staff_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("staff user"),
        on_delete=models.PROTECT,
        null=True,
        blank=True,
        related_name="+",
    )
    # Plain integers until the games app exists (issues 5 and 7); documented in docs/economy.md.
    match_id = models.BigIntegerField(_("match id"), null=True, blank=True, db_index=True)
    table_id = models.BigIntegerField(_("table id"), null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(_("created at"), auto_now_add=True, db_index=True)

    # Set by the services, not stored: True when a call found its key already posted.
    replayed: bool = False

    class Meta:
        verbose_name = _("transaction")
        verbose_name_plural = _("transactions")
        permissions = [("adjust_balance", _("Can post a staff balance adjustment"))]

    def __str__(self) -> str:
        return f"#{self.pk} {self.get_kind_display()}"


class Entry(models.Model):
    transaction = models.ForeignKey(
        Transaction, verbose_name=_("transaction"), on_delete=models.PROTECT, related_name="entries"
    )
    account = models.ForeignKey(
        Account, verbose_name=_("account"), on_delete=models.PROTECT, related_name="entries"
    )
    amount = models.BigIntegerField(_("amount"))

    class Meta:
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.CheckConstraint(condition=~Q(amount=0), name="economy_entry_amount_not_zero"),
        ]

    def __str__(self) -> str:
        return f"{self.account}: {self.amount:+d}"


class Effect(models.TextChoices):
    BOOSTER = "booster", _("gold booster")
    VIP = "vip", _("VIP pass")


class Product(models.Model):
    """Something the shop sells. Prices and durations are edited in the admin."""

    code = models.SlugField(_("code"), max_length=40, unique=True)
    name = models.CharField(_("name"), max_length=100)
    effect = models.CharField(_("effect"), max_length=16, choices=Effect.choices)
    price = models.PositiveIntegerField(_("price in coins"))
    duration = models.DurationField(
        _("duration"), validators=[MinValueValidator(timedelta(minutes=1))]
    )
    active = models.BooleanField(_("on sale"), default=True)
    position = models.PositiveSmallIntegerField(_("position"), default=0)

    class Meta:
        verbose_name = _("product")
        verbose_name_plural = _("products")
        ordering = ["position", "pk"]
        constraints = [
            models.CheckConstraint(condition=Q(price__gt=0), name="economy_product_price_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class Perk(models.Model):
    """An active (or expired) booster or VIP pass of one user; one row per effect."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        verbose_name=_("user"),
        on_delete=models.PROTECT,
        related_name="perks",
    )
    effect = models.CharField(_("effect"), max_length=16, choices=Effect.choices)
    ends_at = models.DateTimeField(_("ends at"))

    class Meta:
        verbose_name = _("booster or VIP pass")
        verbose_name_plural = _("boosters and VIP passes")
        constraints = [
            models.UniqueConstraint(fields=["user", "effect"], name="economy_perk_one_per_effect"),
        ]

    def __str__(self) -> str:
        return f"{self.user} / {self.get_effect_display()}"


class LedgerAudit(models.Model):
    """One run of the ledger audit (economy.selectors.ledger_audit) by the periodic
    task: its result is what /metrics and the staff's live view show."""

    ran_at = models.DateTimeField(_("ran at"), db_index=True)
    seconds = models.FloatField(_("seconds"))
    violations = models.PositiveIntegerField(_("violations"))
    detail = models.TextField(_("detail"), blank=True)

    class Meta:
        verbose_name = _("ledger audit")
        verbose_name_plural = _("ledger audits")
        ordering = ["-ran_at"]

    def __str__(self) -> str:
        return f"{self.ran_at:%Y-%m-%d %H:%M}: {self.violations} violation(s)"

    @property
    def passed(self) -> bool:
        return self.violations == 0

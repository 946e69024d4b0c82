"""A finished match's coins and XP, at the rate its mode's policy gives."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from fractions import Fraction

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from economy.models import AccountKind, Currency, Perk, Transaction, TransactionKind
from economy.selectors import match_rewards_paid, perks_multiplier
from economy.services.ledger import (
    Spec,
    accounts_for,
    call_fingerprint,
    lock_in_order,
    posted,
    record,
    system_account,
    user_account,
)


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
    fingerprint = call_fingerprint(
        match=match_id,
        # Named "mode" as when the economy took the mode: stored fingerprints still match.
        mode=str(label),
        placements=sorted(((p.user.pk if p.user else 0), p.place, p.abandoned) for p in placements),
    )
    if (done := posted(key, TransactionKind.MATCH_REWARD, fingerprint)) is not None:
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
        multiplier = perks_multiplier(perks.get(user.pk, set()))
        coins, xp = int(coins * multiplier), int(xp * multiplier)
        if coins or xp:
            amounts[user.pk] = (coins, xp)
    if not amounts:
        return MatchRewards(transaction=None)
    users = {user.pk: user for _, user in humans}
    specs: list[Spec] = []
    moves: list[int] = []
    for user_id, (coins, xp) in amounts.items():
        specs += [
            user_account(users[user_id], Currency.COINS),
            user_account(users[user_id], Currency.XP),
        ]
        moves += [coins, xp]
    specs += [
        system_account(AccountKind.ISSUANCE, Currency.COINS),
        system_account(AccountKind.ISSUANCE, Currency.XP),
    ]
    moves += [-sum(c for c, _ in amounts.values()), -sum(x for _, x in amounts.values())]
    legs = list(zip(accounts_for(*specs), moves, strict=True))
    with transaction.atomic():
        lock_in_order(account for account, _ in legs)
        txn = posted(key, TransactionKind.MATCH_REWARD, fingerprint) or record(
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

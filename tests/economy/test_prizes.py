"""Many prizes at once (economy.services.prizes_grant): one balanced transaction per
key with a coin leg and an XP leg, XP multiplied by the perks, idempotent per key."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from economy import services
from economy.errors import IdempotencyKeyConflict, InvalidAmount
from economy.models import Currency, Effect, Entry, Perk, Transaction, TransactionKind
from economy.selectors import balances

pytestmark = pytest.mark.django_db


def test_each_prize_is_one_balanced_transaction_under_its_key(make_user):
    ana, bea = make_user("ana"), make_user("bea")
    start = {u.pk: balances(u.pk) for u in (ana, bea)}
    granted = services.prizes_grant(
        prizes=[
            services.Prize(user_id=ana.pk, idempotency_key="d:1:a", coins=100, xp=25),
            services.Prize(user_id=bea.pk, idempotency_key="d:1:b", xp=25),
            services.Prize(user_id=bea.pk, idempotency_key="d:1:nothing"),
        ]
    )
    assert granted.paid == {"d:1:a": (100, 25), "d:1:b": (0, 25)} and not granted.replayed
    for key, legs in (("d:1:a", 4), ("d:1:b", 2)):
        txn = Transaction.objects.get(idempotency_key=key)
        assert txn.kind == TransactionKind.DAILY_PRIZE
        entries = Entry.objects.filter(transaction=txn)
        assert entries.count() == legs
        for currency in (Currency.COINS, Currency.XP):
            assert sum(e.amount for e in entries if e.account.currency == currency) == 0
    assert not Transaction.objects.filter(idempotency_key="d:1:nothing").exists()
    assert balances(ana.pk)[Currency.COINS] == start[ana.pk][Currency.COINS] + 100
    assert balances(ana.pk)[Currency.XP] == 25 and balances(bea.pk)[Currency.XP] == 25


def test_the_perks_running_at_the_prizes_moment_multiply_its_xp_never_its_coins(make_user):
    ana = make_user("ana")
    moment = timezone.now() - timedelta(hours=3)
    Perk.objects.create(user=ana, effect=Effect.BOOSTER, ends_at=moment + timedelta(minutes=1))
    Perk.objects.create(user=ana, effect=Effect.VIP, ends_at=moment + timedelta(days=30))
    before = balances(ana.pk)[Currency.COINS]
    granted = services.prizes_grant(
        prizes=[
            services.Prize(user_id=ana.pk, idempotency_key="k1", coins=100, xp=25, xp_at=moment),
            services.Prize(user_id=ana.pk, idempotency_key="k2", xp=25),  # now: VIP only
        ]
    )
    assert granted.paid == {"k1": (100, 75), "k2": (0, 37)}  # x3, then x1.5 rounded down
    assert balances(ana.pk)[Currency.COINS] == before + 100
    assert balances(ana.pk)[Currency.XP] == 75 + 37


def test_a_key_paid_before_is_a_replay_and_moves_nothing(make_user):
    ana = make_user("ana")
    prize = services.Prize(user_id=ana.pk, idempotency_key="once", coins=10, xp=5)
    services.prizes_grant(prizes=[prize])
    after = balances(ana.pk)
    granted = services.prizes_grant(prizes=[prize])
    assert granted.paid == {} and granted.replayed == {"once"}
    assert balances(ana.pk) == after
    assert Transaction.objects.filter(idempotency_key="once").count() == 1


def test_a_key_reused_for_another_prize_is_refused_and_nothing_is_written(make_user):
    ana, bea = make_user("ana"), make_user("bea")
    services.prizes_grant(prizes=[services.Prize(user_id=ana.pk, idempotency_key="k", xp=5)])
    count = Transaction.objects.count()
    with pytest.raises(IdempotencyKeyConflict):
        services.prizes_grant(
            prizes=[
                services.Prize(user_id=bea.pk, idempotency_key="fresh", xp=5),
                services.Prize(user_id=bea.pk, idempotency_key="k", xp=5),
            ]
        )
    assert Transaction.objects.count() == count
    assert balances(bea.pk)[Currency.XP] == 0


@pytest.mark.parametrize("amount", [-1, 1.5, True, "5"])
def test_amounts_that_are_not_whole_numbers_from_zero_are_refused(make_user, amount):
    ana = make_user("ana")
    with pytest.raises(InvalidAmount):
        services.prizes_grant(
            prizes=[services.Prize(user_id=ana.pk, idempotency_key="bad", xp=amount)]
        )


def test_the_same_key_twice_in_one_call_is_refused(make_user):
    ana = make_user("ana")
    prize = services.Prize(user_id=ana.pk, idempotency_key="twice", xp=5)
    with pytest.raises(ValueError):
        services.prizes_grant(prizes=[prize, prize])


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_payers_at_once_pay_each_prize_once(make_user):
    from tests.threads import run_together

    users = [make_user(f"u{i}") for i in range(20)]
    prizes = [
        services.Prize(user_id=u.pk, idempotency_key=f"race:{u.pk}", coins=10, xp=3) for u in users
    ]
    start = {u.pk: balances(u.pk)[Currency.COINS] for u in users}
    results = run_together(4, lambda _: services.prizes_grant(prizes=prizes))
    assert not [r for r in results if isinstance(r, Exception)], results
    assert sorted(len(r.paid) for r in results) == [0, 0, 0, 20]
    for user in users:
        assert balances(user.pk)[Currency.COINS] == start[user.pk] + 10
        assert balances(user.pk)[Currency.XP] == 3

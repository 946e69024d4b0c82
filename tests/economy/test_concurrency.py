"""Real races on PostgreSQL: threads released together against one database."""

import pytest

from economy import services
from economy.errors import EscrowSettled, IdempotencyKeyConflict, InsufficientFunds
from economy.models import Perk, Product, Transaction, TransactionKind
from economy.selectors import ledger_audit
from economy.services import Placement
from tests.threads import run_together

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("products"),
]


def test_fifty_threads_buying_against_a_balance_for_one_buy_exactly_once(
    player, staff_user, coins_of
):
    booster = Product.objects.get(code="booster-1h")
    services.balance_adjust(
        staff_user=staff_user,
        user=player,
        amount=booster.price - 1000,
        reason="leave exactly one price",
        idempotency_key="setup",
    )
    assert coins_of(player) == booster.price

    results = run_together(
        50,
        lambda i: services.product_purchase(
            user=player, product=booster, idempotency_key=f"click-{i}"
        ),
    )

    bought = [r for r in results if isinstance(r, Transaction)]
    refused = [r for r in results if isinstance(r, InsufficientFunds)]
    assert len(bought) == 1 and len(refused) == 49, results
    assert coins_of(player) == 0
    assert Transaction.objects.filter(kind=TransactionKind.PURCHASE).count() == 1
    assert Perk.objects.filter(user=player).count() == 1
    assert ledger_audit().violations == []


def test_the_same_key_submitted_twenty_times_at_once_is_one_transaction(player, coins_of):
    booster = Product.objects.get(code="booster-1h")
    results = run_together(
        20,
        lambda i: services.product_purchase(
            user=player, product=booster, idempotency_key="one-click"
        ),
    )
    assert all(isinstance(r, Transaction) for r in results), results
    assert len({r.pk for r in results}) == 1
    assert sum(not r.replayed for r in results) == 1
    assert coins_of(player) == 1000 - booster.price
    assert Transaction.objects.filter(kind=TransactionKind.PURCHASE).count() == 1


def test_the_same_grant_key_racing_for_twenty_users_pays_one_and_refuses_the_rest(
    make_user, coins_of
):
    # Different users, one key: no account lock serialises them, only the UNIQUE key;
    # the fingerprint tells the first request from the nineteen different ones.
    users = [make_user(f"u{i}") for i in range(20)]
    results = run_together(
        20,
        lambda i: services.ledger_grant(user=users[i], amount=7, idempotency_key="promo"),
    )
    paid = [r for r in results if isinstance(r, Transaction)]
    assert len(paid) == 1, results
    assert all(isinstance(r, IdempotencyKeyConflict) for r in results if r not in paid), results
    assert sorted(coins_of(u) for u in users) == [1000] * 19 + [1007]
    assert Transaction.objects.filter(idempotency_key="promo").count() == 1
    assert ledger_audit().violations == []


def test_a_pot_redelivered_with_other_winners_while_the_first_pays_is_refused(make_user, coins_of):
    users = [make_user(f"r{i}") for i in range(4)]
    for user in users:
        services.stake_place(user=user, table_id=12, amount=100)
    results = run_together(
        2,
        lambda i: services.pot_pay_out(table_id=12, winners=users[2 * i : 2 * i + 2], match_id=12),
    )
    assert sorted(type(r).__name__ for r in results) == ["IdempotencyKeyConflict", "Transaction"]
    assert sorted(coins_of(u) for u in users) == [900, 900, 1100, 1100]
    assert ledger_audit().violations == []


def test_a_match_reward_applied_twice_concurrently_pays_once(make_user, coins_of, xp_of):
    a, b, c, d = (make_user(n) for n in ("a1", "b1", "c1", "d1"))
    placements = [Placement(u, i + 1) for i, u in enumerate((a, b, c, d))]
    results = run_together(
        2, lambda i: services.match_reward(match_id=99, label="online", placements=placements)
    )
    assert all(isinstance(r, services.MatchRewards) for r in results), results
    assert sorted(r.replayed for r in results) == [False, True]
    assert results[0].by_user == results[1].by_user
    assert (coins_of(a), xp_of(a), coins_of(d), xp_of(d)) == (1060, 40, 1010, 10)

    redelivered = services.match_reward(match_id=99, label="online", placements=placements)
    assert redelivered.replayed
    assert (coins_of(a), xp_of(a)) == (1060, 40)
    assert Transaction.objects.filter(kind=TransactionKind.MATCH_REWARD).count() == 1
    assert ledger_audit().violations == []


def test_stakes_and_a_payout_racing_leave_the_escrow_settled_at_zero(make_user, coins_of):
    users = [make_user(f"s{i}") for i in range(4)]
    run_together(4, lambda i: services.stake_place(user=users[i], table_id=5, amount=1000))
    results = run_together(
        4, lambda i: services.pot_pay_out(table_id=5, winners=users[:2], match_id=5)
    )
    assert sorted(r.replayed for r in results) == [False, True, True, True]
    assert [coins_of(u) for u in users] == [2000, 2000, 0, 0]
    assert ledger_audit().violations == []


def test_a_table_cancelled_while_players_stake_refunds_every_stake_that_got_in(make_user, coins_of):
    users = [make_user(f"c{i}") for i in range(8)]

    def work(i: int):
        if i == 8:
            return services.stake_refund(table_id=6)
        return services.stake_place(user=users[i], table_id=6, amount=300)

    results = run_together(9, work)
    for result in results:
        assert result is None or isinstance(result, (Transaction, EscrowSettled)), result
    # Whoever staked before the cancellation got it back; whoever came after was refused.
    assert [coins_of(u) for u in users] == [1000] * 8
    assert ledger_audit().violations == []

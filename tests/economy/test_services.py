"""The ledger services: amounts, refusals and idempotency (any database)."""

from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest
from django.db import transaction

from economy import services
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
from economy.models import Perk, Product, Transaction, TransactionKind
from economy.selectors import ledger_audit
from economy.services import Placement, RewardRate

FRIENDS_RATE = RewardRate(coins=Fraction(1, 2), xp=Fraction(1, 2), places=frozenset({1, 2}))

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 6, 1, 10, 0, tzinfo=UTC)


def buy(user, code, key="k", now=NOON):
    return services.product_purchase(
        user=user, product=Product.objects.get(code=code), idempotency_key=key, now=now
    )


def test_a_new_user_gets_the_signup_bonus_once(player, coins_of, xp_of):
    assert coins_of(player) == 1000
    assert xp_of(player) == 0
    again = services.signup_bonus_grant(user=player)
    assert again.replayed
    assert coins_of(player) == 1000
    assert Transaction.objects.filter(kind=TransactionKind.SIGNUP_BONUS).count() == 1


def test_the_signup_bonus_follows_the_setting(make_user, settings, coins_of):
    settings.ECONOMY_SIGNUP_BONUS = 250
    assert coins_of(make_user("luis")) == 250


def test_a_purchase_moves_the_price_to_the_shop_and_starts_the_booster(player, coins_of):
    txn = buy(player, "booster-1h")
    assert coins_of(player) == 850
    assert txn.kind == TransactionKind.PURCHASE and txn.product.code == "booster-1h"
    assert Perk.objects.get(user=player).ends_at == NOON + timedelta(hours=1)
    assert ledger_audit().violations == []


def test_buying_an_active_product_extends_it_from_its_end(player):
    services.ledger_grant(user=player, amount=1000, idempotency_key="gift")
    buy(player, "booster-1h", key="a")
    buy(player, "booster-24h", key="b", now=NOON + timedelta(minutes=30))
    assert Perk.objects.get(user=player).ends_at == NOON + timedelta(hours=25)


def test_buying_an_expired_product_starts_from_now(player):
    buy(player, "booster-1h", key="a")
    later = NOON + timedelta(hours=5)
    buy(player, "booster-1h", key="b", now=later)
    assert Perk.objects.get(user=player).ends_at == later + timedelta(hours=1)


def test_a_repeated_purchase_key_buys_once(player, coins_of):
    first = buy(player, "booster-1h", key="same")
    second = buy(player, "booster-1h", key="same")
    assert second.pk == first.pk and second.replayed
    assert coins_of(player) == 850
    assert Perk.objects.get(user=player).ends_at == NOON + timedelta(hours=1)


def test_a_purchase_the_balance_cannot_cover_changes_nothing(player, coins_of):
    with pytest.raises(InsufficientFunds):
        buy(player, "vip-30d")
    assert coins_of(player) == 1000
    assert not Perk.objects.exists()
    assert not Transaction.objects.filter(kind=TransactionKind.PURCHASE).exists()


def test_a_switched_off_product_cannot_be_bought(player, coins_of):
    Product.objects.filter(code="booster-1h").update(active=False)
    with pytest.raises(ProductUnavailable):
        buy(player, "booster-1h")
    assert coins_of(player) == 1000


def test_the_price_is_read_from_the_product_row(player, coins_of):
    Product.objects.filter(code="booster-1h").update(price=999)
    buy(player, "booster-1h")
    assert coins_of(player) == 1


def test_a_key_reused_for_another_kind_is_refused(player, coins_of):
    services.ledger_grant(user=player, amount=5, idempotency_key=f"purchase:{player.pk}:x")
    with pytest.raises(IdempotencyKeyConflict):
        buy(player, "booster-1h", key="x")
    assert coins_of(player) == 1005


@pytest.mark.parametrize("amount", [0, -5, 1.5, "10", True])
def test_a_grant_of_a_bad_amount_is_refused(player, amount):
    with pytest.raises(InvalidAmount):
        services.ledger_grant(user=player, amount=amount, idempotency_key="g")


# --- Daily bonus ---


def test_the_daily_bonus_is_paid_once_per_madrid_day(player, coins_of):
    first = services.daily_bonus_claim(user=player, now=NOON)
    second = services.daily_bonus_claim(user=player, now=NOON + timedelta(hours=3))
    assert not first.replayed and second.replayed
    assert coins_of(player) == 1050


def test_a_vip_gets_the_vip_daily_bonus(player, coins_of):
    services.ledger_grant(user=player, amount=5000, idempotency_key="gift")
    buy(player, "vip-30d")
    services.daily_bonus_claim(user=player, now=NOON + timedelta(minutes=1))
    assert coins_of(player) == 1000 + 5000 - 5000 + 150


def test_the_daily_bonus_resets_at_midnight_madrid_across_the_dst_change(player, coins_of):
    # 2026-10-25: Madrid leaves summer time at 03:00 CEST -> 02:00 CET.
    # Saturday 24 Oct 23:59:59 CEST = 21:59:59 UTC; Sunday 25 starts at 22:00 UTC.
    saturday_last_second = datetime(2026, 10, 24, 21, 59, 59, tzinfo=UTC)
    sunday_midnight = datetime(2026, 10, 24, 22, 0, 0, tzinfo=UTC)
    # Sunday lasts 25 hours: Monday 26 starts at 23:00 UTC on the 25th.
    sunday_last_second = datetime(2026, 10, 25, 22, 59, 59, tzinfo=UTC)
    monday_midnight = datetime(2026, 10, 25, 23, 0, 0, tzinfo=UTC)
    assert not services.daily_bonus_claim(user=player, now=saturday_last_second).replayed
    assert not services.daily_bonus_claim(user=player, now=sunday_midnight).replayed
    assert services.daily_bonus_claim(user=player, now=sunday_last_second).replayed
    assert not services.daily_bonus_claim(user=player, now=monday_midnight).replayed
    assert coins_of(player) == 1000 + 3 * 50


def test_the_daily_bonus_resets_at_midnight_madrid_into_summer_time(player):
    # 2026-03-29: 02:00 CET -> 03:00 CEST; Monday 30 starts at 22:00 UTC on the 29th.
    services.daily_bonus_claim(user=player, now=datetime(2026, 3, 29, 21, 59, 59, tzinfo=UTC))
    assert not services.daily_bonus_claim(
        user=player, now=datetime(2026, 3, 29, 22, 0, 0, tzinfo=UTC)
    ).replayed


# --- Match rewards ---


def seats(*users):
    return [Placement(user=u, place=i + 1) for i, u in enumerate(users)]


def test_online_pays_every_place(make_user, coins_of, xp_of):
    a, b, c, d = (make_user(n) for n in ("a1", "b1", "c1", "d1"))
    result = services.match_reward(match_id=1, label="online", placements=seats(a, b, c, d))
    assert result.by_user == {a.pk: (60, 40), b.pk: (40, 30), c.pk: (20, 20), d.pk: (10, 10)}
    assert [coins_of(u) - 1000 for u in (a, b, c, d)] == [60, 40, 20, 10]
    assert [xp_of(u) for u in (a, b, c, d)] == [40, 30, 20, 10]
    assert result.transaction.match_id == 1


def test_a_half_rate_for_places_1_and_2_pays_the_winning_pair_at_half_rate(make_user, coins_of):
    a, b, c, d = (make_user(n) for n in ("a1", "b1", "c1", "d1"))
    result = services.match_reward(
        match_id=2, label="friends", rate=FRIENDS_RATE, placements=seats(a, b, c, d)
    )
    assert result.by_user == {a.pk: (30, 20), b.pk: (20, 15)}
    assert coins_of(c) == coins_of(d) == 1000


def test_a_rate_that_pays_no_place_pays_nothing(player):
    result = services.match_reward(
        match_id=3,
        label="practice",
        rate=RewardRate(places=frozenset()),
        placements=seats(player, None, None, None),
    )
    assert result.transaction is None and result.by_user == {}


def test_a_rate_without_coins_pays_xp_only(make_user, coins_of, xp_of):
    a, b = make_user("a1"), make_user("b1")
    services.match_reward(
        match_id=4, label="stake", rate=RewardRate(coins=Fraction(0)), placements=seats(a, b)
    )
    assert (coins_of(a), xp_of(a)) == (1000, 40)


def test_bots_and_abandoners_earn_nothing(player, stranger, coins_of):
    placements = [
        Placement(user=None, place=1),
        Placement(user=player, place=2, abandoned=True),
        Placement(user=stranger, place=3),
        Placement(user=None, place=4),
    ]
    result = services.match_reward(match_id=5, label="online", placements=placements)
    assert result.by_user == {stranger.pk: (20, 20)}
    assert coins_of(player) == 1000


def test_booster_and_vip_multiply_together_and_round_down_once(player, coins_of, xp_of):
    services.ledger_grant(user=player, amount=10_000, idempotency_key="gift")
    buy(player, "booster-24h", key="b")
    buy(player, "vip-30d", key="v")
    before = coins_of(player)
    # Friends place 2: 40 coins / 30 XP halved to 20 / 15, then x2 x1.5 = x3.
    result = services.match_reward(
        match_id=7,
        label="friends",
        rate=FRIENDS_RATE,
        placements=[Placement(player, 2)],
        now=NOON + timedelta(hours=1),
    )
    assert result.by_user == {player.pk: (60, 45)}
    assert coins_of(player) - before == 60 and xp_of(player) == 45


def test_vip_alone_rounds_down(player):
    services.ledger_grant(user=player, amount=10_000, idempotency_key="gift")
    buy(player, "vip-30d")
    # Friends place 2 XP: 30 halved = 15, x1.5 = 22.5 -> 22.
    result = services.match_reward(
        match_id=8,
        label="friends",
        rate=FRIENDS_RATE,
        placements=[Placement(player, 2)],
        now=NOON,
    )
    assert result.by_user == {player.pk: (30, 22)}


def test_a_booster_stops_at_the_exact_second_it_ends(player):
    buy(player, "booster-1h")
    end = NOON + timedelta(hours=1)
    just_before = services.match_reward(
        match_id=9,
        label="online",
        placements=[Placement(player, 4)],
        now=end - timedelta(microseconds=1),
    )
    at_the_end = services.match_reward(
        match_id=10, label="online", placements=[Placement(player, 4)], now=end
    )
    assert just_before.by_user == {player.pk: (20, 20)}
    assert at_the_end.by_user == {player.pk: (10, 10)}


def test_a_match_rewarded_twice_pays_once(make_user, coins_of):
    a, b = make_user("a1"), make_user("b1")
    first = services.match_reward(match_id=11, label="online", placements=seats(a, b))
    second = services.match_reward(match_id=11, label="online", placements=seats(a, b))
    assert second.replayed and second.transaction.pk == first.transaction.pk
    assert second.by_user == first.by_user
    assert coins_of(a) == 1060


# --- Stakes ---


def test_a_pot_is_shared_equally_and_settles_the_escrow(make_user, coins_of):
    a, b, c, d = (make_user(n) for n in ("a1", "b1", "c1", "d1"))
    for user in (a, b, c, d):
        services.stake_place(user=user, table_id=70, amount=250)
    services.pot_pay_out(table_id=70, winners=[a, b], match_id=12)
    assert [coins_of(u) for u in (a, b, c, d)] == [1250, 1250, 750, 750]
    with pytest.raises(EscrowSettled):
        services.stake_place(user=make_user("e1"), table_id=70, amount=250)
    assert services.pot_pay_out(table_id=70, winners=[a, b]).replayed
    assert ledger_audit().violations == []


def test_a_pot_is_not_multiplied_by_boosters(make_user, coins_of):
    a, b = make_user("a1"), make_user("b1")
    buy(a, "booster-1h", now=datetime.now(UTC))
    services.stake_place(user=a, table_id=71, amount=100)
    services.stake_place(user=b, table_id=71, amount=100)
    services.pot_pay_out(table_id=71, winners=[a])
    assert coins_of(a) == 1000 - 150 - 100 + 200


def test_the_partner_of_an_abandoner_takes_the_whole_share(make_user, coins_of):
    users = [make_user(n) for n in ("a1", "b1", "c1", "d1")]
    for user in users:
        services.stake_place(user=user, table_id=72, amount=100)
    services.pot_pay_out(table_id=72, winners=[users[1]])
    assert coins_of(users[1]) == 1300


def test_a_stake_larger_than_the_balance_is_refused(player, coins_of):
    with pytest.raises(InsufficientFunds):
        services.stake_place(user=player, table_id=73, amount=1001)
    assert coins_of(player) == 1000


def test_a_player_who_leaves_gets_their_stake_back_once(player, stranger, coins_of):
    services.stake_place(user=player, table_id=74, amount=500)
    services.stake_place(user=stranger, table_id=74, amount=500)
    services.stake_refund(table_id=74, user=player)
    assert services.stake_refund(table_id=74, user=player).replayed
    assert coins_of(player) == 1000 and coins_of(stranger) == 500


def test_a_cancelled_table_refunds_everyone_and_settles(player, stranger, coins_of):
    services.stake_place(user=player, table_id=75, amount=100)
    services.stake_place(user=stranger, table_id=75, amount=1000)
    services.stake_refund(table_id=75)
    assert coins_of(player) == coins_of(stranger) == 1000
    with pytest.raises(EscrowSettled):
        services.pot_pay_out(table_id=75, winners=[player])
    assert ledger_audit().violations == []


def test_refunding_someone_who_never_staked_is_refused(player):
    with pytest.raises(NothingToRefund):
        services.stake_refund(table_id=76, user=player)


def test_an_empty_pot_cannot_be_paid(player):
    with pytest.raises(NothingToPay):
        services.pot_pay_out(table_id=77, winners=[player])


# --- Staff adjustments ---


def test_a_staff_adjustment_records_the_reason_and_the_staff_user(player, staff_user, coins_of):
    txn = services.balance_adjust(
        staff_user=staff_user, user=player, amount=-300, reason="refund abuse", idempotency_key="1"
    )
    assert coins_of(player) == 700
    assert txn.memo == "refund abuse" and txn.staff_user == staff_user


def test_an_adjustment_needs_a_reason(player, staff_user):
    with pytest.raises(ReasonRequired):
        services.balance_adjust(
            staff_user=staff_user, user=player, amount=5, reason="  ", idempotency_key="1"
        )


def test_only_staff_may_adjust(player, stranger):
    with pytest.raises(NotStaff):
        services.balance_adjust(
            staff_user=stranger, user=player, amount=5, reason="why not", idempotency_key="1"
        )


def test_staff_without_the_adjustment_permission_may_not_adjust(player, make_user, coins_of):
    moderator = make_user("mod_ana", is_staff=True)
    with pytest.raises(NotStaff):
        services.balance_adjust(
            staff_user=moderator, user=player, amount=5, reason="why not", idempotency_key="1"
        )
    assert coins_of(player) == 1000


def test_an_adjustment_cannot_make_a_balance_negative(player, staff_user, coins_of):
    with pytest.raises(InsufficientFunds):
        services.balance_adjust(
            staff_user=staff_user, user=player, amount=-1001, reason="x", idempotency_key="1"
        )
    assert coins_of(player) == 1000


def test_a_failure_mid_operation_writes_nothing(player, coins_of, monkeypatch):
    def crash(point):
        if point == "after-entries":
            raise RuntimeError("power cut")

    monkeypatch.setattr(services.ledger, "fault", crash)
    with pytest.raises(RuntimeError), transaction.atomic():
        buy(player, "booster-1h")
    assert coins_of(player) == 1000
    assert not Perk.objects.exists()
    assert not Transaction.objects.filter(kind=TransactionKind.PURCHASE).exists()


# --- Idempotency keys reused with other parameters (Stripe-style) ---


def test_a_grant_key_reused_for_another_user_and_amount_is_refused_and_writes_nothing(
    player, stranger, coins_of
):
    first = services.ledger_grant(user=player, amount=5, idempotency_key="K")
    with pytest.raises(IdempotencyKeyConflict) as refused:
        services.ledger_grant(user=stranger, amount=500, idempotency_key="K")
    assert refused.value.key == "K"
    assert refused.value.message == str(IdempotencyKeyConflict.default_message)
    assert (coins_of(player), coins_of(stranger)) == (1005, 1000)
    assert Transaction.objects.get(idempotency_key="K").pk == first.pk
    assert ledger_audit().violations == []


def test_a_grant_key_reused_with_the_same_parameters_replays(player, coins_of):
    first = services.ledger_grant(user=player, amount=5, idempotency_key="K", memo="a")
    again = services.ledger_grant(user=player, amount=5, idempotency_key="K", memo="b")
    assert again.pk == first.pk and again.replayed
    assert coins_of(player) == 1005


def test_a_grant_key_reused_for_the_other_currency_is_refused(player, xp_of):
    services.ledger_grant(user=player, amount=5, idempotency_key="K")
    with pytest.raises(IdempotencyKeyConflict):
        services.ledger_grant(user=player, amount=5, idempotency_key="K", currency="xp")
    assert xp_of(player) == 0


def test_a_pot_paid_out_again_with_other_winners_is_refused(make_user, coins_of):
    a, b, c, d = (make_user(n) for n in ("pa", "pb", "pc", "pd"))
    for user in (a, b, c, d):
        services.stake_place(user=user, table_id=7, amount=100)
    services.pot_pay_out(table_id=7, winners=[a, b], match_id=70)
    with pytest.raises(IdempotencyKeyConflict):
        services.pot_pay_out(table_id=7, winners=[c, d], match_id=70)
    assert [coins_of(u) for u in (a, b, c, d)] == [1100, 1100, 900, 900]
    redelivered = services.pot_pay_out(table_id=7, winners=[a, b], match_id=70)
    assert redelivered.replayed
    assert ledger_audit().violations == []


def test_a_match_reward_redelivered_with_other_places_is_refused(make_user, coins_of):
    a, b, c, d = (make_user(n) for n in ("ma", "mb", "mc", "md"))
    placements = [Placement(u, i + 1) for i, u in enumerate((a, b, c, d))]
    services.match_reward(match_id=8, label="online", placements=placements)
    swapped = [Placement(u, i + 1) for i, u in enumerate((d, c, b, a))]
    with pytest.raises(IdempotencyKeyConflict):
        services.match_reward(match_id=8, label="online", placements=swapped)
    assert services.match_reward(match_id=8, label="online", placements=placements).replayed
    assert (coins_of(a), coins_of(d)) == (1060, 1010)


def test_a_stake_key_reused_with_another_amount_is_refused(player, coins_of):
    services.stake_place(user=player, table_id=9, amount=100, idempotency_key="s")
    with pytest.raises(IdempotencyKeyConflict):
        services.stake_place(user=player, table_id=9, amount=250, idempotency_key="s")
    assert coins_of(player) == 900


def test_a_purchase_key_reused_for_another_product_is_refused(player, coins_of):
    buy(player, "booster-1h", key="same")
    with pytest.raises(IdempotencyKeyConflict):
        buy(player, "booster-24h", key="same")
    assert coins_of(player) == 850
    assert Perk.objects.get(user=player).ends_at == NOON + timedelta(hours=1)


def test_an_adjustment_key_reused_with_another_amount_is_refused(staff_user, player, coins_of):
    adjust = dict(staff_user=staff_user, user=player, reason="typo", idempotency_key="form-1")
    services.balance_adjust(amount=10, **adjust)
    with pytest.raises(IdempotencyKeyConflict):
        services.balance_adjust(amount=-10, **adjust)
    assert coins_of(player) == 1010


def test_the_daily_bonus_replays_after_a_vip_pass_is_bought_the_same_day(player, coins_of):
    services.daily_bonus_claim(user=player, now=NOON)
    services.ledger_grant(user=player, amount=5000, idempotency_key="gift")
    buy(player, "vip-30d")
    again = services.daily_bonus_claim(user=player, now=NOON + timedelta(minutes=5))
    assert again.replayed
    assert coins_of(player) == 1050


def test_the_fingerprint_is_stored_with_the_key(player):
    txn = services.ledger_grant(user=player, amount=5, idempotency_key="K")
    stored = Transaction.objects.get(pk=txn.pk).fingerprint
    assert stored and len(stored) == 64
    assert services.ledger_grant(user=player, amount=6, idempotency_key="K2").fingerprint != stored

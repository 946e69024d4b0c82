"""The ledger's reads, the services' own included (economy/selectors.py)."""

from datetime import UTC, datetime, timedelta
from fractions import Fraction

import pytest

from economy import selectors, services
from economy.models import Effect, Product

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 6, 1, 10, 0, tzinfo=UTC)


def buy(user, code, key="k", now=NOON):
    return services.product_purchase(
        user=user, product=Product.objects.get(code=code), idempotency_key=key, now=now
    )


def test_a_perk_runs_from_its_purchase_up_to_not_including_its_end(player):
    buy(player, "booster-1h")
    assert selectors.perk_active(user=player, effect=Effect.BOOSTER, now=NOON)
    end = NOON + timedelta(hours=1)
    assert selectors.perk_active(user=player, effect=Effect.BOOSTER, now=end - timedelta(seconds=1))
    assert not selectors.perk_active(user=player, effect=Effect.BOOSTER, now=end)
    assert not selectors.perk_active(user=player, effect=Effect.VIP, now=NOON)


def test_the_reward_multiplier_multiplies_the_running_perks(player, settings):
    assert selectors.reward_multiplier(user=player, now=NOON) == 1
    buy(player, "booster-1h", key="a")
    assert selectors.reward_multiplier(user=player, now=NOON) == 2
    services.ledger_grant(user=player, amount=5000, idempotency_key="for-the-vip-pass")
    buy(player, "vip-30d", key="b")
    assert selectors.reward_multiplier(user=player, now=NOON) == 3
    later = NOON + timedelta(hours=2)  # the booster is over, the VIP pass runs
    assert selectors.reward_multiplier(user=player, now=later) == Fraction(3, 2)
    settings.ECONOMY_VIP_MULTIPLIER = "1.25"
    assert selectors.perks_multiplier({Effect.VIP}) == Fraction(5, 4)


def test_what_a_match_reward_paid_is_read_back_from_its_entries(player, stranger):
    paid = services.match_reward(
        match_id=7,
        label="online",
        placements=[services.Placement(player, 1), services.Placement(stranger, 4)],
        now=NOON,
    )
    assert (
        selectors.match_rewards_paid(paid.transaction)
        == paid.by_user
        == {
            player.pk: (60, 40),
            stranger.pk: (10, 10),
        }
    )


def test_the_stakes_in_an_escrow_are_each_players_stakes_less_refunds(player, stranger):
    services.stake_place(user=player, table_id=3, amount=100)
    services.stake_place(user=stranger, table_id=3, amount=100)
    services.stake_place(user=stranger, table_id=4, amount=250)  # another table
    services.stake_refund(table_id=3, user=stranger)
    found = selectors.escrow_stakes(table_id=3)
    assert list(found.values()) == [100] and len(found) == 1


def test_the_bonus_day_is_the_calendar_day_in_madrid(settings):
    settings.ECONOMY_DAY_TIME_ZONE = "Europe/Madrid"
    assert selectors.bonus_day(datetime(2026, 6, 1, 21, 59, tzinfo=UTC)) == "2026-06-01"
    assert selectors.bonus_day(datetime(2026, 6, 1, 22, 0, tzinfo=UTC)) == "2026-06-02"


def test_what_each_player_came_away_with_from_stake_tables(make_user):
    ana, bea, carlos, dani = (make_user(n) for n in ("sa", "sb", "sc", "sd"))
    for user in (ana, bea, carlos, dani):
        services.ledger_grant(user=user, amount=1000, idempotency_key=f"t:{user.pk}")
    for user in (ana, bea, carlos, dani):
        services.stake_place(user=user, table_id=70, amount=250)
    services.pot_pay_out(table_id=70, winners=[ana, carlos])
    # A table not full in time: stakes back, nobody won or lost.
    services.stake_place(user=bea, table_id=71, amount=100)
    services.stake_refund(table_id=71)
    nets = selectors.stake_nets(table_ids=[70, 71, 72])
    assert nets[70] == {ana.pk: 250, carlos.pk: 250, bea.pk: -250, dani.pk: -250}
    assert nets[71] == {bea.pk: 0}
    assert 72 not in nets
    assert selectors.stake_nets(table_ids=[]) == {}

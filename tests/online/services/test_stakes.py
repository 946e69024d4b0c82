"""Stake tables through the services: opening, sitting, leaving, cancelling, bad inputs."""

from __future__ import annotations

import pytest

from economy.services import stake_place
from games import services as games
from games.models import Match, Mode, RuleSetName, Seat, SeatKind, Table, TableStatus
from online import errors as err
from online import services
from online.models import QueueEntry, StakeSitting, StakeTable
from tests.online.conftest import escrow_balance

pytestmark = pytest.mark.django_db


def test_opening_a_stake_table_seats_the_opener_and_escrows_the_stake(player, coins_of, clock):
    table = services.stake_table_open(user=player, stake=250, now=clock())
    assert table.mode == Mode.STAKE and table.status == TableStatus.OPEN
    assert StakeTable.objects.get(table=table).stake == 250
    assert Seat.objects.get(table=table, user=player).live
    assert coins_of(player) == 750
    assert escrow_balance(table.pk) == 250


@pytest.mark.parametrize("stake", [0, 99, 101, -100, "cien", None, "", True, 10**30, 2000])
def test_an_unknown_stake_amount_is_refused_and_nothing_changes(player, coins_of, stake):
    with pytest.raises(err.UnknownStake):
        services.stake_table_open(user=player, stake=stake)
    assert not Table.objects.exists()
    assert coins_of(player) == 1000


def test_the_stake_amounts_are_a_setting(player, settings):
    settings.STAKE_AMOUNTS = (5,)
    assert (
        StakeTable.objects.get(table=services.stake_table_open(user=player, stake="5")).stake == 5
    )
    with pytest.raises(err.UnknownStake):
        services.stake_table_open(user=player, stake=100)


def test_a_short_balance_is_refused_clearly_and_nothing_changes(players, coins_of, clock):
    opener, poor = players(2)
    table = services.stake_table_open(user=opener, stake=1000, now=clock())
    stake_place(user=poor, table_id=999_999, amount=500)  # poor now has 500 left
    with pytest.raises(err.ShortBalance) as caught:
        services.stake_table_sit(user=poor, table_id=table.pk, now=clock())
    assert caught.value.code == "short_balance" and caught.value.message
    assert coins_of(poor) == 500
    assert not Seat.objects.filter(table=table, user=poor).exists()
    assert not StakeSitting.objects.filter(user=poor).exists()
    assert escrow_balance(table.pk) == 1000


def test_opening_with_a_short_balance_leaves_no_table(player, coins_of):
    stake_place(user=player, table_id=999_999, amount=950)
    with pytest.raises(err.ShortBalance):
        services.stake_table_open(user=player, stake=100)
    assert not Table.objects.exists()
    assert coins_of(player) == 50


def test_the_fourth_player_starts_the_match_with_four_stakes_in_the_pot(players, clock):
    cast = players(4)
    table = services.stake_table_open(user=cast[0], stake=100, now=clock())
    for user in cast[1:]:
        services.stake_table_sit(user=user, table_id=table.pk, now=clock())
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING
    assert Match.objects.filter(table=table).count() == 1
    assert escrow_balance(table.pk) == 400
    assert all(s.kind == SeatKind.HUMAN for s in Seat.objects.filter(table=table))


def test_sitting_twice_at_the_same_table_is_refused(players, coins_of, clock):
    opener, other = players(2)
    table = services.stake_table_open(user=opener, stake=100, now=clock())
    services.stake_table_sit(user=other, table_id=table.pk, now=clock())
    with pytest.raises(err.AlreadySeatedHere):
        services.stake_table_sit(user=other, table_id=table.pk, now=clock())
    assert coins_of(other) == 900
    assert escrow_balance(table.pk) == 200


def test_sitting_while_at_another_live_table_is_refused(players, coins_of, clock):
    a, b = players(2)
    first = services.stake_table_open(user=a, stake=100, now=clock())
    second = services.stake_table_open(user=b, stake=100, now=clock())
    with pytest.raises(err.AlreadyAtTable):
        services.stake_table_sit(user=a, table_id=second.pk, now=clock())
    assert coins_of(a) == 900
    assert escrow_balance(second.pk) == 100 and escrow_balance(first.pk) == 100


def test_opening_while_at_a_live_table_is_refused(player, coins_of):
    games.table_create_practice(user=player, rules=RuleSetName.ONLINE, bot_level="easy")
    with pytest.raises(err.AlreadyAtTable):
        services.stake_table_open(user=player, stake=100)
    assert coins_of(player) == 1000


def test_sitting_down_takes_the_player_out_of_the_queue(players, clock):
    opener, queued = players(2)
    services.queue_join(user=queued, now=clock())
    table = services.stake_table_open(user=opener, stake=100, now=clock())
    services.stake_table_sit(user=queued, table_id=table.pk, now=clock())
    assert not QueueEntry.objects.exists()


@pytest.mark.parametrize("table_id", ["0", "999999", "abc", None, -1, 10**40])
def test_a_bad_table_id_is_refused(player, table_id):
    with pytest.raises(err.StakeTableNotFound):
        services.stake_table_sit(user=player, table_id=table_id)
    with pytest.raises(err.StakeTableNotFound):
        services.stake_table_leave(user=player, table_id=table_id)


def test_a_table_that_is_not_a_stake_table_is_not_found(players):
    a, b = players(2)
    practice = games.table_create_practice(user=a, rules=RuleSetName.ONLINE, bot_level="easy")
    with pytest.raises(err.StakeTableNotFound):
        services.stake_table_sit(user=b, table_id=practice.pk)


def test_leaving_before_the_start_refunds_the_stake(players, coins_of, clock):
    opener, other = players(2)
    table = services.stake_table_open(user=opener, stake=500, now=clock())
    services.stake_table_sit(user=other, table_id=table.pk, now=clock())
    services.stake_table_leave(user=other, table_id=table.pk, now=clock())
    assert coins_of(other) == 1000
    assert escrow_balance(table.pk) == 500
    assert not Seat.objects.filter(user=other, live=True).exists()
    table.refresh_from_db()
    assert table.status == TableStatus.OPEN


def test_sitting_again_after_leaving_stakes_again_and_refunds_again(players, coins_of, clock):
    opener, other = players(2)
    table = services.stake_table_open(user=opener, stake=100, now=clock())
    for _ in range(2):
        services.stake_table_sit(user=other, table_id=table.pk, now=clock())
        assert coins_of(other) == 900
        services.stake_table_leave(user=other, table_id=table.pk, now=clock())
        assert coins_of(other) == 1000
    assert escrow_balance(table.pk) == 100


def test_the_last_player_leaving_cancels_the_table(player, coins_of, clock):
    table = services.stake_table_open(user=player, stake=100, now=clock())
    services.stake_table_leave(user=player, table_id=table.pk, now=clock())
    table.refresh_from_db()
    assert table.status == TableStatus.CANCELLED
    assert coins_of(player) == 1000
    assert escrow_balance(table.pk) == 0


def test_leaving_a_table_you_are_not_at_is_refused(players, coins_of, clock):
    opener, stranger = players(2)
    table = services.stake_table_open(user=opener, stake=100, now=clock())
    with pytest.raises(err.NotSeatedHere):
        services.stake_table_leave(user=stranger, table_id=table.pk, now=clock())
    assert escrow_balance(table.pk) == 100 and coins_of(opener) == 900


def test_the_games_leave_service_also_refunds_at_a_stake_table(players, coins_of, clock):
    opener, other = players(2)
    table = services.stake_table_open(user=opener, stake=100, now=clock())
    services.stake_table_sit(user=other, table_id=table.pk, now=clock())
    games.seat_leave(user=opener, table_id=table.pk)
    assert coins_of(opener) == 1000
    table.refresh_from_db()
    assert table.status == TableStatus.OPEN  # the opener leaving does not close it


def test_a_table_not_full_in_time_is_cancelled_and_every_stake_refunded_once(
    players, coins_of, clock
):
    cast = players(3)
    table = services.stake_table_open(user=cast[0], stake=250, now=clock())
    for user in cast[1:]:
        services.stake_table_sit(user=user, table_id=table.pk, now=clock())
    assert services.stake_tables_sweep(now=clock.advance(119)) == 0
    assert services.stake_tables_sweep(now=clock.advance(1)) == 1
    assert services.stake_tables_sweep(now=clock.advance(1)) == 0
    assert services.stake_table_cancel(table_id=table.pk, now=clock()) is False
    table.refresh_from_db()
    assert table.status == TableStatus.CANCELLED
    assert [coins_of(u) for u in cast] == [1000, 1000, 1000]
    assert escrow_balance(table.pk) == 0
    assert not Seat.objects.filter(table=table, live=True).exists()


def test_sitting_at_a_table_past_its_fill_time_is_refused(players, coins_of, clock):
    opener, late = players(2)
    table = services.stake_table_open(user=opener, stake=100, now=clock())
    with pytest.raises(err.StakeTableClosed):
        services.stake_table_sit(user=late, table_id=table.pk, now=clock.advance(120))
    assert coins_of(late) == 1000


def test_sitting_at_a_started_or_cancelled_table_is_refused(players, coins_of, clock):
    cast = players(5)
    table = services.stake_table_open(user=cast[0], stake=100, now=clock())
    for user in cast[1:4]:
        services.stake_table_sit(user=user, table_id=table.pk, now=clock())
    with pytest.raises(err.StakeTableClosed):
        services.stake_table_sit(user=cast[4], table_id=table.pk, now=clock())
    assert coins_of(cast[4]) == 1000


def test_the_fill_time_is_a_setting(player, clock, settings):
    settings.STAKE_FILL_SECONDS = 10
    table = services.stake_table_open(user=player, stake=100, now=clock())
    assert services.stake_tables_sweep(now=clock.advance(10)) == 1
    table.refresh_from_db()
    assert table.status == TableStatus.CANCELLED

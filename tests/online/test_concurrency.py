"""Real races on PostgreSQL: many threads, one database, the locks decide."""

from __future__ import annotations

from collections import Counter
from datetime import timedelta

import pytest
from django.core.management import call_command

from games.models import Seat, Table, TableStatus
from online import errors as err
from online import services
from online.models import QueueEntry
from tests.online.conftest import escrow_balance
from tests.threads import run_together

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def test_twenty_players_race_for_one_stake_table_and_exactly_four_sit(players, coins_of):
    cast = players(21)
    table = services.stake_table_open(user=cast[0], stake=500)
    racers = cast[1:]
    results = run_together(
        len(racers), lambda i: services.stake_table_sit(user=racers[i], table_id=table.pk)
    )
    seated = [u for u, r in zip(racers, results, strict=True) if isinstance(r, Table)]
    refused = [r for r in results if not isinstance(r, Table)]
    assert len(seated) == 3
    assert all(isinstance(r, (err.StakeTableClosed, err.StakeTableFull)) for r in refused)
    humans = Seat.objects.filter(table=table, kind="human")
    assert {s.user_id for s in humans} == {cast[0].pk, *(u.pk for u in seated)}
    assert escrow_balance(table.pk) == 4 * 500
    assert sorted(coins_of(u) for u in racers) == [500] * 3 + [1000] * 17
    table.refresh_from_db()
    assert table.status == TableStatus.PLAYING
    call_command("audit_ledger")


def test_cancellation_racing_a_late_sit_refunds_or_seats_each_stake_exactly_once(
    players, coins_of, clock
):
    for round_no in range(6):
        cast = players(4, prefix=f"r{round_no}-")
        opened = clock()
        table = services.stake_table_open(user=cast[0], stake=100, now=opened)
        services.stake_table_sit(user=cast[1], table_id=table.pk, now=opened)
        deadline = clock.advance(120)
        almost = deadline - timedelta(milliseconds=1)

        def work(i, table=table, cast=cast, almost=almost, deadline=deadline):
            if i == 0:
                return services.stake_table_cancel(table_id=table.pk, now=deadline)
            return services.stake_table_sit(user=cast[1 + i], table_id=table.pk, now=almost)

        results = run_together(3, work)
        table.refresh_from_db()
        assert table.status == TableStatus.CANCELLED or results[0] is False
        for user, result in zip(cast[2:], results[1:], strict=True):
            sat = isinstance(result, Table)
            seated_now = Seat.objects.filter(table=table, user=user, live=True).exists()
            if table.status == TableStatus.CANCELLED:
                # Refunded, whether they sat before the cancel or were refused after it.
                assert coins_of(user) == 1000 and not seated_now
                assert sat or isinstance(result, err.StakeTableClosed)
            else:
                assert sat and seated_now and coins_of(user) == 900
        if table.status == TableStatus.CANCELLED:
            assert escrow_balance(table.pk) == 0
            assert [coins_of(u) for u in cast[:2]] == [1000, 1000]
        else:
            assert escrow_balance(table.pk) == 400
        clock.advance(1)
    call_command("audit_ledger")


def test_nine_players_arriving_together_make_two_tables_and_one_waits(players):
    cast = players(9)
    run_together(9, lambda i: services.queue_join(user=cast[i]))
    services.queue_match()  # the periodic pass, in case two passes split a group
    seats = Seat.objects.filter(table__mode="online", kind="human")
    counts = Counter(seats.values_list("user_id", flat=True))
    assert Table.objects.filter(mode="online").count() == 2
    assert len(counts) == 8 and set(counts.values()) == {1}
    waiting = list(QueueEntry.objects.values_list("user_id", flat=True))
    assert len(waiting) == 1 and waiting[0] not in counts
    assert {u.pk for u in cast} == set(counts) | set(waiting)


def test_matchmaking_passes_racing_each_other_never_seat_anyone_twice(players):
    cast = players(24)
    for user in cast:
        QueueEntry.objects.create(user=user, joined_at=_now())
    results = run_together(6, lambda i: services.queue_match())
    assert not any(isinstance(r, Exception) for r in results), results
    assert sum(len(r) for r in results) == 6
    counts = Counter(
        Seat.objects.filter(table__mode="online", kind="human").values_list("user_id", flat=True)
    )
    assert len(counts) == 24 and set(counts.values()) == {1}
    assert not QueueEntry.objects.exists()


def test_leaving_the_queue_while_being_matched_is_one_or_the_other(players):
    for round_no in range(5):
        cast = players(4, prefix=f"l{round_no}-")
        for user in cast:
            QueueEntry.objects.create(user=user, joined_at=_now())

        def work(i, cast=cast):
            if i == 0:
                return services.queue_match()
            return services.queue_leave(user=cast[0])

        results = run_together(2, work)
        seated = Seat.objects.filter(user=cast[0], live=True).exists()
        left = results[1] is None
        assert seated != left, results
        assert not QueueEntry.objects.filter(user=cast[0]).exists()
        QueueEntry.objects.all().delete()


def _now():
    from django.utils import timezone

    return timezone.now()

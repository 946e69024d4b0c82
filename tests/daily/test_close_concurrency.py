"""Closing a day on real PostgreSQL with real threads: two beats at once, and a
redelivered task racing the first, pay each player's day once."""

from __future__ import annotations

from datetime import date
from unittest import mock

import pytest
from django.utils import timezone

from daily import services
from daily.models import DailyDay, DailyEntry, DayStatus
from economy.models import Currency, Transaction, TransactionKind
from economy.selectors import balances
from tests.daily.conftest import MADRID, results_day
from tests.threads import run_together

DAY = date(2026, 12, 5)
AFTER = timezone.datetime(2026, 12, 6, 0, 0, 1, tzinfo=MADRID)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_beats_at_once_close_each_day_and_pay_once(make_user, settings):
    settings.DAILY_PRIZE_COINS, settings.DAILY_FINISH_XP = 100, 25
    users = [make_user(f"p{i}") for i in range(12)]
    results_day(DAY, {u: [i % 5 - 2 or 1] * 6 for i, u in enumerate(users)})
    # A second day missed while beat was down: the racers meet on it too.
    results_day(DAY.replace(day=6), {u: [1 + i % 3] * 6 for i, u in enumerate(users[:7])})
    start = {u.pk: balances(u.pk)[Currency.COINS] for u in users}

    results = run_together(4, lambda _: services.days_close_due(now=AFTER.replace(day=7)))

    assert not [r for r in results if isinstance(r, Exception)], results
    fresh = [c for closings in results for c in closings if not c.replayed]
    assert sorted(c.day.date for c in fresh) == [DAY, DAY.replace(day=6)]
    assert not DailyDay.objects.filter(status=DayStatus.OPEN).exists()
    prizes = Transaction.objects.filter(kind=TransactionKind.DAILY_PRIZE)
    assert prizes.count() == 12 + 7
    for user in users:
        entries = DailyEntry.objects.filter(user=user)
        assert balances(user.pk)[Currency.XP] == 25 * entries.count()
        won = sum(e.prize_coins for e in entries)
        assert balances(user.pk)[Currency.COINS] - start[user.pk] == won
    # 12 players, a quota of 1 rank: the two tied first (results +2) share it.
    assert sum(e.prize_coins > 0 for e in DailyEntry.objects.filter(day__date=DAY)) == 2


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_redelivered_task_racing_the_first_pays_once(make_user, settings):
    from daily.tasks import close_due_days

    settings.DAILY_PRIZE_COINS, settings.DAILY_FINISH_XP = 100, 25
    users = [make_user(f"q{i}") for i in range(6)]
    results_day(DAY, {u: [i - 3 or 2] * 6 for i, u in enumerate(users)})

    # The same task delivered twice at once (acks late: a worker died before acking),
    # just after midnight.
    with mock.patch("django.utils.timezone.now", return_value=AFTER):
        results = run_together(2, lambda _: close_due_days.apply().get())
    assert sorted(results) == [0, 1]
    assert Transaction.objects.filter(kind=TransactionKind.DAILY_PRIZE).count() == 6
    assert sum(balances(u.pk)[Currency.XP] for u in users) == 6 * 25


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_finishing_a_deal_does_not_wait_on_the_day_row(player):
    """The standings and staff lock the day row; a player's last card must not queue
    behind them (nor take that row in the opposite order)."""
    import threading

    from django.db import connection, transaction

    from tests.daily.conftest import play_out

    table = services.daily_play(user=player)
    day_id = DailyDay.objects.get().pk
    held, release = threading.Event(), threading.Event()

    def hold_the_day() -> None:
        try:
            with transaction.atomic():
                DailyDay.objects.select_for_update().get(pk=day_id)
                held.set()
                release.wait(30)
        finally:
            connection.close()

    holder = threading.Thread(target=hold_the_day)
    holder.start()
    try:
        assert held.wait(30)
        with connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '3s'")
        try:
            play_out(player, table.pk)
        finally:
            with connection.cursor() as cursor:
                cursor.execute("SET lock_timeout = 0")
    finally:
        release.set()
        holder.join(30)
    assert DailyEntry.objects.get(user=player).deals_finished == 1

"""Two closers at the same instant (two workers, or beat and an admin) pay and move once."""

import threading
from datetime import timedelta

import pytest
from django.db import connection

from leagues.models import Division, LeagueStanding, LeagueWeek, WeekStatus
from leagues.services import league_weeks_close_due
from tests.leagues.conftest import MIDWEEK, NEXT_MONDAY, division_of, prize_coins

AFTER = NEXT_MONDAY + timedelta(seconds=1)


def run_together(count: int, work) -> list:
    barrier = threading.Barrier(count)
    results: list = [None] * count

    def target(index: int) -> None:
        try:
            barrier.wait()
            results[index] = work()
        except Exception as error:  # reported by the assertion below
            results[index] = error
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    return results


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_closers_at_the_same_instant_pay_and_move_once(players, record):
    from economy.models import Transaction, TransactionKind

    users = players(5, Division.SILVER)
    for user, points in zip(users, [50, 40, 30, 20, 10], strict=True):
        record(user, points)
    # A second missed week, so the racers also meet on the week after.
    for user, points in zip(users, [4, 8, 12, 16, 20], strict=True):
        record(user, points, when=MIDWEEK + timedelta(days=7))

    results = run_together(4, lambda: league_weeks_close_due(now=AFTER + timedelta(days=7)))

    assert not [r for r in results if isinstance(r, Exception)], results
    fresh = [c for closings in results for c in closings if not c.replayed]
    assert sorted(c.week.starts_at for c in fresh) == [NEXT_MONDAY - timedelta(days=7), NEXT_MONDAY]
    assert LeagueWeek.objects.filter(status=WeekStatus.CLOSED).count() == 2
    assert LeagueStanding.objects.count() == 10
    # Week 1 (Silver): 600/400/200, first up, last down. Week 2: the first alone in
    # Gold (900), three in Silver (600/400/200, one up), the last alone in Bronze (300).
    prizes = Transaction.objects.filter(kind=TransactionKind.LEAGUE_PRIZE)
    assert prizes.count() == 8
    assert [prize_coins(u) for u in users] == [600 + 900, 400 + 200, 200 + 400, 600, 300]
    assert [division_of(u) for u in users] == [4, 2, 2, 3, 2]

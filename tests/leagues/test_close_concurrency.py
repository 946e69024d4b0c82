"""Two closers at the same instant (two workers, or beat and an admin) pay and move once."""

import threading
from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection

from leagues.models import Division, LeagueStanding, LeagueWeek, WeekStatus
from leagues.services import league_weeks_close_due
from tests.leagues.conftest import MIDWEEK, NEXT_MONDAY, division_of, prize_coins
from tests.threads import run_together as run_indexed
from tests.threads import someone_waits_on_a_lock

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


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_records_racing_each_other_and_a_close_keep_totals_and_histogram_exact(players):
    from leagues.models import LeaguePoints, LeagueScore
    from leagues.services import league_points_record
    from tests.leagues.conftest import histogram_is_consistent

    users = players(6, Division.SILVER)
    for index, user in enumerate(users):
        league_points_record(
            user=user, match_id=index + 1, points=10 * (6 - index), finished_at=MIDWEEK
        )
    next_week = MIDWEEK + timedelta(days=7)
    jobs = []
    # Every user records three matches of the next week while last week closes.
    for index, user in enumerate(users):
        for match in range(3):
            match_id = 100 + index * 10 + match
            jobs.append(
                lambda user=user, match_id=match_id: league_points_record(
                    user=user, match_id=match_id, points=4, finished_at=next_week
                )
            )
    jobs.append(lambda: league_weeks_close_due(now=AFTER))
    jobs.append(lambda: league_weeks_close_due(now=AFTER))

    barrier = threading.Barrier(len(jobs))
    errors = []

    def target(job) -> None:
        try:
            barrier.wait()
            job()
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(job,)) for job in jobs]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)

    assert errors == []
    assert LeaguePoints.objects.count() == 6 + 18
    week = LeagueWeek.objects.get(starts_at=NEXT_MONDAY)
    scores = LeagueScore.objects.filter(week=week)
    assert sorted(scores.values_list("points", flat=True)) == [12] * 6
    # Each next-week score sits in its player's division after the close moved them.
    for score in scores:
        assert score.division == division_of(score.user)
    assert histogram_is_consistent()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_settlements_recording_several_players_at_once_never_deadlock(players):
    """A match settlement records its four players in one call, in seat order."""
    from leagues.services import LeagueResult, league_points_record, league_points_record_match
    from tests.leagues.conftest import histogram_is_consistent

    tables = [players(4, Division.GOLD, prefix=f"t{t}x") for t in range(6)]
    # Seat s of table t starts on a different total, so each settlement touches the
    # histogram's rows in its own rotation: 10, 40, 70, 100 / 40, 70, 100, 10 / …
    for t, seated in enumerate(tables):
        for s, user in enumerate(seated):
            league_points_record(
                user=user,
                match_id=1000 + t * 10 + s,
                points=[10, 40, 70, 100][(s + t) % 4],
                finished_at=MIDWEEK,
            )

    def settle(t: int):
        def work() -> None:
            league_points_record_match(
                match_id=2000 + t,
                finished_at=MIDWEEK,
                results=[LeagueResult(user=user, points=4) for user in tables[t]],
            )

        return work

    barrier = threading.Barrier(len(tables))
    errors = []

    def target(t: int) -> None:
        try:
            barrier.wait()
            settle(t)()
        except Exception as error:  # reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=target, args=(t,)) for t in range(len(tables))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert histogram_is_consistent()


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_week_close_and_match_payouts_on_the_same_users_neither_deadlock_nor_lose_coins(
    record,
):
    """The close pays prizes by user id; a payout locks accounts by account id.

    Here the accounts were opened in the other order than the users' ids (lazily,
    as for users imported in bulk), so the two orders differ. The close pauses
    after its first prize until the payout is waiting on a lock, which is exactly
    where two lock orders deadlock.
    """
    from accounts.models import User
    from economy import services
    from economy.selectors import balances, ledger_audit

    first, second = User.objects.bulk_create(
        [User(username="early", email="early@example.com"), User(username="late", email="l@e.com")]
    )
    services.signup_bonus_grant(user=second)  # its accounts get the smaller ids
    services.signup_bonus_grant(user=first)
    record(first, 20)  # first in Bronze: 300 coins
    record(second, 14)  # second: 200 coins
    week = LeagueWeek.objects.get()

    closing = threading.local()
    prize_paid = threading.Event()

    def pause_after_the_first_prize(point: str) -> None:
        if point != "after-entries" or not getattr(closing, "active", False) or prize_paid.is_set():
            return
        prize_paid.set()
        for _ in range(600):  # until the payout waits on a lock we hold
            if someone_waits_on_a_lock():
                return
            threading.Event().wait(0.05)

    def work(index: int):
        if index == 0:
            closing.active = True
            from leagues.services import league_week_close

            return league_week_close(week=week, now=AFTER)
        assert prize_paid.wait(60)
        placements = [services.Placement(second, 1), services.Placement(first, 2)]
        return services.match_reward(match_id=500, label="online", placements=placements)

    with mock.patch("economy.services.ledger.fault", pause_after_the_first_prize):
        results = run_indexed(2, work)

    assert not [r for r in results if isinstance(r, Exception)], results
    assert balances(first)["coins"] == 1000 + 300 + 40
    assert balances(second)["coins"] == 1000 + 200 + 60
    assert ledger_audit().violations == []

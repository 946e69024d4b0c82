"""The owner's wallet month by month (history/selectors/wallet.py) against PostgreSQL."""

from datetime import UTC, date, datetime
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from history import selectors
from tests.history.conftest import store_finished
from tests.history.selectors.conftest import NOW

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def test_the_wallet_gives_the_balance_and_level_at_the_end_of_each_month(settings):
    from accounts.models import User
    from economy.services import Placement, match_reward

    # Ledger rows are immutable: each is written at its date (the clock stands still).
    with mock.patch("django.utils.timezone.now", return_value=datetime(2026, 3, 10, tzinfo=UTC)):
        ana = User.objects.create_user("ana", "ana@example.com", "x-Long-passphrase-1")
        bea = User.objects.create_user("bea", "bea@example.com", "x-Long-passphrase-1")
    match = store_finished([ana, bea, None, None], 1)[0]
    with mock.patch("django.utils.timezone.now", return_value=datetime(2026, 5, 10, tzinfo=UTC)):
        match_reward(match_id=match.pk, label="online", placements=[Placement(user=ana, place=1)])
    months = {line.month: line for line in selectors.wallet_by_month(ana, now=NOW)}
    bonus = settings.ECONOMY_SIGNUP_BONUS
    # Counted by hand: the signup bonus in March, 60 coins and 40 XP for a first
    # place online in May, nothing else.
    assert (months[date(2026, 2, 1)].coins, months[date(2026, 2, 1)].xp) == (0, 0)
    assert (months[date(2026, 3, 1)].coins, months[date(2026, 3, 1)].xp) == (bonus, 0)
    assert (months[date(2026, 4, 1)].coins, months[date(2026, 4, 1)].xp) == (bonus, 0)
    assert (months[date(2026, 5, 1)].coins, months[date(2026, 5, 1)].xp) == (bonus + 60, 40)
    assert months[date(2026, 6, 1)].coins == bonus + 60
    assert [months[date(2026, m, 1)].level for m in (4, 5)] == [1, 1]  # 40 XP < 100


def test_this_months_wallet_ends_on_the_balances_and_closed_months_are_read_once(settings):
    from accounts.models import User
    from economy.services import Placement, match_reward

    bonus = settings.ECONOMY_SIGNUP_BONUS

    def at(*day):
        return mock.patch("django.utils.timezone.now", return_value=datetime(*day, tzinfo=UTC))

    with at(2026, 3, 10):
        ana = User.objects.create_user("ana", "ana@example.com", "x-Long-passphrase-1")
    matches = store_finished([ana, None, None, None], 3)

    def pay(match):
        match_reward(match_id=match.pk, label="online", placements=[Placement(user=ana, place=1)])

    with at(2026, 5, 10):
        pay(matches[0])
    with at(2026, 5, 20):
        months = selectors.wallet_by_month(ana)
        assert (months[-1].month, months[-1].coins, months[-1].xp) == (
            date(2026, 5, 1),
            bonus + 60,
            40,
        )
        assert (months[-2].month, months[-2].coins, months[-2].xp) == (date(2026, 4, 1), bonus, 0)
    with at(2026, 5, 21):
        pay(matches[1])  # this month: on the balances at once
        assert selectors.wallet_by_month(ana)[-1].coins == bonus + 120
    with at(2026, 6, 2):
        pay(matches[2])
        first = selectors.wallet_by_month(ana)
        with CaptureQueriesContext(connection) as again:
            second = selectors.wallet_by_month(ana)
    # Counted by hand: May closed on two rewards, June holds the third.
    assert [(m.month, m.coins, m.xp) for m in first[-3:]] == [
        (date(2026, 4, 1), bonus, 0),
        (date(2026, 5, 1), bonus + 120, 80),
        (date(2026, 6, 1), bonus + 180, 120),
    ]
    assert second == first
    assert len(again.captured_queries) == 1  # the balances; closed months from the cache


def test_the_first_minutes_of_a_month_are_summed_from_the_ledger_not_cached(settings):
    from accounts.models import User

    with mock.patch("django.utils.timezone.now", return_value=datetime(2026, 3, 10, tzinfo=UTC)):
        ana = User.objects.create_user("ana", "ana@example.com", "x-Long-passphrase-1")
    turn = datetime(2026, 3, 31, 22, 1, tzinfo=UTC)  # 1 April 00:01 in Madrid
    with mock.patch("django.utils.timezone.now", return_value=turn):
        selectors.wallet_by_month(ana)
        with CaptureQueriesContext(connection) as again:
            months = selectors.wallet_by_month(ana)
    assert len(again.captured_queries) == 2  # the closed months, then the balances
    assert (months[-2].coins, months[-1].coins) == (settings.ECONOMY_SIGNUP_BONUS,) * 2

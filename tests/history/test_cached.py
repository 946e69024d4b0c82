"""The history's reads kept in the cache (history/cached.py) against PostgreSQL: the
player page's figures between two matches of the player, the wallet's closed months."""

from datetime import UTC, date, datetime
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from history import cached
from tests.history.conftest import store_finished

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


@pytest.fixture
def cast(make_user):
    return [make_user(name) for name in ("ana", "bea", "carlos", "dani")]


def test_the_player_page_figures_are_read_again_only_after_a_match_of_theirs(
    cast, django_capture_on_commit_callbacks
):
    ana, bea, carlos, dani = cast
    store_finished([ana, bea, None, None], 3)
    assert cached.player_stats(ana).totals.played == 3
    with CaptureQueriesContext(connection) as queries:
        assert cached.player_stats(ana).totals.played == 3
    assert len(queries.captured_queries) == 0  # from the cache
    assert cached.player_stats(carlos).totals.played == 0
    # A match of ana's (not of carlos's) changes her figures at once, and bea's.
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        store_finished([ana, dani, bea, None], 1, abandoned=(0,))
    assert callbacks  # and once more when the settlement commits
    assert (
        cached.player_stats(ana).totals.played,
        cached.player_stats(ana).totals.abandoned,
    ) == (4, 1)
    assert cached.player_stats(bea).totals.played == 4
    with CaptureQueriesContext(connection) as queries:
        assert cached.player_stats(carlos).totals.played == 0
    assert len(queries.captured_queries) == 0


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
        months = cached.wallet_by_month(ana)
        assert (months[-1].month, months[-1].coins, months[-1].xp) == (
            date(2026, 5, 1),
            bonus + 60,
            40,
        )
        assert (months[-2].month, months[-2].coins, months[-2].xp) == (date(2026, 4, 1), bonus, 0)
    with at(2026, 5, 21):
        pay(matches[1])  # this month: on the balances at once
        assert cached.wallet_by_month(ana)[-1].coins == bonus + 120
    with at(2026, 6, 2):
        pay(matches[2])
        first = cached.wallet_by_month(ana)
        with CaptureQueriesContext(connection) as again:
            second = cached.wallet_by_month(ana)
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
        cached.wallet_by_month(ana)
        with CaptureQueriesContext(connection) as again:
            months = cached.wallet_by_month(ana)
    assert len(again.captured_queries) == 2  # the closed months, then the balances
    assert (months[-2].coins, months[-1].coins) == (settings.ECONOMY_SIGNUP_BONUS,) * 2

"""The owner's wallet month by month (history/selectors/wallet.py) against PostgreSQL."""

from datetime import UTC, date, datetime
from unittest import mock

import pytest

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

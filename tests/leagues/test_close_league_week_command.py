from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from leagues.models import LeagueWeek, WeekStatus
from leagues.weeks import league_time_zone
from tests.leagues.conftest import division_of, prize_coins

pytestmark = pytest.mark.django_db


def league_day(when) -> str:
    """The date the league's clock shows at `when` (its weeks run on that time zone)."""
    return timezone.localtime(when, league_time_zone()).date().isoformat()


def run(*args) -> str:
    out = StringIO()
    call_command("close_league_week", *args, stdout=out)
    return out.getvalue()


@pytest.fixture
def last_week(players, record):
    users = players(5)
    when = timezone.now() - timedelta(days=7)
    for user, points in zip(users, [50, 40, 30, 20, 10], strict=True):
        record(user, points, when=when)
    return when, users


def test_without_arguments_every_finished_week_is_closed(last_week):
    _, users = last_week
    output = run()
    assert "Closed" in output and "5 players, 1 up, 0 down, 600 coins" in output
    assert prize_coins(users[0]) == 300
    assert division_of(users[0]) == 2
    assert run() == "Nothing to close.\n"
    assert prize_coins(users[0]) == 300


def test_a_date_closes_up_to_that_week(last_week):
    when, _ = last_week
    output = run("--week", league_day(when))
    assert "Closed" in output
    assert LeagueWeek.objects.filter(status=WeekStatus.CLOSED).count() == 1


@pytest.mark.parametrize("bad", ["yesterday", "2026-13-01", "2026/11/16", ""])
def test_a_malformed_date_is_a_clear_error(bad):
    with pytest.raises(CommandError, match="YYYY-MM-DD"):
        run("--week", bad)


def test_a_week_that_has_not_ended_is_refused(last_week):
    with pytest.raises(CommandError, match="has not ended yet"):
        run("--week", league_day(timezone.now()))
    assert not LeagueWeek.objects.filter(status=WeekStatus.CLOSED).exists()


def test_a_week_with_nothing_recorded_is_refused(db):
    with pytest.raises(CommandError, match="no league week was recorded"):
        run("--week", "2020-01-08")


def test_an_unknown_option_is_refused():
    with pytest.raises(CommandError):
        call_command("close_league_week", "--weak", "2026-01-01")

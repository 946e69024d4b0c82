from datetime import datetime

import pytest

from leagues.errors import BotsDoNotScore, InvalidLeaguePoints, InvalidMatch, NaiveFinishTime
from leagues.models import Division, LeagueMembership, LeaguePoints, LeagueScore, LeagueWeek
from leagues.selectors import league_points_total
from leagues.services import league_points_record
from tests.leagues.conftest import MIDWEEK, MONDAY, NEXT_MONDAY, histogram_is_consistent, madrid

pytestmark = pytest.mark.django_db


def test_a_new_user_starts_in_bronze(make_user):
    user = make_user("nuevo")
    assert LeagueMembership.objects.get(user=user).division == Division.BRONZE


def test_a_user_without_a_membership_gets_one_in_bronze_when_they_score(player, record):
    LeagueMembership.objects.filter(user=player).delete()
    record(player, 20)
    assert LeagueMembership.objects.get(user=player).division == Division.BRONZE


def test_points_are_stored_per_match_and_summed_per_week(player, record):
    record(player, 20)
    record(player, 7)
    week = LeagueWeek.objects.get()
    assert week.starts_at == MONDAY and week.ends_at == NEXT_MONDAY
    assert LeagueScore.objects.get(week=week, user=player).points == 27
    assert league_points_total(user=player, week=week) == 27


def test_recording_the_same_match_twice_counts_once(player):
    first = league_points_record(user=player, match_id=9, points=20, finished_at=MIDWEEK)
    again = league_points_record(user=player, match_id=9, points=20, finished_at=MIDWEEK)
    assert not first.replayed and again.replayed
    assert again.pk == first.pk
    assert LeaguePoints.objects.count() == 1
    assert LeagueScore.objects.get(user=player).points == 20


def test_a_match_at_sunday_23_59_59_counts_for_that_week_and_one_at_monday_midnight_for_the_next(
    player, record
):
    record(player, 20, when=madrid(2026, 11, 22, 23, 59, 59))
    record(player, 8, when=madrid(2026, 11, 23, 0, 0, 0))
    this_week, next_week = LeagueWeek.objects.order_by("starts_at")
    assert this_week.starts_at == MONDAY
    assert LeagueScore.objects.get(week=this_week, user=player).points == 20
    assert next_week.starts_at == NEXT_MONDAY
    assert LeagueScore.objects.get(week=next_week, user=player).points == 8


def test_a_bot_has_no_user_and_its_points_are_refused():
    with pytest.raises(BotsDoNotScore):
        league_points_record(user=None, match_id=1, points=20, finished_at=MIDWEEK)
    assert not LeaguePoints.objects.exists() and not LeagueScore.objects.exists()


def test_an_unsaved_user_is_refused(make_user):
    from accounts.models import User

    with pytest.raises(BotsDoNotScore):
        league_points_record(user=User(username="ghost"), match_id=1, points=4, finished_at=MIDWEEK)


@pytest.mark.parametrize("points", [0, -4, 2.5, "20", True, None])
def test_points_must_be_a_positive_whole_number(player, points):
    with pytest.raises(InvalidLeaguePoints):
        league_points_record(user=player, match_id=1, points=points, finished_at=MIDWEEK)
    assert not LeaguePoints.objects.exists()


@pytest.mark.parametrize("match_id", [0, -1, "7", None])
def test_the_match_id_must_be_a_positive_whole_number(player, match_id):
    with pytest.raises(InvalidMatch):
        league_points_record(user=player, match_id=match_id, points=4, finished_at=MIDWEEK)


def test_a_naive_finish_time_is_refused(player):
    with pytest.raises(NaiveFinishTime):
        league_points_record(
            user=player, match_id=1, points=4, finished_at=datetime(2026, 11, 18, 12)
        )
    assert not LeagueWeek.objects.exists()


def test_the_score_row_takes_the_players_current_division(player, record):
    LeagueMembership.objects.filter(user=player).update(division=Division.GOLD)
    record(player, 14)
    assert LeagueScore.objects.get(user=player).division == Division.GOLD


def test_the_points_histogram_follows_every_record(players, record):
    from leagues.models import LeagueScoreCount

    ana, bea, cai = players(3)
    record(ana, 20)
    record(bea, 20)
    record(cai, 8)
    record(ana, 4)
    counts = dict(LeagueScoreCount.objects.filter(players__gt=0).values_list("points", "players"))
    assert counts == {24: 1, 20: 1, 8: 1}
    assert histogram_is_consistent()

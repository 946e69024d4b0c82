from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest

from leagues import services
from leagues.errors import EarlierWeekOpen, WeekNotOver
from leagues.models import (
    Division,
    LeagueMembership,
    LeagueScore,
    LeagueStanding,
    LeagueWeek,
    Movement,
    WeekStatus,
)
from leagues.services import league_week_close, league_weeks_close_due
from tests.leagues.conftest import (
    MIDWEEK,
    MONDAY,
    NEXT_MONDAY,
    division_of,
    histogram_is_consistent,
    madrid,
    prize_coins,
)

pytestmark = pytest.mark.django_db

AFTER = NEXT_MONDAY + timedelta(minutes=1)


def standing(user, week=None) -> LeagueStanding:
    rows = LeagueStanding.objects.filter(user=user)
    return rows.get(week=week) if week else rows.get()


def score(record, users, points):
    for user, amount in zip(users, points, strict=True):
        record(user, amount)


# --- When a week closes -----------------------------------------------------------------


def test_a_week_does_not_close_a_moment_before_monday_midnight(players, record):
    (ana,) = players(1)
    record(ana, 20)
    week = LeagueWeek.objects.get()
    just_before = NEXT_MONDAY - timedelta(microseconds=1)
    with pytest.raises(WeekNotOver):
        league_week_close(week=week, now=just_before)
    assert league_weeks_close_due(now=just_before) == []
    week.refresh_from_db()
    assert week.status == WeekStatus.OPEN
    assert not LeagueStanding.objects.exists()


def test_a_week_closes_exactly_at_monday_midnight_madrid(players, record):
    (ana,) = players(1)
    record(ana, 20)
    (closing,) = league_weeks_close_due(now=NEXT_MONDAY)
    assert not closing.replayed
    week = LeagueWeek.objects.get(pk=closing.week.pk)
    assert week.status == WeekStatus.CLOSED and week.closed_at == NEXT_MONDAY
    assert standing(ana).points == 20


@pytest.mark.parametrize(
    ("midweek", "monday_midnight_utc"),
    [
        # Last Sunday of March 2027: the week is 167 hours long.
        (madrid(2027, 3, 24, 18), datetime(2027, 3, 28, 22, 0, tzinfo=UTC)),
        # Last Sunday of October 2026: the week is 169 hours long.
        (madrid(2026, 10, 21, 18), datetime(2026, 10, 25, 23, 0, tzinfo=UTC)),
    ],
    ids=["march", "october"],
)
def test_a_clock_change_week_closes_exactly_at_monday_midnight_madrid(
    players, record, midweek, monday_midnight_utc
):
    (ana,) = players(1)
    record(ana, 20, when=midweek)
    # The last second of Sunday still counts for the week.
    record(ana, 4, when=monday_midnight_utc - timedelta(seconds=1))
    assert league_weeks_close_due(now=monday_midnight_utc - timedelta(seconds=1)) == []
    (closing,) = league_weeks_close_due(now=monday_midnight_utc)
    assert closing.week.ends_at == monday_midnight_utc
    assert standing(ana).points == 24


def test_the_task_run_also_opens_the_current_week(players):
    league_weeks_close_due(now=MIDWEEK)
    assert LeagueWeek.objects.get().status == WeekStatus.OPEN


# --- Prizes -------------------------------------------------------------------------------


def test_the_top_three_of_each_division_are_paid_through_the_ledger(players, record):
    bronze = players(4, Division.BRONZE, "b")
    silver = players(3, Division.SILVER, "s")
    (gold,) = players(1, Division.GOLD, "g")
    diamond = players(2, Division.DIAMOND, "d")
    score(record, bronze, [40, 30, 20, 10])
    score(record, silver, [40, 30, 20])
    record(gold, 8)
    score(record, diamond, [14, 4])
    (closing,) = league_weeks_close_due(now=AFTER)
    assert [prize_coins(u) for u in bronze] == [300, 200, 100, 0]
    assert [prize_coins(u) for u in silver] == [600, 400, 200]
    assert prize_coins(gold) == 900
    assert [prize_coins(u) for u in diamond] == [1500, 1000]
    assert [standing(u).prize for u in bronze] == [300, 200, 100, 0]
    assert closing.week.prizes_paid == 600 + 1200 + 900 + 2500


def test_prizes_follow_the_settings(players, record, settings):
    settings.LEAGUE_PRIZES = {**settings.LEAGUE_PRIZES, "bronze": (50, 0, 5)}
    users = players(3)
    score(record, users, [30, 20, 10])
    league_weeks_close_due(now=AFTER)
    assert [prize_coins(u) for u in users] == [50, 0, 5]


def test_a_prize_is_never_multiplied_by_a_booster_or_vip(players, record):
    from economy.models import Effect, Perk

    (ana,) = players(1)
    for effect in (Effect.BOOSTER, Effect.VIP):
        Perk.objects.create(user=ana, effect=effect, ends_at=AFTER + timedelta(days=1))
    record(ana, 20)
    league_weeks_close_due(now=AFTER)
    assert prize_coins(ana) == 300


def test_players_tied_on_points_share_a_rank_and_each_get_that_ranks_prize(players, record):
    users = players(4)
    score(record, users, [30, 20, 20, 10])
    league_weeks_close_due(now=AFTER)
    assert [standing(u).rank for u in users] == [1, 2, 2, 4]
    assert [prize_coins(u) for u in users] == [300, 200, 200, 0]


def test_a_tie_at_third_place_pays_every_tied_player(players, record):
    users = players(5)
    score(record, users, [30, 20, 10, 10, 4])
    league_weeks_close_due(now=AFTER)
    assert [standing(u).rank for u in users] == [1, 2, 3, 3, 5]
    assert [prize_coins(u) for u in users] == [300, 200, 100, 100, 0]


# --- Promotion and relegation -------------------------------------------------------------


def test_the_top_and_bottom_fifth_of_a_division_move_up_and_down(players, record):
    users = players(10, Division.SILVER)
    score(record, users, [100, 90, 80, 70, 60, 50, 40, 30, 20, 10])
    (closing,) = league_weeks_close_due(now=AFTER)
    assert [division_of(u) for u in users] == [3, 3, 2, 2, 2, 2, 2, 2, 1, 1]
    assert [standing(u).movement for u in users] == [1, 1, 0, 0, 0, 0, 0, 0, -1, -1]
    assert (closing.promoted, closing.relegated, closing.players) == (2, 2, 10)


def test_at_least_one_player_moves_up_and_the_relegation_quota_rounds_down(players, record):
    users = players(4, Division.SILVER)
    score(record, users, [40, 30, 20, 10])
    league_weeks_close_due(now=AFTER)
    # 20% of 4 is 0.8: one moves up (at least one), none moves down.
    assert [division_of(u) for u in users] == [3, 2, 2, 2]


def test_a_tie_straddling_the_promotion_boundary_goes_to_more_matches_won(players, record):
    users = players(10, Division.SILVER)
    score(record, users, [100, 90, 80, 70, 60, 50, 40, 30, 20, 10])
    # The 80 catches up to 90 with two more won matches (earlier than the 90's last one).
    services.league_points_record(
        user=users[2], match_id=900, points=5, finished_at=MIDWEEK, won=True
    )
    services.league_points_record(
        user=users[2], match_id=901, points=5, finished_at=MIDWEEK, won=True
    )
    league_weeks_close_due(now=AFTER)
    # Two places: the 100 and, of the two 90s, the one with more wins.
    assert [standing(u).points for u in users[:3]] == [100, 90, 90]
    assert [standing(u).movement for u in users[:4]] == [1, 0, 1, 0]
    assert standing(users[1]).rank == standing(users[2]).rank == 2  # they still share the rank


def test_equal_points_and_wins_go_to_who_reached_the_total_first(players):
    users = players(2, Division.SILVER)
    # The second player reached 20 a day before the first.
    services.league_points_record(
        user=users[0], match_id=1, points=20, finished_at=MIDWEEK + timedelta(days=1)
    )
    services.league_points_record(user=users[1], match_id=2, points=20, finished_at=MIDWEEK)
    league_weeks_close_due(now=AFTER)
    # A quota of one, never zero: exactly one of the tied top pair moves up.
    assert [division_of(u) for u in users] == [Division.SILVER, Division.GOLD]


def test_a_tie_on_everything_goes_to_the_older_account(players, record):
    users = players(5, Division.SILVER)
    score(record, users, [20] * 5)
    league_weeks_close_due(now=AFTER)
    assert [standing(u).movement for u in users] == [1, 0, 0, 0, -1]
    assert {standing(u).rank for u in users} == {1}


def test_a_tie_straddling_the_relegation_boundary_sends_down_the_fewest_wins(players):
    users = players(10, Division.GOLD)
    for index, (points, won) in enumerate(
        [(100, 1), (90, 1), (80, 1), (70, 1), (60, 1), (50, 1), (40, 1), (10, 1), (10, 0), (10, 0)]
    ):
        services.league_points_record(
            user=users[index], match_id=index + 1, points=points, finished_at=MIDWEEK, won=won
        )
    league_weeks_close_due(now=AFTER)
    # Two places down, three tied last: the two without a win go down.
    assert [standing(u).movement for u in users] == [1, 1, 0, 0, 0, 0, 0, 0, -1, -1]


@pytest.mark.parametrize("field", [4, 5, 9, 10, 191, 189])
def test_the_quotas_are_exact_however_many_are_tied(players, record, field, settings):
    # Nothing here reads a balance: the sign-up bonus (a ledger grant per user, most
    # of the time of the 191 and 189 fields) is left out.
    settings.ECONOMY_SIGNUP_BONUS = 0
    users = players(field, Division.SILVER)
    # Real totals: a handful of values, so large tie groups sit on both lines.
    score(record, users, [(20, 14, 8, 4)[i % 4] for i in range(field)])
    (closing,) = league_weeks_close_due(now=AFTER)
    assert closing.promoted == max(1, field * 20 // 100)
    assert closing.relegated == field * 20 // 100
    # Each player's one standing, read in one query (as standing() would, one by one).
    rows = list(LeagueStanding.objects.filter(user__in=users))
    assert sorted(row.user_id for row in rows) == sorted(user.pk for user in users)
    ups = [row for row in rows if row.movement == Movement.UP]
    downs = [row for row in rows if row.movement == Movement.DOWN]
    assert min(row.points for row in ups) >= max(row.points for row in rows if row not in ups)
    if downs:
        assert max(row.points for row in downs) <= min(
            row.points for row in rows if row not in downs
        )


def test_nobody_rises_above_diamond_or_falls_below_bronze(players, record):
    diamonds = players(5, Division.DIAMOND, "d")
    bronzes = players(5, Division.BRONZE, "b")
    score(record, diamonds, [50, 40, 30, 20, 10])
    score(record, bronzes, [50, 40, 30, 20, 10])
    league_weeks_close_due(now=AFTER)
    assert [division_of(u) for u in diamonds] == [4, 4, 4, 4, 3]
    assert [division_of(u) for u in bronzes] == [2, 1, 1, 1, 1]


def test_players_without_points_are_not_ranked_and_do_not_move(players, record):
    active = players(5, Division.SILVER, "a")
    (idle,) = players(1, Division.SILVER, "i")
    score(record, active, [50, 40, 30, 20, 10])
    (closing,) = league_weeks_close_due(now=AFTER)
    assert closing.players == 5
    assert not LeagueStanding.objects.filter(user=idle).exists()
    assert division_of(idle) == Division.SILVER
    assert division_of(active[-1]) == Division.BRONZE


def test_a_match_with_a_bot_ranks_only_its_humans(players, record):
    from leagues.errors import BotsDoNotScore

    humans = players(3)
    score(record, humans, [20, 14, 8])
    with pytest.raises(BotsDoNotScore):
        services.league_points_record(user=None, match_id=77, points=2, finished_at=MIDWEEK)
    league_weeks_close_due(now=AFTER)
    assert set(LeagueStanding.objects.values_list("user_id", flat=True)) == {u.pk for u in humans}
    assert LeagueStanding.objects.filter(user__isnull=True).count() == 0


# --- Once, in order, all or nothing --------------------------------------------------------


def test_closing_twice_pays_and_moves_once(players, record):
    users = players(5, Division.SILVER)
    score(record, users, [50, 40, 30, 20, 10])
    week = LeagueWeek.objects.get()
    first = league_week_close(week=week, now=AFTER)
    again = league_week_close(week=week, now=AFTER + timedelta(hours=1))
    assert not first.replayed and again.replayed
    assert league_weeks_close_due(now=AFTER + timedelta(hours=2)) == []
    assert [prize_coins(u) for u in users] == [600, 400, 200, 0, 0]
    assert [division_of(u) for u in users] == [3, 2, 2, 2, 1]
    assert LeagueStanding.objects.count() == 5


def test_three_missed_weeks_close_in_order_each_with_its_own_standings(players, record):
    ana, bea, cai, dan, eva = players(5)
    weeks = [MIDWEEK, MIDWEEK + timedelta(days=7), MIDWEEK + timedelta(days=14)]
    # Nothing closes while these are played: every score row starts in Bronze.
    score(record, [ana, bea, cai, dan, eva], [50, 40, 30, 20, 10])
    for when in weeks[1:]:
        for user, points in ((ana, 8), (bea, 40), (cai, 30), (dan, 20), (eva, 10)):
            record(user, points, when=when)
    closings = league_weeks_close_due(now=weeks[2] + timedelta(days=6))
    assert [c.week.starts_at for c in closings] == sorted(c.week.starts_at for c in closings)
    w1, w2, w3 = (c.week for c in closings)
    # Week 1: Ana wins Bronze and moves up.
    assert (standing(ana, w1).division, standing(ana, w1).rank) == (Division.BRONZE, 1)
    # Week 2: Ana plays alone in Silver (1st, moves up); Bea now wins Bronze.
    assert (standing(ana, w2).division, standing(ana, w2).prize) == (Division.SILVER, 600)
    assert (standing(bea, w2).division, standing(bea, w2).rank) == (Division.BRONZE, 1)
    # Week 3: Ana in Gold, Bea alone in Silver, Cai wins Bronze.
    assert (standing(ana, w3).division, standing(ana, w3).prize) == (Division.GOLD, 900)
    assert (standing(bea, w3).division, standing(bea, w3).prize) == (Division.SILVER, 600)
    assert (standing(cai, w3).division, standing(cai, w3).rank) == (Division.BRONZE, 1)
    assert prize_coins(ana) == 300 + 600 + 900
    assert [division_of(u) for u in (ana, bea, cai, dan, eva)] == [4, 3, 2, 1, 1]
    assert LeagueWeek.objects.filter(status=WeekStatus.OPEN).count() == 1  # the current one
    assert histogram_is_consistent()


def test_points_already_scored_next_week_follow_a_move(players, record):
    users = players(5)
    score(record, users, [50, 40, 30, 20, 10])
    record(users[0], 4, when=MIDWEEK + timedelta(days=7))
    league_weeks_close_due(now=AFTER)
    next_week = LeagueWeek.objects.get(starts_at=NEXT_MONDAY)
    assert LeagueScore.objects.get(week=next_week, user=users[0]).division == Division.SILVER
    assert histogram_is_consistent()


def test_a_week_cannot_close_before_an_earlier_open_one(players, record):
    (ana,) = players(1)
    record(ana, 4)
    record(ana, 4, when=MIDWEEK + timedelta(days=7))
    later = LeagueWeek.objects.get(starts_at=NEXT_MONDAY)
    with pytest.raises(EarlierWeekOpen):
        league_week_close(week=later, now=AFTER + timedelta(days=7))
    assert LeagueWeek.objects.filter(status=WeekStatus.CLOSED).count() == 0


def test_a_failure_while_paying_rolls_the_whole_close_back(players, record):
    users = players(5, Division.SILVER)
    score(record, users, [50, 40, 30, 20, 10])
    from economy import services as economy_services

    real = economy_services.ledger_grant
    calls = []

    def failing(**kwargs):
        calls.append(kwargs)
        if len(calls) == 2:
            raise RuntimeError("ledger down")
        return real(**kwargs)

    with (
        mock.patch("economy.services.ledger_grant", failing),
        pytest.raises(RuntimeError, match="ledger down"),
    ):
        league_weeks_close_due(now=AFTER)
    assert LeagueWeek.objects.get(starts_at=MONDAY).status == "open"
    assert not LeagueStanding.objects.exists()
    assert [prize_coins(u) for u in users] == [0] * 5
    assert all(division_of(u) == Division.SILVER for u in users)
    # The next run closes it properly.
    (closing,) = league_weeks_close_due(now=AFTER)
    assert [prize_coins(u) for u in users] == [600, 400, 200, 0, 0]
    assert closing.promoted == 1 and closing.relegated == 1


def test_standings_movement_matches_the_membership_change(players, record):
    users = players(5, Division.GOLD)
    score(record, users, [50, 40, 30, 20, 10])
    league_weeks_close_due(now=AFTER)
    for user in users:
        row = standing(user)
        assert LeagueMembership.objects.get(user=user).division == row.division + row.movement
    assert standing(users[0]).movement == Movement.UP


def test_the_close_tells_every_player_their_result_once_in_their_language(players, record):
    from django.utils import translation

    from notifications.kinds import LEAGUE_RESULT, sentence
    from notifications.models import Notification

    users = players(5, Division.SILVER)
    score(record, users, [50, 40, 30, 20, 10])
    week = LeagueWeek.objects.get()
    league_week_close(week=week, now=AFTER)
    league_week_close(week=week, now=AFTER + timedelta(hours=1))  # replayed: nothing more
    rows = {n.user_id: n for n in Notification.objects.filter(kind=LEAGUE_RESULT)}
    assert set(rows) == {u.pk for u in users}
    with translation.override("en"):
        top = sentence(LEAGUE_RESULT, rows[users[0].pk].params)
        last = sentence(LEAGUE_RESULT, rows[users[4].pk].params)
    assert top.endswith("promoted to Gold. You won a prize of 600 coins.")
    assert last.endswith("relegated to Bronze.")
    assert rows[users[0].pk].link == f"/league/weeks/{week.pk}/"

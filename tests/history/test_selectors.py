"""The history selectors against PostgreSQL, on match records built by hand: every
figure is compared with a count made by hand."""

from datetime import UTC, date, datetime, timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from history import selectors
from history.selectors import HistoryFilters
from tests.history.conftest import store_finished, store_record
from tests.history.handbuilt import FIGURES, RECORD

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]

NOW = datetime(2026, 6, 15, 12, 0, tzinfo=UTC)


@pytest.fixture
def cast(make_user):
    return [make_user(name) for name in ("ana", "bea", "carlos", "dani")]


def test_each_player_of_a_hand_built_match_gets_the_figures_counted_by_hand(cast):
    ana, bea, carlos, _dani = cast
    store_record([ana, bea, carlos, None], RECORD)
    for position, user in enumerate((ana, bea, carlos)):
        assert selectors.player_stats(user).figures == FIGURES[position]


def test_figures_add_up_over_matches_and_seats(cast):
    ana, bea, carlos, _dani = cast
    store_record([ana, bea, carlos, None], RECORD)
    store_record([bea, ana, None, carlos], RECORD)  # ana at seat 1, carlos at seat 3
    stats = selectors.player_stats(ana)
    assert stats.figures == {k: FIGURES[0][k] + FIGURES[1][k] for k in FIGURES[0]}
    # Counted by hand: solo bid once and failed; quintola bid, played and made once.
    solo, cuatrola, quintola = stats.contracts
    assert (solo.bids, solo.played, solo.made, solo.made_percent) == (1, 1, 0, 0)
    assert (cuatrola.bids, cuatrola.made_percent) == (0, None)
    assert (quintola.bids, quintola.played, quintola.made, quintola.made_percent) == (1, 1, 1, 100)
    # Defended hand 1 (not broken) as seat 0, hand 3 (broken) as seat 1.
    assert (stats.figures["defended"], stats.figures["broken"], stats.broken_percent) == (2, 1, 50)
    # Two pass hands, 0 card points in both; carlos took 120 in one (at seat 2) and
    # nothing in the other (at seat 3).
    assert stats.pass_average_points == 0
    assert selectors.player_stats(carlos).pass_average_points == 60
    assert selectors.player_stats(carlos).pass_last_trick_percent == 50


def test_results_by_mode_and_rule_set_match_a_count_by_hand(cast):
    ana, bea, carlos, dani = cast
    store_finished([ana, bea, carlos, dani], 3, mode="online")  # ana wins 3
    store_finished([ana, bea, None, None], 2, mode="online", winner=1)  # ana loses 2
    store_finished([None, ana, None, dani], 1, mode="friends", rules="classic")  # a loss
    store_finished([ana, None, None, None], 2, mode="practice", abandoned=(0,))
    store_finished([bea, carlos, None, None], 4, mode="stake")  # not ana's
    with translation.override("en"):
        stats = selectors.player_stats(ana)
    totals = stats.totals
    assert (totals.played, totals.won, totals.lost, totals.abandoned) == (8, 3, 3, 2)
    assert (totals.losses, totals.win_percent) == (5, 38)  # 3/8 = 37.5 %
    by_mode = {r.label: (r.won, r.lost, r.abandoned) for r in stats.by_mode}
    assert by_mode == {
        "Practice": (0, 0, 2),
        "Friends": (0, 1, 0),
        "Online": (3, 2, 0),
        "Stake table": (0, 0, 0),
    }
    by_rules = [(r.played, r.won) for r in stats.by_rules]
    assert by_rules == [(7, 3), (1, 0)]  # online rules, classic rules
    assert (stats.reliability.played, stats.reliability.abandoned) == (8, 2)
    assert stats.reliability.percent == 75


def test_matches_fall_in_their_month_and_older_ones_only_in_the_totals(cast):
    ana, bea, _carlos, _dani = cast
    store_finished([ana, bea, None, None], 2, finished_at=NOW - timedelta(days=5))  # June
    store_finished(
        [ana, bea, None, None], 1, winner=1, finished_at=datetime(2026, 5, 20, tzinfo=UTC)
    )
    store_finished([ana, bea, None, None], 1, finished_at=datetime(2025, 1, 2, tzinfo=UTC))
    stats = selectors.player_stats(ana, now=NOW)
    months = dict(stats.by_month)
    assert len(months) == 12
    first, *_, last = months
    assert (first, last) == (date(2025, 7, 1), date(2026, 6, 1))
    assert (months[date(2026, 6, 1)].won, months[date(2026, 6, 1)].lost) == (2, 0)
    assert (months[date(2026, 5, 1)].won, months[date(2026, 5, 1)].lost) == (0, 1)
    assert sum(r.played for r in months.values()) == 3
    assert stats.totals.played == 4


def test_the_player_page_figures_cost_two_queries_whatever_the_number_of_matches(cast):
    ana, bea, carlos, dani = cast
    store_finished([ana, bea, carlos, dani], 300)
    with CaptureQueriesContext(connection) as queries:
        stats = selectors.player_stats(ana)
    assert stats.totals.played == 300
    assert len(queries.captured_queries) == 2


def test_the_player_page_figures_are_read_again_only_after_a_match_of_theirs(
    cast, django_capture_on_commit_callbacks
):
    ana, bea, carlos, dani = cast
    store_finished([ana, bea, None, None], 3)
    assert selectors.player_stats(ana).totals.played == 3
    with CaptureQueriesContext(connection) as queries:
        assert selectors.player_stats(ana).totals.played == 3
    assert len(queries.captured_queries) == 0  # from the cache
    assert selectors.player_stats(carlos).totals.played == 0
    # A match of ana's (not of carlos's) changes her figures at once, and bea's.
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        store_finished([ana, dani, bea, None], 1, abandoned=(0,))
    assert callbacks  # and once more when the settlement commits
    assert (
        selectors.player_stats(ana).totals.played,
        selectors.player_stats(ana).totals.abandoned,
    ) == (4, 1)
    assert selectors.player_stats(bea).totals.played == 4
    with CaptureQueriesContext(connection) as queries:
        assert selectors.player_stats(carlos).totals.played == 0
    assert len(queries.captured_queries) == 0


def test_reliability_counts_abandoned_matches_as_recorded_for_several_players(cast):
    ana, bea, carlos, dani = cast
    store_finished([ana, bea, carlos, None], 3)
    store_finished([ana, bea, carlos, None], 1, abandoned=(0, 1))
    store_finished([None, None, carlos, None], 6, abandoned=(2,))
    found = selectors.reliability_by_user([ana.pk, bea.pk, carlos.pk, dani.pk])
    assert found[ana.pk] == selectors.Reliability(played=4, abandoned=1)
    assert found[carlos.pk] == selectors.Reliability(played=10, abandoned=6)
    assert dani.pk not in found
    assert selectors.reliability_of(ana.pk) == 75
    assert selectors.reliability_of(carlos.pk) == 40
    assert selectors.reliability_of(dani.pk) is None
    # One abandonment in 200 is 99 %, never rounded up to 100.
    assert selectors.Reliability(played=200, abandoned=1).percent == 99


def _listed(user, **filters):
    page, rows = selectors.history_page(user, filters=HistoryFilters(**filters), number=1)
    return [row.match for row in rows], page.paginator.count


@pytest.mark.parametrize("asked", [1, 2, 3, 4, 0, -1, 10**30])
def test_history_pages_are_numbered_as_django_paginator_numbers_them(cast, settings, asked):
    from django.core.paginator import EmptyPage, Paginator

    settings.HISTORY_PAGE_SIZE = 2
    ana, bea, *_ = cast
    store_finished([ana, bea, None, None], 5)
    everything = selectors.filtered_player_matches(ana, HistoryFilters())
    try:
        expected = Paginator(everything, 2).page(asked)
    except EmptyPage:
        with pytest.raises(EmptyPage):
            selectors.history_page(ana, filters=HistoryFilters(), number=asked)
        return
    page, rows = selectors.history_page(ana, filters=HistoryFilters(), number=asked)
    assert (page.number, page.paginator.count, page.paginator.num_pages) == (
        expected.number,
        5,
        3,
    )
    assert [row.match.pk for row in rows] == [line.match_id for line in expected]
    assert (page.has_previous(), page.has_next()) == (expected.has_previous(), expected.has_next())


def test_each_history_filter_keeps_exactly_the_matches_counted_by_hand(cast, settings):
    settings.HISTORY_PAGE_SIZE = 100
    ana, bea, carlos, dani = cast
    with_bea = store_finished([ana, carlos, bea, dani], 3, mode="online")  # bea partner
    against_bea = store_finished([ana, bea, None, None], 2, mode="friends", winner=1)
    classic = store_finished([None, ana, bea, None], 1, mode="friends", rules="classic")
    gone = store_finished(
        [ana, None, None, None],
        2,
        mode="practice",
        abandoned=(0,),
        finished_at=NOW - timedelta(days=40),
    )
    assert _listed(ana)[1] == 8
    assert set(_listed(ana, mode="friends")[0]) == {*against_bea, *classic}
    assert _listed(ana, rules="classic")[0] == classic
    assert set(_listed(ana, result="won")[0]) == set(with_bea)
    assert set(_listed(ana, result="lost")[0]) == {*against_bea, *classic}
    assert set(_listed(ana, result="abandoned")[0]) == set(gone)
    assert set(_listed(ana, with_user=bea.pk)[0]) == {*with_bea, *against_bea, *classic}
    assert set(_listed(ana, with_user=bea.pk, role="partner")[0]) == set(with_bea)
    assert set(_listed(ana, with_user=bea.pk, role="opponent")[0]) == {*against_bea, *classic}
    assert set(_listed(ana, with_user=carlos.pk, role="partner")[0]) == set()
    day = (NOW - timedelta(days=40)).date()
    assert set(_listed(ana, since=day, until=day)[0]) == set(gone)
    assert _listed(ana, until=day - timedelta(days=1)) == ([], 0)
    # bea's own history holds none of ana's practice matches.
    assert not set(_listed(bea)[0]) & set(gone)


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


def test_league_weeks_come_oldest_first_with_division_rank_and_points(cast):
    from leagues.models import LeagueStanding, LeagueWeek

    ana, bea, _carlos, _dani = cast
    weeks = [
        LeagueWeek.objects.create(
            starts_at=datetime(2026, 5, 4, tzinfo=UTC) + timedelta(weeks=n),
            ends_at=datetime(2026, 5, 11, tzinfo=UTC) + timedelta(weeks=n),
            status="closed",
            closed_at=datetime(2026, 5, 11, tzinfo=UTC) + timedelta(weeks=n),
        )
        for n in range(3)
    ]
    for week, division, rank in ((weeks[0], 1, 2), (weeks[2], 2, 7)):
        LeagueStanding.objects.create(
            week=week, user=ana, division=division, rank=rank, points=10 * rank, movement=1
        )
    LeagueStanding.objects.create(week=weeks[1], user=bea, division=1, rank=1, points=3, movement=0)
    lines = selectors.league_weeks(ana)
    assert [(w.starts_at, w.division, w.rank, w.points) for w in lines] == [
        (weeks[0].starts_at, 1, 2, 20),
        (weeks[2].starts_at, 2, 7, 70),
    ]
    with translation.override("es"):
        assert selectors.league_weeks(ana, weeks=1)[0].division_label == "Plata"


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


def test_rewards_are_looked_up_by_match_and_summed_per_player_and_currency(cast):
    from economy.services import Placement, match_reward

    ana, bea, _carlos, _dani = cast
    first, second = store_finished([ana, bea, None, None], 2)
    match_reward(
        match_id=first.pk,
        label="online",
        placements=[Placement(user=ana, place=1), Placement(user=bea, place=3)],
    )
    # A second posting for the same match (as a stake table's pot is): added up.
    match_reward(
        match_id=first.pk,
        label="online",
        placements=[Placement(user=ana, place=2)],
        idempotency_key=f"test:{first.pk}:again",
    )
    match_reward(match_id=second.pk, label="online", placements=[Placement(user=bea, place=1)])
    every = selectors.rewards_by_match_and_user([first.pk, second.pk])
    # Counted by hand from the settings' table: 60/40 first, 40/30 second, 20/20 third.
    assert every == {
        (first.pk, ana.pk): {"coins": 60 + 40, "xp": 40 + 30},
        (first.pk, bea.pk): {"coins": 20, "xp": 20},
        (second.pk, bea.pk): {"coins": 60, "xp": 40},
    }
    assert selectors.rewards_by_match_and_user([first.pk, second.pk], users=[bea]) == {
        (first.pk, bea.pk): {"coins": 20, "xp": 20},
        (second.pk, bea.pk): {"coins": 60, "xp": 40},
    }

"""The player page's figures (history/selectors/stats.py) against PostgreSQL, on match
records built by hand: every figure is compared with a count made by hand."""

from datetime import UTC, date, datetime, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import translation

from history import selectors
from tests.history.conftest import store_finished, store_record
from tests.history.handbuilt import FIGURES, RECORD
from tests.history.selectors.conftest import NOW

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


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
        "Tournament": (0, 0, 0),  # every mode in the history is listed, played or not
    }
    by_rules = [(r.played, r.won) for r in stats.by_rules]
    assert by_rules == [(7, 3), (1, 0)]  # online rules, classic rules
    assert (stats.reputation.played, stats.reputation.abandoned) == (8, 2)
    assert stats.reputation.percent == 75


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


def test_reputation_counts_abandoned_and_late_matches_as_recorded_for_several_players(cast):
    from games.hooks import SeatReputation

    ana, bea, carlos, dani = cast
    store_finished([ana, bea, carlos, None], 3)
    store_finished([ana, bea, carlos, None], 1, abandoned=(0, 1))
    store_finished([None, None, carlos, None], 6, abandoned=(2,))
    # A late turn in a match also abandoned counts once, as the abandonment.
    store_finished([ana, None, carlos, None], 2, late=(0, 2), abandoned=(2,))
    found = selectors.reputation_by_user([ana.pk, bea.pk, carlos.pk, dani.pk])
    assert found[ana.pk] == selectors.Reputation(played=6, abandoned=1, late=2)
    assert found[bea.pk] == selectors.Reputation(played=4, abandoned=1, late=0)
    assert found[carlos.pk] == selectors.Reputation(played=12, abandoned=8, late=0)
    assert dani.pk not in found
    assert selectors.reputation_of(ana.pk) == SeatReputation(finished=83, on_time=50)
    assert selectors.reputation_of(bea.pk) == SeatReputation(finished=75, on_time=75)
    assert selectors.reputation_of(carlos.pk) == SeatReputation(finished=33, on_time=33)
    assert selectors.reputation_of(dani.pk) is None
    # One abandonment (or one late match) in 200 is 99 %, never rounded up to 100.
    assert selectors.Reputation(played=200, abandoned=1).percent == 99
    assert selectors.Reputation(played=200, abandoned=0, late=1).on_time_percent == 99
    assert selectors.Reputation(played=0, abandoned=0).seat is None


def test_the_player_page_counts_late_matches_apart_from_abandoned_ones(cast):
    ana, bea, _carlos, _dani = cast
    store_finished([ana, bea, None, None], 6)
    store_finished([ana, bea, None, None], 3, late=(0,))
    store_finished([ana, bea, None, None], 1, late=(0,), abandoned=(0,))
    reputation = selectors.player_stats(ana).reputation
    assert (reputation.played, reputation.abandoned, reputation.late) == (10, 1, 3)
    assert (reputation.percent, reputation.on_time_percent) == (90, 60)


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

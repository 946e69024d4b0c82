"""Achievements of results outside a match arrive when the results do (issue 46): the
daily close, the league week's close and a tournament's finish note their results as
waiting in their own transaction (games' `results_recorded`), and the beat's reader
grants their players' achievements, exactly once, without waiting for a next match."""

from __future__ import annotations

from datetime import timedelta

import pytest

from achievements.models import Award, PendingEvent
from achievements.services import (
    achievements_read_events,
    achievements_results_pending,
)
from achievements.tasks import read_pending
from daily import services as daily
from daily.models import DailyDay
from leagues.models import Division, LeagueWeek, Movement
from leagues.services import league_week_close
from tests.daily.conftest import results_day
from tests.daily.test_standings import AFTER as DAY_OVER
from tests.daily.test_standings import DAY
from tests.leagues.conftest import players, record  # noqa: F401 (fixtures)
from tests.leagues.test_week_close import AFTER as WEEK_OVER
from tests.leagues.test_week_close import score

pytestmark = pytest.mark.django_db


def held(user):
    return dict(Award.objects.filter(user=user).values_list("code", "achieved_at"))


def test_the_daily_close_grants_the_days_first_and_top_tenth_at_once(make_user):
    users = [make_user(f"d{i:02d}") for i in range(12)]
    # 12 players: the top tenth is the first two (12 / 10 rounded up).
    results_day(DAY, {user: [12 - i] * 6 for i, user in enumerate(users)})
    day = DailyDay.objects.get()
    daily.day_close(day_id=day.pk, now=DAY_OVER)
    assert PendingEvent.objects.filter(event="daily", ref_id=day.pk).count() == 1
    assert held(users[0]) == {}  # nothing before the reader runs
    read_pending()
    day.refresh_from_db()
    assert held(users[0]) == {"daily_top_tenth": day.closed_at, "daily_first": day.closed_at}
    assert held(users[1]) == {"daily_top_tenth": day.closed_at}
    assert all(held(u) == {} for u in users[2:])
    assert not PendingEvent.objects.exists()
    # A replayed close, a redelivered signal, a second reading: nothing more.
    daily.day_close(day_id=day.pk, now=DAY_OVER + timedelta(minutes=5))
    achievements_results_pending(event="daily", ref_id=day.pk)
    assert achievements_read_events() == []
    assert Award.objects.count() == 3


def test_a_close_rolled_back_leaves_nothing_waiting(make_user, monkeypatch):
    users = [make_user(f"d{i:02d}") for i in range(3)]
    results_day(DAY, {user: [3 - i] * 6 for i, user in enumerate(users)})
    day = DailyDay.objects.get()

    def broken(**kwargs):
        raise RuntimeError("the notifications failed")

    monkeypatch.setattr("daily.services._results_notify", broken)
    with pytest.raises(RuntimeError):
        daily.day_close(day_id=day.pk, now=DAY_OVER)
    assert not PendingEvent.objects.exists()


def test_the_league_close_grants_promotions_and_diamond_at_once(players, record):  # noqa: F811
    gold = players(5, Division.GOLD)
    score(record, gold, [50, 40, 30, 20, 10])
    week = LeagueWeek.objects.get()
    league_week_close(week=week, now=WEEK_OVER)
    read_pending()
    week.refresh_from_db()
    assert held(gold[0]) == {"league_promotion": week.closed_at, "league_diamond": week.closed_at}
    assert held(gold[4]) == {}
    league_week_close(week=week, now=WEEK_OVER + timedelta(hours=1))  # replayed
    assert achievements_read_events() == [] and not PendingEvent.objects.exists()


def test_a_large_close_is_read_in_chunks_each_player_once(players, record, monkeypatch):  # noqa: F811
    monkeypatch.setattr("achievements.services.EVENT_CHUNK", 2)
    many = players(25, Division.BRONZE)
    score(record, many, list(range(len(many), 0, -1)))
    week = LeagueWeek.objects.get()
    league_week_close(week=week, now=WEEK_OVER)
    promoted = set(week.standings.filter(movement=Movement.UP).values_list("user_id", flat=True))
    assert len(promoted) >= 3  # more than one chunk
    awards = achievements_read_events(limit=1)  # one chunk of two
    assert len(awards) == 2 and PendingEvent.objects.get().after_user_id == max(
        a.user_id for a in awards
    )
    awards += achievements_read_events()
    assert sorted(a.user_id for a in awards) == sorted(promoted)
    assert {a.code for a in awards} == {"league_promotion"}
    assert not PendingEvent.objects.exists()

"""A player's results outside a match, read for the rules: daily deals and league weeks."""

from datetime import UTC, date, datetime, timedelta

import pytest

from achievements.selectors import player_event_facts
from daily.models import DailyDay, DailyEntry, DayStatus
from leagues.models import Division, LeagueStanding, LeagueWeek, Movement

pytestmark = pytest.mark.django_db

CLOSED = datetime(2026, 11, 10, 0, 5, tzinfo=UTC)


def day(players: int, *, on: date, status=DayStatus.CLOSED) -> DailyDay:
    return DailyDay.objects.create(date=on, status=status, players=players, closed_at=CLOSED)


def test_the_top_tenth_of_a_closed_day_rounds_up(player, stranger):
    big = day(20, on=date(2026, 11, 1))
    small = day(5, on=date(2026, 11, 2))
    DailyEntry.objects.create(day=big, user=player, rank=3)  # 3rd of 20: out
    DailyEntry.objects.create(day=small, user=player, rank=1)  # 1st of 5: in
    DailyEntry.objects.create(day=big, user=stranger, rank=2)  # 2nd of 20: in
    assert player_event_facts(user_id=player.pk).daily_top_tenth == (CLOSED,)
    assert player_event_facts(user_id=player.pk).daily_first == (CLOSED,)
    assert player_event_facts(user_id=stranger.pk).daily_top_tenth == (CLOSED,)
    assert player_event_facts(user_id=stranger.pk).daily_first == ()


def test_a_voided_entry_or_an_open_day_counts_for_nothing(player):
    open_day = day(10, on=date(2026, 11, 3), status=DayStatus.OPEN)
    closed = day(10, on=date(2026, 11, 4))
    DailyEntry.objects.create(day=open_day, user=player, rank=1)
    DailyEntry.objects.create(day=closed, user=player, rank=1, voided_at=CLOSED)
    facts = player_event_facts(user_id=player.pk)
    assert facts.daily_top_tenth == () and facts.daily_first == ()


def test_a_promotion_is_a_standing_that_moved_up_and_diamond_is_up_from_gold(player):
    starts = datetime(2026, 11, 2, tzinfo=UTC)
    weeks = [
        LeagueWeek.objects.create(
            starts_at=starts + timedelta(weeks=i),
            ends_at=starts + timedelta(weeks=i + 1),
            status="closed",
            closed_at=starts + timedelta(weeks=i + 1),
        )
        for i in range(3)
    ]
    for week, division, movement in (
        (weeks[0], Division.BRONZE, Movement.UP),
        (weeks[1], Division.SILVER, Movement.STAY),
        (weeks[2], Division.GOLD, Movement.UP),
    ):
        LeagueStanding.objects.create(
            week=week, user=player, division=division, rank=1, points=10, movement=movement
        )
    facts = player_event_facts(user_id=player.pk)
    assert sorted(facts.league_promotions) == [weeks[0].closed_at, weeks[2].closed_at]
    assert facts.league_diamond == (weeks[2].closed_at,)
    assert facts.tournament_wins == ()

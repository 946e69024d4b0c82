"""The day's standings: provisional while it is played, final once it is over, and
the rewards paid once (daily.services)."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.utils import timezone

from daily import services
from daily.models import DailyDay, DailyEntry, DailyPlay, DayStatus, PlayStatus
from daily.scoring import deal_scores
from economy.models import Currency, Transaction, TransactionKind
from economy.selectors import balances
from tests.daily.conftest import MADRID, results_day

pytestmark = pytest.mark.django_db

DAY = date(2026, 12, 5)
AFTER = timezone.datetime(2026, 12, 6, 0, 0, 1, tzinfo=MADRID)


@pytest.fixture
def trio(make_user):
    return make_user("ana"), make_user("bea"), make_user("cruz")


def coins(user) -> int:
    return balances(user.pk)[Currency.COINS]


def xp(user) -> int:
    return balances(user.pk)[Currency.XP]


def test_provisional_standings_compare_each_deal_with_those_who_finished_it(trio):
    ana, bea, cruz = trio
    results_day(
        DAY,
        {
            ana: [2, 1, -1, None, None, None],
            bea: [-1, 1, 2, 4, None, None],
            cruz: [2, None, None, None, None, None],
        },
    )
    day = services.standings_refresh(day_id=DailyDay.objects.get().pk)
    assert day.status == DayStatus.OPEN and day.players == 3 and day.standings_at is not None
    entries = {e.user: e for e in DailyEntry.objects.all()}
    # Deal 1: ana and cruz +2 (tie), bea -1: ana 75 %, cruz 75 %, bea 0 %.
    # Deal 2: ana and bea +1, alone together: 50 % each. Deal 3: bea beats ana: 100 / 0.
    # Deal 4: bea alone: 50 %.
    assert entries[ana].score == pytest.approx((75 + 50 + 0) / 3)
    assert entries[bea].score == pytest.approx((0 + 50 + 100 + 50) / 4)
    assert entries[cruz].score == pytest.approx(75)
    assert [entries[u].rank for u in (cruz, bea, ana)] == [1, 2, 3]
    assert entries[ana].matchpoints is None  # final only


def test_the_final_standings_count_unfinished_deals_as_the_worst(trio):
    ana, bea, cruz = trio
    lines = {
        ana: [2, 1, -1, 2, 1, 1],
        bea: [-1, 1, 2, 4, 2, -2],
        cruz: [2, None, None, None, None, None],
    }
    results_day(DAY, lines)
    closing = services.day_close(day_id=DailyDay.objects.get().pk, now=AFTER)
    assert closing.players == 3 and not closing.replayed
    day = DailyDay.objects.get()
    assert day.status == DayStatus.CLOSED and day.closed_at == AFTER
    # By hand, deal by deal, with daily.scoring: 2 per player beaten, 1 per tie.
    expected = {}
    for user in lines:
        total = 0
        for n in range(6):
            counts: dict[int, int] = {}
            for other in lines.values():
                if other[n] is not None:
                    counts[other[n]] = counts.get(other[n], 0) + 1
            unfinished = sum(1 for other in lines.values() if other[n] is None)
            scores = deal_scores(counts, unfinished=unfinished)
            mine = lines[user][n]
            total += scores.worst if mine is None else scores.by_result[mine]
        expected[user] = total
    entries = {e.user: e for e in DailyEntry.objects.all()}
    for user, total in expected.items():
        assert entries[user].matchpoints == total
        assert entries[user].score == pytest.approx(100 * total / (6 * 2 * 2))
    assert sorted(entries, key=lambda u: entries[u].rank) == sorted(
        expected, key=lambda u: -expected[u]
    )
    # Cruz's five deals never started are there now, not finished.
    assert DailyPlay.objects.filter(entry=entries[cruz], status=PlayStatus.EXPIRED).count() == 5
    assert DailyPlay.objects.filter(entry=entries[cruz]).count() == 6


def test_a_single_participant_scores_fifty_percent_and_wins_the_prize(player, settings):
    settings.DAILY_PRIZE_COINS, settings.DAILY_FINISH_XP = 100, 25
    results_day(DAY, {player: [1, 2, -1, 4, 1, -5]})
    before = coins(player)
    services.day_close(day_id=DailyDay.objects.get().pk, now=AFTER)
    entry = DailyEntry.objects.get()
    assert (entry.score, entry.rank) == (50.0, 1)
    assert (entry.prize_coins, entry.prize_xp) == (100, 25)
    assert coins(player) == before + 100 and xp(player) == 25


def test_rewards_xp_for_the_set_and_coins_for_the_top_tenth(make_user, settings):
    settings.DAILY_PRIZE_COINS, settings.DAILY_FINISH_XP, settings.DAILY_PRIZE_PERCENT = 100, 25, 10
    users = [make_user(f"p{i:02d}") for i in range(21)]
    # p00 and p01 tie at the top (+5 everywhere); the rest lower; p20 stops after 3.
    lines = {users[0]: [5] * 6, users[1]: [5] * 6}
    for i in range(2, 20):
        lines[users[i]] = [1 + (i % 3)] * 6
    lines[users[20]] = [5, 5, 5, None, None, None]
    results_day(DAY, lines)
    start = {u.pk: coins(u) for u in users}
    services.day_close(day_id=DailyDay.objects.get().pk, now=AFTER)
    entries = {e.user_id: e for e in DailyEntry.objects.all()}
    # 21 players: the top 10 % is 2 ranks; the two tied first both win.
    assert [entries[u.pk].rank for u in users[:2]] == [1, 1]
    for user in users:
        entry = entries[user.pk]
        prized = user in users[:2]
        assert entry.prize_coins == (100 if prized else 0)
        assert coins(user) - start[user.pk] == entry.prize_coins
        # XP for playing the set through: not for p20, who stopped.
        assert xp(user) == (0 if user == users[20] else 25)
    txns = Transaction.objects.filter(kind=TransactionKind.DAILY_PRIZE)
    assert txns.count() == 20
    assert set(txns.values_list("idempotency_key", flat=True)) == {
        f"daily-deal:2026-12-05:{u.pk}" for u in users[:20]
    }


def test_boosters_and_vip_multiply_the_xp_only(make_user, settings):
    from economy.models import Effect, Perk

    settings.DAILY_PRIZE_COINS, settings.DAILY_FINISH_XP = 100, 25
    ana, bea = make_user("ana"), make_user("bea")
    entries = results_day(DAY, {ana: [5] * 6, bea: [1] * 6})
    # Running when ana played the set through (noon), both: x2 x1.5 = x3.
    ends = entries[0].finished_at + timedelta(hours=1)
    Perk.objects.create(user=ana, effect=Effect.BOOSTER, ends_at=ends)
    Perk.objects.create(user=ana, effect=Effect.VIP, ends_at=ends)
    # Bea's ran out before she finished: nothing.
    Perk.objects.create(user=bea, effect=Effect.BOOSTER, ends_at=entries[1].finished_at)
    before = coins(ana)
    services.day_close(day_id=DailyDay.objects.get().pk, now=AFTER)
    assert xp(ana) == 75 and coins(ana) == before + 100
    assert xp(bea) == 25
    assert DailyEntry.objects.get(user=ana).prize_xp == 75


def test_a_redelivered_close_pays_once(trio):
    ana, bea, cruz = trio
    results_day(DAY, {ana: [1] * 6, bea: [2] * 6, cruz: [-1] * 6})
    day_id = DailyDay.objects.get().pk
    first = services.day_close(day_id=day_id, now=AFTER)
    paid = {u.pk: (coins(u), xp(u)) for u in trio}
    again = services.day_close(day_id=day_id, now=AFTER + timedelta(minutes=10))
    assert first.paid == 3 and again.replayed
    assert {u.pk: (coins(u), xp(u)) for u in trio} == paid
    assert Transaction.objects.filter(kind=TransactionKind.DAILY_PRIZE).count() == 3
    # Even paying again by hand moves nothing: one key per player and day.
    day = DailyDay.objects.get()
    DailyEntry.objects.update(paid_at=None)
    assert services.rewards_pay(day=day) == 0
    assert {u.pk: (coins(u), xp(u)) for u in trio} == paid


def test_days_missed_while_nothing_ran_are_closed_oldest_first(trio):
    ana, bea, _ = trio
    results_day(DAY, {ana: [1] * 6})
    results_day(DAY + timedelta(days=1), {bea: [1] * 6})
    closings = services.days_close_due(now=AFTER + timedelta(days=2))
    assert [c.day.date for c in closings] == [DAY, DAY + timedelta(days=1)]
    assert not DailyDay.objects.filter(status=DayStatus.OPEN).exists()
    assert services.days_close_due(now=AFTER + timedelta(days=2)) == []


def test_a_day_not_over_is_not_closed(player):
    results_day(DAY, {player: [1] * 6})
    with pytest.raises(ValueError):
        services.day_close(day_id=DailyDay.objects.get().pk, now=AFTER - timedelta(seconds=2))
    assert services.days_close_due(now=AFTER - timedelta(seconds=2)) == []
    assert DailyDay.objects.get().status == DayStatus.OPEN


def test_a_deal_still_in_play_at_midnight_is_stopped_and_counts_as_the_worst(make_user):
    from games.models import Match, MatchStatus, Seat, TableStatus
    from tests.daily.conftest import play_out

    ana, bea = make_user("ana"), make_user("bea")
    yesterday = timezone.now() - timedelta(days=1)
    results_day(services.day_of(yesterday), {bea: [1] * 6})
    table = services.daily_play(user=ana, now=yesterday)  # deal 1, left unfinished
    play_out(ana, table.pk, stop_after=0)
    assert Match.objects.get(table=table).status == MatchStatus.PLAYING
    closings = services.days_close_due()
    assert [c.stopped for c in closings] == [1]
    match = Match.objects.get(table=table)
    assert match.status == MatchStatus.ABORTED and match.table.status == TableStatus.CANCELLED
    assert not Seat.objects.filter(user=ana, live=True).exists()  # free to play today
    plays = DailyPlay.objects.filter(entry__user=ana).order_by("deal__number")
    assert [p.status for p in plays] == [PlayStatus.EXPIRED] * 6
    entry = DailyEntry.objects.get(user=ana)
    assert entry.finished_at is None and entry.prize_xp == 0 and entry.score == 0.0
    # Two players: each of ana's unfinished deals gave bea the 2 matchpoints of
    # beating her, of the 2 there were to get.
    bea_entry = DailyEntry.objects.get(user=bea)
    assert [p.matchpoints for p in bea_entry.plays.all()] == [2] * 6
    assert (bea_entry.score, bea_entry.rank, ana.daily_entries.get().rank) == (100.0, 1, 2)


def test_the_close_tells_each_player_of_the_day_once_that_the_results_are_ready(trio):
    from notifications.kinds import DAILY_RESULTS
    from notifications.models import Notification

    ana, bea, cruz = trio
    results_day(DAY, {ana: [1] * 6, bea: [2] * 6, cruz: [-1] * 6})
    day_id = DailyDay.objects.get().pk
    services.day_close(day_id=day_id, now=AFTER)
    services.day_close(day_id=day_id, now=AFTER + timedelta(minutes=10))
    rows = Notification.objects.filter(kind=DAILY_RESULTS)
    assert sorted(rows.values_list("user_id", flat=True)) == sorted(u.pk for u in trio)
    assert {n.params["day"] for n in rows} == {DAY.isoformat()}
    assert {n.link for n in rows} == {f"/daily/{DAY.isoformat()}/ranking/"}

"""Staff void a player's daily result, with a reason (logged): the day's standings are
computed again without it."""

from __future__ import annotations

from datetime import date

import pytest
from django.contrib.admin.models import LogEntry
from django.utils import timezone

from daily import errors, services
from daily.models import DailyDay, DailyEntry, DailyPlay, DayStatus, PlayStatus
from games.models import Match, MatchStatus, TableStatus
from tests.daily.conftest import MADRID, play_out, results_day

pytestmark = pytest.mark.django_db

DAY = date(2026, 12, 5)
AFTER = timezone.datetime(2026, 12, 6, 0, 0, 1, tzinfo=MADRID)


@pytest.fixture
def moderator(make_user):
    from django.contrib.auth.models import Group

    user = make_user("mod", is_staff=True)
    user.groups.add(Group.objects.get(name="moderators"))
    return user


def test_voiding_needs_a_reason_and_changes_nothing_without_one(make_user, moderator):
    ana, bea = make_user("ana"), make_user("bea")
    entries = results_day(DAY, {ana: [5] * 6, bea: [1] * 6})
    for reason in ("", "   "):
        with pytest.raises(errors.ReasonRequired) as refused:
            services.entry_void(staff_user=moderator, entry_id=entries[0].pk, reason=reason)
        assert refused.value.message == "Indica un motivo para anular este resultado."
    assert not DailyEntry.objects.filter(voided_at__isnull=False).exists()
    assert not LogEntry.objects.exists()


def test_only_staff_allowed_may_void(make_user):
    ana = make_user("ana")
    entries = results_day(DAY, {ana: [5] * 6})
    with pytest.raises(errors.NotAllowed):
        services.entry_void(staff_user=make_user("bea"), entry_id=entries[0].pk, reason="x")


def test_a_voided_result_leaves_the_provisional_standings(make_user, moderator):
    ana, bea, cruz = make_user("ana"), make_user("bea"), make_user("cruz")
    entries = results_day(DAY, {ana: [5] * 6, bea: [1] * 6, cruz: [-1] * 6})
    services.standings_refresh(day_id=DailyDay.objects.get().pk)
    assert DailyEntry.objects.get(user=bea).score == 50.0
    services.entry_void(staff_user=moderator, entry_id=entries[0].pk, reason="two accounts")
    voided = DailyEntry.objects.get(user=ana)
    assert voided.voided_at is not None and voided.voided_by == moderator
    assert voided.void_reason == "two accounts" and voided.score is None and voided.rank is None
    bea_entry, cruz_entry = DailyEntry.objects.get(user=bea), DailyEntry.objects.get(user=cruz)
    assert (bea_entry.score, bea_entry.rank) == (100.0, 1)
    assert (cruz_entry.score, cruz_entry.rank) == (0.0, 2)
    assert DailyDay.objects.get().players == 2
    log = LogEntry.objects.get()
    assert log.user == moderator and "two accounts" in log.change_message
    with pytest.raises(errors.AlreadyVoided):
        services.entry_void(staff_user=moderator, entry_id=entries[0].pk, reason="again")


def test_voiding_after_the_close_recomputes_the_final_standings_and_moves_no_coins(
    make_user, moderator, settings
):
    from economy.models import Transaction

    settings.DAILY_PRIZE_COINS = 100
    ana, bea, cruz = make_user("ana"), make_user("bea"), make_user("cruz")
    entries = results_day(DAY, {ana: [5] * 6, bea: [1] * 6, cruz: [-1] * 6})
    services.day_close(day_id=DailyDay.objects.get().pk, now=AFTER)
    paid = Transaction.objects.count()
    assert DailyEntry.objects.get(user=ana).prize_coins == 100
    services.entry_void(staff_user=moderator, entry_id=entries[0].pk, reason="cheating")
    assert DailyDay.objects.get().status == DayStatus.CLOSED
    bea_entry = DailyEntry.objects.get(user=bea)
    assert (bea_entry.rank, bea_entry.score) == (1, 100.0)
    assert bea_entry.prize_coins == 0  # each player's day is paid once, at the close
    assert Transaction.objects.count() == paid


def test_a_voided_player_cannot_go_on_and_their_deal_in_play_stops(player, moderator):
    table = services.daily_play(user=player)
    play_out(player, table.pk, stop_after=1)
    entry = DailyEntry.objects.get()
    services.entry_void(staff_user=moderator, entry_id=entry.pk, reason="bot account")
    match = Match.objects.get(table=table)
    assert match.status == MatchStatus.ABORTED
    assert match.table.status == TableStatus.CANCELLED
    assert DailyPlay.objects.get().status == PlayStatus.EXPIRED
    with pytest.raises(errors.EntryVoided):
        services.daily_play(user=player)

"""The table sweep after an outage (games/services/sweep.py): when it has not run for
longer than SWEEP_OUTAGE_SECONDS (beat, the workers or the database were down), the
time lost is given back to the players' clocks before anyone is timed out, marked
absent or abandoned; a bot's turn whose task was lost is still taken over at once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Match, Seat, SweepClock
from tests.games.conftest import live_match

pytestmark = pytest.mark.django_db


def _last_swept(seconds_ago: float) -> None:
    SweepClock.objects.update_or_create(
        pk=1, defaults={"swept_at": timezone.now() - timedelta(seconds=seconds_ago)}
    )


def _players_turn(table) -> tuple[Match, Seat]:
    for _ in range(50):
        match = live_match(table)
        seat = Seat.objects.get(table=table, position=match.to_play)
        if not seat.bot_controlled:
            return match, seat
        assert services.match_bot_move(table_id=table.pk)
    raise AssertionError("no player's turn came")


def test_the_first_sweep_starts_the_clock_and_gives_nothing_back(started_room):
    assert not SweepClock.objects.exists()
    services.tables_sweep()
    clock = SweepClock.objects.get()
    assert timezone.now() - clock.swept_at < timedelta(seconds=5)
    assert clock.resumed_at is None


def test_a_turn_that_ran_out_during_an_outage_is_given_the_time_back(started_room, settings):
    settings.SWEEP_OUTAGE_SECONDS = 6
    match, seat = _players_turn(started_room)
    services.seat_connect(user=seat.user, table_id=started_room.pk)
    # The sweep last ran 40 s ago; the player's turn ran out 5 s ago meanwhile.
    _last_swept(40)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=5))
    done = services.tables_sweep()
    assert done["timeouts"] == 0  # not timed out for the outage
    after = live_match(started_room)
    assert after.version == match.version
    # 38 s given back (the gap less one sweep period), a whole turn at most.
    left = (after.turn_deadline - timezone.now()).total_seconds()
    assert 25 < left <= settings.TURN_SECONDS_CARD
    assert SweepClock.objects.get().resumed_at is not None
    seat.refresh_from_db()
    assert seat.timeouts_in_row == 0 and not seat.bot_controlled


def test_a_gap_shorter_than_the_bound_changes_nothing(started_room, settings):
    settings.SWEEP_OUTAGE_SECONDS = 6
    match, seat = _players_turn(started_room)
    services.seat_connect(user=seat.user, table_id=started_room.pk)
    _last_swept(3)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert services.tables_sweep()["timeouts"] == 1
    assert SweepClock.objects.get().resumed_at is None


def test_a_bots_turn_whose_task_was_lost_is_taken_over_at_once_after_an_outage(
    started_room, settings
):
    settings.SWEEP_OUTAGE_SECONDS = 6
    for _ in range(50):
        match = live_match(started_room)
        if Seat.objects.get(table=started_room, position=match.to_play).bot_controlled:
            break
        Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now())
        assert services.match_timeout(match_id=match.pk, version=match.version)
    _last_swept(30)  # the worker (and so the sweep) was killed with the bot's task
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert services.tables_sweep()["timeouts"] == 1
    assert live_match(started_room).version == match.version + 1


def test_absences_and_heartbeats_are_moved_on_by_the_outage(started_room, player, settings):
    settings.SWEEP_OUTAGE_SECONDS = 6
    services.seat_connect(user=player, table_id=started_room.pk)
    # Absent just short of abandoning, and last heard from just short of stale, when
    # the sweep stopped 100 s ago: neither is judged on the time nobody watched.
    absent = Seat.objects.exclude(user=player).filter(table=started_room, kind="human").first()
    now = timezone.now()
    Seat.objects.filter(pk=absent.pk).update(
        absent_since=now - timedelta(seconds=settings.ABANDON_AFTER_SECONDS + 50)
    )
    Seat.objects.filter(table=started_room, user=player).update(
        seen_at=now - timedelta(seconds=settings.PRESENCE_STALE_SECONDS + 50)
    )
    _last_swept(100)
    done = services.tables_sweep()
    assert done["abandoned"] == 0 and done["presence_lost"] == 0
    seat = Seat.objects.get(table=started_room, user=player)
    assert seat.connections == 1 and not seat.bot_controlled
    assert not Seat.objects.get(pk=absent.pk).abandoned


def test_no_shows_wait_the_grace_again_after_an_outage(started_room, partner, opponent, settings):
    settings.SWEEP_OUTAGE_SECONDS = 6
    for user in (partner, opponent):
        services.seat_connect(user=user, table_id=started_room.pk)
    Match.objects.filter(table=started_room).update(
        started_at=timezone.now() - timedelta(seconds=settings.ABSENCE_CONNECT_GRACE_SECONDS + 1)
    )
    _last_swept(60)
    assert services.tables_sweep()["no_shows"] == 0  # the player may be reconnecting
    SweepClock.objects.update(
        resumed_at=timezone.now() - timedelta(seconds=settings.ABSENCE_CONNECT_GRACE_SECONDS + 1)
    )
    assert services.tables_sweep()["no_shows"] == 1

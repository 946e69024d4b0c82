"""What counts as a timed-out turn in the reputation (docs/fairplay.md): a turn a bot
played because the player's clock ran out while they were there. Turns played for a
player who is away (their socket closed: a bot plays at once) or who abandoned are
not theirs, and those of a connection found lost afterwards are forgiven."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import Match, MatchSeat, Seat
from tests.games.conftest import drive_bots, live_match

pytestmark = pytest.mark.django_db


def _players_turn(table) -> tuple[Match, Seat]:
    drive_bots(table)
    match = live_match(table)
    return match, Seat.objects.get(table=table, position=match.to_play)


def _run_out(table) -> Match:
    """The clock of the seat to play runs out and the timed-out move is made."""
    match = live_match(table)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert services.match_timeout(match_id=match.pk, version=match.version)
    return live_match(table)


def _timeouts(match, position) -> int:
    return MatchSeat.objects.get(match=match, position=position).timeouts


def test_a_present_players_turn_that_runs_out_counts(started_room):
    match, seat = _players_turn(started_room)
    services.seat_connect(user=seat.user, table_id=started_room.pk)
    _run_out(started_room)
    assert _timeouts(match, seat.position) == 1
    assert Seat.objects.get(pk=seat.pk).timeouts_in_row == 1


def test_turns_played_for_an_absent_player_do_not_count(started_room):
    match, seat = _players_turn(started_room)
    services.seat_connect(user=seat.user, table_id=started_room.pk)
    services.seat_disconnect(user=seat.user, table_id=started_room.pk)  # away: a bot plays
    assert Seat.objects.get(pk=seat.pk).bot_controlled
    # Even when the bot runner is late and the safety net's timeout plays the move.
    _run_out(started_room)
    assert _timeouts(match, seat.position) == 0


def _to_turn_of(table, position: int) -> Match:
    """Moves the match on (bots move, other people's clocks run out) until `position`
    is to play."""
    from games import bot_runner

    for _ in range(200):
        match = live_match(table)
        if match.to_play == position:
            return match
        if Seat.objects.get(table=table, position=match.to_play).bot_controlled:
            assert bot_runner.play_one(table.pk)
        else:
            _run_out(table)
    raise AssertionError("the turn never came back")


def test_a_player_absent_after_three_timeouts_counts_three_and_no_more(started_room, settings):
    settings.ABSENCE_AFTER_TIMEOUTS = 3
    match, seat = _players_turn(started_room)
    services.seat_connect(user=seat.user, table_id=started_room.pk)
    for _ in range(3):
        _to_turn_of(started_room, seat.position)
        _run_out(started_room)
    assert Seat.objects.get(pk=seat.pk).absent_since is not None  # away now: a bot plays
    _to_turn_of(started_room, (seat.position + 1) % 4)
    _to_turn_of(started_room, seat.position)
    _run_out(started_room)  # the safety net's timeout of a bot-controlled seat
    assert _timeouts(match, seat.position) == 3


def test_the_turns_of_a_connection_found_lost_are_forgiven(started_room, settings):
    match, seat = _players_turn(started_room)
    services.seat_connect(user=seat.user, table_id=started_room.pk)
    # The socket's process died: nobody closes it, its turn runs out meanwhile.
    silent_since = timezone.now() - timedelta(seconds=settings.PRESENCE_STALE_SECONDS + 5)
    Seat.objects.filter(pk=seat.pk).update(seen_at=silent_since)
    _run_out(started_room)
    assert _timeouts(match, seat.position) == 1
    assert services.seat_presence_lost(table_id=started_room.pk, position=seat.position)
    assert _timeouts(match, seat.position) == 0

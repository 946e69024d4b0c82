"""A seat whose socket a web process's restart (4500) or death closed is reconnecting:
its turn does not run out while the page comes back within
PRESENCE_RECONNECT_GRACE_SECONDS, a page that comes back gets the time it lost, and
one that never does is absent (a bot plays), never charged a timed-out turn
(docs/operations.md, "When something dies")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.models import ActionSource, Match, MatchAction, MatchSeat, Seat, WebProcess
from tests.games.conftest import drive_bots, live_match

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _players_turn_closed_by_a_restart(table, users) -> tuple[Match, Seat]:
    """Everyone connected; the player to move loses their socket to a restart, and
    their turn's deadline has just passed."""
    for user in users:
        services.seat_connect(user=user, table_id=table.pk)
    drive_bots(table)  # a player's turn now
    match = live_match(table)
    seat = Seat.objects.get(table=table, position=match.to_play)
    services.seat_disconnect(user=seat.user, table_id=table.pk, restarting=True)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    return live_match(table), Seat.objects.get(pk=seat.pk)


def _timeouts(match: Match, position: int) -> int:
    return MatchSeat.objects.get(match=match, position=position).timeouts


def test_a_reconnecting_players_turn_waits_for_the_grace_instead_of_running_out(
    started_room, player, partner
):
    match, seat = _players_turn_closed_by_a_restart(started_room, [player, partner])
    assert seat.reconnect_by > timezone.now() and seat.absent_since is None
    assert not services.match_timeout(match_id=match.pk, version=match.version)
    waited = live_match(started_room)
    assert waited.version == match.version  # no move was made for them
    assert waited.turn_deadline == seat.reconnect_by
    assert _timeouts(match, seat.position) == 0


def test_a_player_back_within_the_grace_gets_the_time_they_lost(
    started_room, player, partner, settings
):
    match, seat = _players_turn_closed_by_a_restart(started_room, [player, partner])
    services.match_timeout(match_id=match.pk, version=match.version)
    before = live_match(started_room).turn_deadline
    services.seat_connect(user=seat.user, table_id=started_room.pk)
    back = Seat.objects.get(pk=seat.pk)
    assert back.reconnect_by is None and back.connections == 1 and not back.bot_controlled
    deadline = live_match(started_room).turn_deadline
    longest = max(settings.TURN_SECONDS_BID, settings.TURN_SECONDS_CARD)
    assert before < deadline <= timezone.now() + timedelta(seconds=longest)


def test_a_player_not_back_after_the_grace_is_absent_and_not_charged_a_timeout(
    started_room, player, partner
):
    match, seat = _players_turn_closed_by_a_restart(started_room, [player, partner])
    Seat.objects.filter(pk=seat.pk).update(reconnect_by=timezone.now() - timedelta(seconds=1))
    assert services.match_timeout(match_id=match.pk, version=match.version)
    gone = Seat.objects.get(pk=seat.pk)
    assert gone.absent_since is not None and gone.bot_controlled
    last = MatchAction.objects.filter(match=match).order_by("-number").first()
    assert last.source == ActionSource.TIMEOUT and last.seat == seat.position
    assert _timeouts(match, seat.position) == 0  # the bot's move, not their timed-out turn


def test_a_connected_players_turn_still_runs_out_and_counts(started_room, player, partner):
    for user in [player, partner]:
        services.seat_connect(user=user, table_id=started_room.pk)
    drive_bots(started_room)
    match = live_match(started_room)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert services.match_timeout(match_id=match.pk, version=match.version)
    assert _timeouts(match, match.to_play) == 1


def test_turns_run_out_while_a_dead_process_still_counted_the_socket_are_forgiven(
    started_room, settings
):
    """kill -9: until the sweep finds the process silent, its sockets still count, so a
    turn of a player whose page was reconnecting runs out as a present player's; once
    the process is found dead, the turns that ran out since its last beat are taken
    off the player's timed-out turns."""
    dead = "dead-process"
    drive_bots(started_room)
    match = live_match(started_room)
    position = match.to_play
    to_play = Seat.objects.get(table=started_room, position=position).user
    services.seat_connect(user=to_play, table_id=started_room.pk, process=dead)
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert services.match_timeout(match_id=match.pk, version=match.version)
    assert _timeouts(match, position) == 1
    # Its last beat was before the turn ran out, longer ago than the bound now.
    WebProcess.objects.filter(pk=dead).update(
        heartbeat_at=timezone.now() - timedelta(seconds=settings.WEB_PROCESS_STALE_SECONDS + 1)
    )
    assert services.tables_sweep()["processes_gone"] >= 1
    assert _timeouts(match, position) == 0

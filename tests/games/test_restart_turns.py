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


def _players_turn_on_a_killed_process(table, settings, *, beat_ago: float):
    """The player to move holds one socket, on a web process whose last beat was
    `beat_ago` seconds ago (kill -9: its sockets still count), and their turn's
    deadline has just passed."""
    dead = "killed-process"
    drive_bots(table)
    match = live_match(table)
    position = match.to_play
    to_play = Seat.objects.get(table=table, position=position).user
    services.seat_connect(user=to_play, table_id=table.pk, process=dead)
    WebProcess.objects.filter(pk=dead).update(
        heartbeat_at=timezone.now() - timedelta(seconds=beat_ago)
    )
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    return live_match(table), to_play, position


def test_a_connected_players_turn_runs_out_while_their_process_beats(started_room, settings):
    # Its last beat is within a period and a half: the process is alive, the player present.
    match, _user, position = _players_turn_on_a_killed_process(
        started_room, settings, beat_ago=settings.WEB_PROCESS_HEARTBEAT_SECONDS
    )
    assert services.match_timeout(match_id=match.pk, version=match.version)
    assert _timeouts(match, position) == 1


def test_a_turn_waits_while_the_only_process_holding_the_players_socket_is_silent(
    started_room, settings
):
    """kill -9: the process stopped beating, the sweep has not yet counted its sockets
    off (WEB_PROCESS_STALE_SECONDS), and the page is reconnecting elsewhere: the turn
    waits for the sweep's verdict instead of running out for a player who could not
    play; the page that comes back (to another process) gets the time since the dead
    process's last beat."""
    beat_ago = 2 * settings.WEB_PROCESS_HEARTBEAT_SECONDS
    match, user, position = _players_turn_on_a_killed_process(
        started_room, settings, beat_ago=beat_ago
    )
    last_beat = WebProcess.objects.get(pk="killed-process").heartbeat_at
    assert not services.match_timeout(match_id=match.pk, version=match.version)
    waited = live_match(started_room)
    assert waited.version == match.version  # no move was made for them
    assert waited.turn_deadline == last_beat + timedelta(
        seconds=settings.WEB_PROCESS_STALE_SECONDS + settings.TABLE_SWEEP_SECONDS
    )
    assert _timeouts(match, position) == 0

    # Back through the other process: the lost time is given to the turn.
    before = timezone.now()
    services.seat_connect(user=user, table_id=started_room.pk, process="surviving-process")
    back = live_match(started_room)
    longest = max(settings.TURN_SECONDS_BID, settings.TURN_SECONDS_CARD)
    assert back.turn_deadline > waited.turn_deadline
    assert back.turn_deadline <= timezone.now() + timedelta(seconds=longest)
    assert back.turn_deadline >= min(
        waited.turn_deadline + (before - last_beat), before + timedelta(seconds=longest)
    )
    # Now a process that beats holds a socket: the turn runs out as any present player's.
    Match.objects.filter(pk=match.pk).update(turn_deadline=timezone.now() - timedelta(seconds=1))
    assert services.match_timeout(match_id=match.pk, version=match.version)
    assert _timeouts(match, position) == 1


def test_a_turn_waits_no_longer_than_the_sweeps_verdict_on_a_silent_process(started_room, settings):
    """Past the time by which the sweep counts a silent process's sockets off, the turn
    runs out (the sweep then forgives it if the process is found dead)."""
    beat_ago = settings.WEB_PROCESS_STALE_SECONDS + settings.TABLE_SWEEP_SECONDS + 1
    match, _user, position = _players_turn_on_a_killed_process(
        started_room, settings, beat_ago=beat_ago
    )
    assert services.match_timeout(match_id=match.pk, version=match.version)
    assert _timeouts(match, position) == 1
    assert services.tables_sweep()["processes_gone"] >= 1
    assert _timeouts(match, position) == 0  # forgiven: it ran out after the last beat

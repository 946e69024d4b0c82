"""Which web process holds each seat's sockets (`Seat.sockets`, `WebProcess`): a
killed process's sockets stop counting once the sweep finds it silent for
WEB_PROCESS_STALE_SECONDS, a live one's stay, two processes' counts add up, and a
graceful exit counts itself off (docs/operations.md, "Mechanisms")."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from games import services
from games.models import Seat, WebProcess

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

DEAD, ALIVE = "dead-process", "live-process"


def _seat(table, user) -> Seat:
    return Seat.objects.get(table=table, user=user)


def _silent(process: str, settings, extra: float = 1) -> None:
    """As if `process` died: its last beat older than the bound."""
    WebProcess.objects.filter(pk=process).update(
        heartbeat_at=timezone.now() - timedelta(seconds=settings.WEB_PROCESS_STALE_SECONDS + extra)
    )


def test_each_socket_is_counted_for_its_process_and_the_counts_add_up(started_room, player):
    services.seat_connect(user=player, table_id=started_room.pk, process=DEAD)
    services.seat_connect(user=player, table_id=started_room.pk, process=ALIVE)
    services.seat_connect(user=player, table_id=started_room.pk, process=ALIVE)
    seat = _seat(started_room, player)
    assert seat.sockets == {DEAD: 1, ALIVE: 2}
    assert seat.connections == 3
    assert set(WebProcess.objects.values_list("pk", flat=True)) == {DEAD, ALIVE}
    services.seat_disconnect(user=player, table_id=started_room.pk, process=ALIVE)
    seat.refresh_from_db()
    assert seat.sockets == {DEAD: 1, ALIVE: 1} and seat.connections == 2


def test_a_dead_processs_sockets_are_dropped_by_the_sweep_and_a_live_ones_kept(
    started_room, player, partner, settings
):
    # The player reconnected to the live process after theirs died; the partner's
    # only socket was on the dead one.
    services.seat_connect(user=player, table_id=started_room.pk, process=DEAD)
    services.seat_connect(user=player, table_id=started_room.pk, process=ALIVE)
    services.seat_connect(user=partner, table_id=started_room.pk, process=DEAD)
    _silent(DEAD, settings)
    assert services.tables_sweep()["processes_gone"] == 2
    seat = _seat(started_room, player)
    assert seat.sockets == {ALIVE: 1} and seat.connections == 1  # no extra count
    assert not seat.bot_controlled
    gone = _seat(started_room, partner)
    assert gone.sockets == {} and gone.connections == 0  # counts as disconnected
    # The reconnect grace applies (as after a restart's close): no absence yet.
    assert gone.absent_since is None and gone.reconnect_by > timezone.now()
    assert not WebProcess.objects.filter(pk=DEAD).exists()
    assert WebProcess.objects.filter(pk=ALIVE).exists()
    assert services.tables_sweep()["processes_gone"] == 0  # once only


def test_after_the_grace_a_seat_left_by_a_dead_process_is_absent_and_a_bot_plays(
    started_room, partner, settings
):
    services.seat_connect(user=partner, table_id=started_room.pk, process=DEAD)
    _silent(DEAD, settings)
    services.tables_sweep()
    Seat.objects.filter(user=partner).update(reconnect_by=timezone.now() - timedelta(seconds=1))
    # The match started longer ago than the connect grace.
    started_room.matches.update(
        started_at=timezone.now() - timedelta(seconds=settings.ABSENCE_CONNECT_GRACE_SECONDS + 1)
    )
    assert services.tables_sweep()["no_shows"] == 3  # the others never connected
    seat = _seat(started_room, partner)
    assert seat.absent_since is not None and seat.bot_controlled


def test_the_sweep_drops_a_process_within_the_bound_not_before(started_room, player, settings):
    services.seat_connect(user=player, table_id=started_room.pk, process=DEAD)
    _silent(DEAD, settings, extra=-2)  # silent, but not yet for the whole bound
    assert services.tables_sweep()["processes_gone"] == 0
    assert _seat(started_room, player).connections == 1
    _silent(DEAD, settings, extra=0.5)
    assert services.tables_sweep()["processes_gone"] == 1
    assert _seat(started_room, player).connections == 0


def test_a_beat_keeps_a_process_and_its_counts(started_room, player, settings):
    services.seat_connect(user=player, table_id=started_room.pk, process=ALIVE)
    _silent(ALIVE, settings)
    services.web_process_beat(process=ALIVE)  # its heartbeat, just in time
    assert services.tables_sweep()["processes_gone"] == 0
    assert _seat(started_room, player).sockets == {ALIVE: 1}


def test_a_graceful_exit_counts_its_sockets_off_and_deletes_its_row(started_room, player, partner):
    services.seat_connect(user=player, table_id=started_room.pk, process=DEAD)
    services.seat_connect(user=partner, table_id=started_room.pk, process=ALIVE)
    assert services.web_process_left(process=DEAD) == 1
    assert _seat(started_room, player).connections == 0
    assert _seat(started_room, partner).sockets == {ALIVE: 1}
    assert not WebProcess.objects.filter(pk=DEAD).exists()


def test_a_count_from_before_processes_were_named_is_counted_down_as_it_was(started_room, player):
    Seat.objects.filter(user=player).update(connections=1, sockets={})
    services.seat_connect(user=player, table_id=started_room.pk, process=ALIVE)
    services.seat_disconnect(user=player, table_id=started_room.pk, process=DEAD)
    seat = _seat(started_room, player)
    assert seat.sockets == {ALIVE: 1} and seat.connections == 1
    # A process whose count the sweep dropped never takes another's.
    services.seat_disconnect(user=player, table_id=started_room.pk, process=DEAD)
    seat.refresh_from_db()
    assert seat.sockets == {ALIVE: 1} and seat.connections == 1


def test_concurrent_connects_of_two_processes_all_count(started_room, player):
    errors: list[BaseException] = []

    def connect(process: str) -> None:
        try:
            for _ in range(5):
                services.seat_connect(user=player, table_id=started_room.pk, process=process)
        except BaseException as error:  # pragma: no cover - reported below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=connect, args=(p,)) for p in (DEAD, ALIVE, ALIVE)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors
    seat = _seat(started_room, player)
    assert seat.sockets == {DEAD: 5, ALIVE: 10} and seat.connections == 15

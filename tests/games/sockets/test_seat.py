"""The seat a table socket shows (games/sockets/seat.py): the latest state decides,
an older one never moves it back, and the process vouches for one seat at a time."""

from __future__ import annotations

import pytest

from games.sockets import heartbeat
from games.sockets.seat import SeatShown


async def _vouch(seat_ids):
    return None


@pytest.fixture
def shown():
    positions = []
    seat = SeatShown(vouch=_vouch, changed=positions.append)
    yield seat, positions
    seat.set(None, None)


async def test_a_later_state_moves_the_seat_and_an_older_one_does_not(shown):
    seat, positions = shown
    assert seat.adopt(5, 1, 11)
    assert (seat.position, seat.frame_key, seat.seat_id) == (1, "1", 11)
    assert not seat.adopt(4, 2, 12)  # older: ignored
    assert seat.position == 1
    assert seat.adopt(5, None, None)  # as recent: the user left the seat
    assert (seat.position, seat.frame_key) == (None, "watch")
    assert positions == [1, None]


async def test_the_process_vouches_for_the_shown_seat_only(shown):
    seat, _positions = shown
    seat.adopt(1, 0, 21)
    assert 21 in heartbeat.open_seats()
    seat.adopt(2, 3, 24)
    assert 24 in heartbeat.open_seats() and 21 not in heartbeat.open_seats()


async def test_a_broadcast_older_than_the_last_frame_is_dropped(shown):
    seat, _positions = shown
    seat.adopt(7, 0, None)
    assert not seat.newer(6)
    assert seat.newer(7) and seat.newer(8) and seat.seq == 8
    assert seat.newer(None)  # a message without a seq is never dropped


async def test_a_player_moved_by_a_broadcast_shows_the_new_seat_a_watcher_stays(shown):
    seat, _positions = shown
    seat.moved({"42": [2, 31]}, 42)
    assert seat.position is None  # a watcher's socket never takes a seat this way
    seat.adopt(1, 0, 30)
    seat.moved({"42": [2, 31]}, 42)
    assert (seat.position, seat.seat_id) == (2, 31)
    seat.moved({"7": [0, 30]}, 42)  # no longer listed: the seat was freed
    assert (seat.position, seat.seat_id) == (None, None)

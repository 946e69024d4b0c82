"""A stake table's socket while its player leaves and sits again (games/sockets/consumers.py)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games.models import Match
from games.sockets import admission
from games.state import rebuild
from online import services as online
from online.services import stakes
from tests.games.hidden import leaks_in_frame
from tests.games.sockets.test_consumers import TIMEOUT, communicator, receive

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


class FirstFreeSeat:
    """Seats each player at the first free seat, so the test knows who sits where."""

    @staticmethod
    def choice(free):
        return free[0]


async def test_leaving_and_sitting_again_while_the_socket_connects_shows_the_new_seat_only(
    players, monkeypatch
):
    """Ana sits (seat 0) and opens the table's socket; before it reads the state she
    leaves, Carla takes seat 0 and Ana sits again (seat 2); the fourth player starts
    the match. Ana's socket shows seat 2, never Carla's cards."""
    monkeypatch.setattr(stakes, "rng", FirstFreeSeat())
    ana, bea, carla, dora = await database_sync_to_async(players)(4)
    table = await database_sync_to_async(online.stake_table_open)(user=ana, stake=100)
    await database_sync_to_async(online.stake_table_sit)(user=bea, table_id=table.pk)
    admit = admission.read

    def admit_then_move(user, table_id):
        access = admit(user, table_id)
        online.stake_table_leave(user=ana, table_id=table.pk)
        online.stake_table_sit(user=carla, table_id=table.pk)
        online.stake_table_sit(user=ana, table_id=table.pk)
        online.stake_table_sit(user=dora, table_id=table.pk)  # the fourth: the match starts
        return access

    monkeypatch.setattr(admission, "read", admit_then_move)
    comm = communicator(ana, table.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    frame = await receive(comm)
    while frame["type"] != "state":
        frame = await receive(comm)
    match = await database_sync_to_async(Match.objects.get)(table=table)
    state = await database_sync_to_async(rebuild)(match)
    assert frame["seat"] == 2
    assert frame["view"]["hand"]["hand"] == list(state.hand.hand_of(2))
    assert not leaks_in_frame(frame, state, 2)
    await comm.disconnect()

"""A ban at the tables: the seat goes to a bot, the match goes on, the sockets close."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import Group

from accounts.services import user_ban
from games.models import Match, MatchSeat, MatchStatus, Seat, SeatKind, TableStatus
from games.sockets.routing import websocket_urlpatterns
from tests.games.conftest import live_match, play_out

TIMEOUT = 10


@pytest.fixture
def moderator(make_user):
    user = make_user("mod", is_staff=True)
    user.groups.add(Group.objects.get(name="moderators"))
    return user


@pytest.mark.django_db
def test_a_ban_during_a_live_match_gives_the_seat_to_a_bot_and_the_match_goes_on(
    started_room, player, partner, opponent, moderator, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        user_ban(user=partner, staff_user=moderator, reason="abuse in chat")
    seat = Seat.objects.get(table=started_room, position=2)
    assert seat.abandoned and not seat.live and seat.bot_controlled
    match = live_match(started_room)
    assert match.status == MatchStatus.PLAYING
    # The others play on; a bot plays the banned player's seat to the end.
    finished = play_out(started_room, {0: player, 1: opponent, 2: None, 3: None})
    assert finished.status == MatchStatus.FINISHED
    banned_seat = MatchSeat.objects.get(match=finished, position=2)
    assert banned_seat.abandoned and banned_seat.won is False


@pytest.mark.django_db
def test_a_ban_frees_the_seat_in_a_room_that_has_not_started(
    room, partner, moderator, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        user_ban(user=partner, staff_user=moderator, reason="spam")
    seat = Seat.objects.get(table=room, position=2)
    assert seat.kind == SeatKind.EMPTY and seat.user is None
    assert room.__class__.objects.get(pk=room.pk).status == TableStatus.OPEN


@pytest.mark.django_db
def test_a_ban_without_a_table_changes_nothing_at_the_tables(
    stranger, moderator, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        user_ban(user=stranger, staff_user=moderator, reason="spam")
    assert not Seat.objects.filter(user=stranger).exists()


def communicator(user, table_id) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tables/{table_id}/")
    comm.scope["user"] = user
    return comm


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_a_ban_closes_the_banned_players_socket_at_once_and_the_others_play_on(
    started_room, player, partner, moderator
):
    banned = communicator(partner, started_room.pk)
    other = communicator(player, started_room.pk)
    assert (await banned.connect(timeout=TIMEOUT))[0]
    assert (await other.connect(timeout=TIMEOUT))[0]
    await banned.receive_from(timeout=TIMEOUT)  # the state frame
    await other.receive_from(timeout=TIMEOUT)

    await database_sync_to_async(user_ban)(user=partner, staff_user=moderator, reason="abuse")

    closed = await banned.receive_output(timeout=TIMEOUT)
    assert closed == {"type": "websocket.close", "code": 4403}
    while True:  # the others are told the seat was abandoned; nobody's socket is closed
        frame = json.loads(await other.receive_from(timeout=TIMEOUT))
        if any(e.get("type") == "seat_abandoned" for e in frame.get("events", [])):
            break
    assert frame["table"]["seats"][2]["abandoned"]
    match = await database_sync_to_async(Match.objects.get)(table=started_room)
    assert match.status == MatchStatus.PLAYING
    await other.disconnect()


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
async def test_a_banned_user_cannot_open_a_table_or_lobby_socket(started_room, player, moderator):
    await database_sync_to_async(user_ban)(user=player, staff_user=moderator, reason="abuse")
    from tests.games.sockets.test_consumers import refused_with

    assert await refused_with(communicator(player, started_room.pk)) == 4403
    lobby = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    lobby.scope["user"] = player
    assert await refused_with(lobby) == 4403

"""Partners over the lobby socket (docs/protocol.md, "Lobby socket"): a partner
request and an invitation to queue together reach the other player's lobby at once
(`invitations`, and `partners` for the partners page); the lobby socket answers
anything it is sent with an error frame and stays open."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.sockets.routing import websocket_urlpatterns
from online import services
from social import services as social

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

TIMEOUT = 10


async def lobby_of(user) -> WebsocketCommunicator:
    lobby = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    lobby.scope["user"] = user
    connected, _ = await lobby.connect(timeout=TIMEOUT)
    assert connected
    return lobby


async def frames(lobby, count: int) -> list[dict]:
    return [json.loads(await lobby.receive_from(timeout=TIMEOUT)) for _ in range(count)]


def befriend(a, b):
    request = social.friend_request_send(user=a, username=b.username)
    social.friend_request_accept(user=b, request_id=request.pk)


async def test_a_partner_request_reaches_the_friends_lobby_live(player, make_user):
    friend = await database_sync_to_async(make_user)("pablo")
    await database_sync_to_async(befriend)(player, friend)
    lobby = await lobby_of(friend)
    await database_sync_to_async(social.partner_request_send)(user=player, username="pablo")
    got = await frames(lobby, 2)
    assert {"type": "lobby", "what": "invitations"} in got
    assert {"type": "lobby", "what": "partners"} in got
    await lobby.disconnect()


async def test_an_invitation_to_queue_together_reaches_the_partners_lobby_live(player, make_user):
    friend = await database_sync_to_async(make_user)("pablo")

    def pair():
        befriend(player, friend)
        asked = social.partner_request_send(user=player, username="pablo")
        social.partner_request_accept(user=friend, request_id=asked.pk)

    await database_sync_to_async(pair)()
    lobby = await lobby_of(friend)
    await database_sync_to_async(services.queue_partner_invite)(user=player, username="pablo")
    assert await frames(lobby, 1) == [{"type": "lobby", "what": "invitations"}]
    await lobby.disconnect()


@pytest.mark.parametrize(
    "message",
    [
        "{}",
        "not json",
        json.dumps({"type": "queue_partner", "username": "pablo"}),
        json.dumps({"type": "accept", "invitation": "1; DROP TABLE"}),
        json.dumps([1, 2, 3]),
        "x" * 5000,
    ],
)
async def test_the_lobby_socket_answers_any_message_with_an_error_and_stays_open(player, message):
    lobby = await lobby_of(player)
    await lobby.send_to(text_data=message)
    assert await frames(lobby, 1) == [{"type": "error", "code": "unknown_type"}]
    await lobby.send_to(text_data="{}")
    assert await frames(lobby, 1) == [{"type": "error", "code": "unknown_type"}]
    await lobby.disconnect()

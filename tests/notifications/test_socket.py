"""The bell's count over the existing lobby socket; bad messages on that socket."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator

from games.sockets.routing import websocket_urlpatterns
from notifications import kinds, services

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

TIMEOUT = 10


def lobby_of(user) -> WebsocketCommunicator:
    lobby = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    lobby.scope["user"] = user
    return lobby


def _send(user, key):
    return services.notification_send(
        user=user, kind=kinds.FRIEND_REQUEST, params={"name": "x"}, link="/", dedup_key=key
    )


async def next_count(lobby) -> dict:
    while True:
        frame = json.loads(await lobby.receive_from(timeout=TIMEOUT))
        if frame["type"] == "notifications":
            return frame


async def test_a_notification_and_its_reading_reach_the_lobby_socket_as_the_count(player):
    lobby = lobby_of(player)
    connected, _ = await lobby.connect(timeout=TIMEOUT)
    assert connected
    first = await database_sync_to_async(_send)(player, "1")
    assert await next_count(lobby) == {"type": "notifications", "unread": 1}
    await database_sync_to_async(_send)(player, "2")
    assert await next_count(lobby) == {"type": "notifications", "unread": 2}
    await database_sync_to_async(services.notification_read)(user=player, notification_id=first.pk)
    assert await next_count(lobby) == {"type": "notifications", "unread": 1}
    await lobby.disconnect()


async def test_another_players_notification_does_not_reach_my_socket(player, stranger):
    lobby = lobby_of(player)
    await lobby.connect(timeout=TIMEOUT)
    await database_sync_to_async(_send)(stranger, "1")
    assert await lobby.receive_nothing(timeout=0.5)
    await lobby.disconnect()


@pytest.mark.parametrize(
    "bad",
    [
        "not json",
        "{}",
        '{"type": "notifications", "unread": -1}',
        '{"type": "notifications.count", "unread": 5}',
        '{"type": "read", "id": "abc"}',
        "[]",
        "x" * 70000,
    ],
)
async def test_bad_messages_on_the_lobby_socket_get_an_error_and_change_nothing(player, bad):
    lobby = lobby_of(player)
    await lobby.connect(timeout=TIMEOUT)
    await lobby.send_to(text_data=bad)
    frame = json.loads(await lobby.receive_from(timeout=TIMEOUT))
    assert frame["type"] == "error"
    # The socket still works: a real count still arrives.
    await database_sync_to_async(_send)(player, "after")
    assert await next_count(lobby) == {"type": "notifications", "unread": 1}
    await lobby.disconnect()


async def test_a_malformed_count_message_in_the_group_is_not_sent_on(player):
    from channels.layers import get_channel_layer

    from accounts.services import user_group_name

    lobby = lobby_of(player)
    await lobby.connect(timeout=TIMEOUT)
    layer = get_channel_layer()
    for unread in (-3, "7", None):
        await layer.group_send(
            user_group_name(player.pk), {"type": "notifications.count", "unread": unread}
        )
    assert await lobby.receive_nothing(timeout=0.5)
    await lobby.disconnect()

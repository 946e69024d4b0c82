"""A table socket across a Redis restart (issue 42): the channel layer on a private
redis-server is killed and started again, empty, under an open socket, and the next
move's frames still reach it, with no process restart (docs/operations.md,
"Mechanisms")."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from games import bot_runner, services
from games.models import Match, Table
from games.state import rebuild
from tests.games.sockets.test_consumers import communicator, receive, receive_until
from tests.redis_server import redis_server

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def private_layer(tmp_path, settings):
    with redis_server(tmp_path) as server:
        settings.CHANNEL_LAYERS = {
            "default": {
                "BACKEND": "cuatrola_site.channel_layer.PipelinedPubSubChannelLayer",
                "CONFIG": {"hosts": [server.url], "prefix": "restart-test."},
            }
        }
        yield server


@database_sync_to_async
def _move(table_id: int, users: dict[int, object]) -> int:
    """The player to play moves (the bot's seat by its runner); returns the new version."""
    match = Match.objects.get(table_id=table_id)
    if match.to_play == 3:
        bot_runner.play_one(table_id)
    else:
        action = rebuild(match).legal_actions()[0]
        services.match_play(
            user=users[match.to_play], table_id=table_id, action=action, version=match.version
        )
    return Match.objects.get(table_id=table_id).version


async def test_a_move_after_a_redis_restart_reaches_the_open_socket(
    private_layer, started_room, player, partner, opponent
):
    # Another process listed on the table: the frames go through Redis, not in-process.
    await database_sync_to_async(Table.objects.filter(pk=started_room.pk).update)(
        listeners="another-process"
    )
    users = {0: player, 1: opponent, 2: partner}
    comm = communicator(player, started_room.pk)
    await comm.connect(timeout=10)
    await receive(comm)
    try:
        version = await _move(started_room.pk, users)
        await receive_until(comm, lambda f: f.get("version") == version)

        private_layer.restart()  # the socket's subscriptions are gone with it
        version = await _move(started_room.pk, users)
        await receive_until(comm, lambda f: f.get("version") == version)
    finally:
        await comm.disconnect()

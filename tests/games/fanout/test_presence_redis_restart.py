"""The socket counts in Redis across a Redis restart (games/fanout/presence.py): a
restart empties them, the next heartbeat adds this process's sockets back, the
calls that meet the dropped connection are tried again, and the pages' reads fall
back to nothing counted while Redis stays away."""

from __future__ import annotations

import pytest

from games.fanout import presence
from tests.redis_server import redis_server

pytestmark = pytest.mark.redis


@pytest.fixture
def private_redis(tmp_path, settings, monkeypatch):
    # This process's own registry, empty: other tests' sockets are not this test's.
    monkeypatch.setattr(presence, "_mine", {})
    monkeypatch.setattr(presence, "_watching", {})
    with redis_server(tmp_path) as server:
        settings.REDIS_URL = server.url
        yield server


async def test_the_next_heartbeat_counts_the_sockets_again_after_a_restart(private_redis):
    assert await presence.admit(socket="s1", user_id=7, address="203.0.113.9") is None
    assert await presence.watch_admit(socket="w1", user_id=8, table_id=5) is None
    try:
        assert await presence.counted(user_id=7, address="203.0.113.9") == (1, 1)

        private_redis.restart()  # nothing kept on disk: every set is gone
        assert await presence.counted(user_id=7, address="203.0.113.9") == (0, 0)
        assert await presence.refresh_now() == 2  # the heartbeat's work
        assert await presence.counted(user_id=7, address="203.0.113.9") == (1, 1)
        assert await presence.watchers_counted(5) == 1
        assert presence.online_among([7, 9]) == {7}
    finally:
        await presence.release(socket="s1")
        await presence.watch_release(socket="w1")
    assert await presence.counted(user_id=7, address="203.0.113.9") == (0, 0)


async def test_a_release_that_meets_the_restart_is_tried_again(private_redis):
    assert await presence.admit(socket="s2", user_id=7, address=None) is None
    await presence.refresh_now()
    private_redis.restart()
    await presence.refresh_now()  # counted again; its client's connection was dropped
    private_redis.restart()
    await presence.release(socket="s2")  # no exception: the second try reconnects
    assert await presence.counted(user_id=7) == (0, 0)


def test_pages_count_nobody_while_redis_is_away(private_redis):
    private_redis.stop()
    assert presence.online_among([7]) == set()
    assert presence.watchers_of([5]) == {5: 0}
    assert presence.users_online() == 0

"""The channel layer: channels-redis's pub/sub layer with pipelined publishes."""

from __future__ import annotations

import asyncio
import socket
import uuid

import pytest
from django.conf import settings
from redis.exceptions import ConnectionError as RedisConnectionError

from cuatrola_site.channel_layer import PipelinedPubSubChannelLayer
from tests.redis_server import redis_server

TIMEOUT = 10


def a_layer(host: str) -> PipelinedPubSubChannelLayer:
    """A layer of its own (a fresh prefix: no other test's messages reach it)."""
    return PipelinedPubSubChannelLayer(hosts=[host], prefix=f"test-{uuid.uuid4().hex}")


def closed_port() -> int:
    """A local port nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
async def layer():
    """A layer on the suite's Redis, flushed after the test."""
    layer = a_layer(settings.REDIS_URL)
    yield layer
    await layer.flush()


def test_the_site_uses_it_with_redis():
    if settings.REDIS_URL:
        backend = settings.CHANNEL_LAYERS["default"]["BACKEND"]
        assert backend == "cuatrola_site.channel_layer.PipelinedPubSubChannelLayer"


@pytest.mark.redis
async def test_messages_sent_at_once_arrive_in_order_in_one_round_trip(layer):
    channel = await layer.new_channel()
    await layer.group_add("table-1", channel)
    await asyncio.gather(
        *(layer.group_send("table-1", {"type": "frame", "n": n}) for n in range(50))
    )
    received = [await asyncio.wait_for(layer.receive(channel), TIMEOUT) for _ in range(50)]
    assert [message["n"] for message in received] == list(range(50))
    # Every publish was queued before the first reached Redis: one pipeline.
    (shard,) = layer._get_layer()._shards
    assert shard.pipelines_sent == 1


@pytest.mark.redis
async def test_a_message_reaches_every_member_and_only_them(layer):
    members = [await layer.new_channel() for _ in range(3)]
    outsider = await layer.new_channel()
    for channel in members:
        await layer.group_add("table-7", channel)
    await layer.group_send("table-7", {"type": "frame", "seq": 3})
    for channel in members:
        message = await asyncio.wait_for(layer.receive(channel), TIMEOUT)
        assert message == {"type": "frame", "seq": 3}
    # One subscriber connection receives in publish order: a message sent to the
    # outsider after the group's arrives first only if the group's never came.
    await layer.send(outsider, {"type": "direct"})
    message = await asyncio.wait_for(layer.receive(outsider), TIMEOUT)
    assert message == {"type": "direct"}


@pytest.mark.redis
async def test_sends_one_after_another_each_go_out(layer):
    channel = await layer.new_channel()
    await layer.group_add("table-2", channel)
    for n in range(3):
        await layer.group_send("table-2", {"type": "frame", "n": n})
        message = await asyncio.wait_for(layer.receive(channel), TIMEOUT)
        assert message["n"] == n
    (shard,) = layer._get_layer()._shards
    assert shard.pipelines_sent == 3


async def test_a_send_that_cannot_reach_redis_raises_and_the_next_is_tried_again():
    layer = a_layer(f"redis://127.0.0.1:{closed_port()}/0")
    try:
        results = await asyncio.gather(
            layer.group_send("table-1", {"type": "frame"}),
            layer.group_send("table-1", {"type": "frame"}),
            return_exceptions=True,
        )
        assert all(isinstance(result, RedisConnectionError) for result in results)
        # Nothing is left waiting: a later send is tried again (and fails again).
        with pytest.raises(RedisConnectionError):
            await asyncio.wait_for(layer.group_send("table-1", {"type": "frame"}), TIMEOUT)
        (shard,) = layer._get_layer()._shards
        assert shard.pipelines_sent == 0
        assert shard._outbox == []
    finally:
        await layer.flush()


async def test_flush_drops_what_was_queued():
    layer = a_layer(f"redis://127.0.0.1:{closed_port()}/0")
    # Started eagerly: it runs until it waits on its publish, which is then queued.
    send = asyncio.Task(
        layer.group_send("table-1", {"type": "frame"}),
        loop=asyncio.get_running_loop(),
        eager_start=True,
    )
    (shard,) = layer._get_layer()._shards
    assert len(shard._outbox) == 1 and not send.done()
    await layer.flush()
    with pytest.raises(asyncio.CancelledError):
        await send
    assert shard._outbox == [] and shard._sender is None


@pytest.mark.redis
async def test_a_message_from_redis_is_decoded_once_for_all_the_members(layer, monkeypatch):
    members = [await layer.new_channel() for _ in range(4)]
    for channel in members:
        await layer.group_add("table-3", channel)
    decoded = []
    real = layer._serializer.deserialize
    monkeypatch.setattr(
        layer._serializer, "deserialize", lambda data: decoded.append(1) or real(data)
    )
    await layer.group_send("table-3", {"type": "frame", "frames": {"0": "x" * 1000}})
    for channel in members:
        message = await asyncio.wait_for(layer.receive(channel), TIMEOUT)
        assert message["frames"] == {"0": "x" * 1000}
    assert len(decoded) == 1


@pytest.mark.redis
async def test_a_local_group_send_reaches_this_processs_members_without_redis(layer):
    members = [await layer.new_channel() for _ in range(2)]
    for channel in members:
        await layer.group_add("table-4", channel)
    outsider = await layer.new_channel()
    await layer.group_send_local("table-4", {"type": "frame", "seq": 9})
    for channel in members:
        assert await asyncio.wait_for(layer.receive(channel), TIMEOUT) == {
            "type": "frame",
            "seq": 9,
        }
    (shard,) = layer._get_layer()._shards
    assert shard.pipelines_sent == 0  # nothing was published
    await layer.group_send_local("table-5", {"type": "frame"})  # no member: nothing to do
    await layer.send(outsider, {"type": "direct"})
    assert await asyncio.wait_for(layer.receive(outsider), TIMEOUT) == {"type": "direct"}


@pytest.mark.redis
async def test_directly_delivered_messages_skip_the_queue_in_order_and_one_failure_stops_nothing(
    layer,
):
    first, second = await layer.new_channel(), await layer.new_channel()
    for channel in (first, second):
        await layer.group_add("table-6", channel)
    got: dict[str, list[object]] = {first: [], second: []}
    done = asyncio.Event()

    def handler(channel):
        async def handle(message):
            if channel == first and message.get("n") == 1:
                raise RuntimeError("this socket is gone")
            got[channel].append(message.get("n", message["type"]))
            if channel == second and message["type"] == "other":
                done.set()

        return handle

    for channel in (first, second):
        layer.deliver_directly(channel, handler(channel))
    for n in range(5):
        await layer.group_send("table-6", {"type": "table.frames", "n": n})
    await layer.send(second, {"type": "other"})
    await asyncio.wait_for(done.wait(), TIMEOUT)
    assert got == {first: [0, 2, 3, 4], second: [0, 1, 2, 3, 4, "other"]}
    # Forgotten: its messages go to its queue again.
    layer.forget_directly(first)
    await layer.group_send_local("table-6", {"type": "table.frames", "n": 5})
    assert await asyncio.wait_for(layer.receive(first), TIMEOUT) == {"type": "table.frames", "n": 5}


@pytest.mark.redis
async def test_a_redis_restart_costs_no_message_sent_after_it_and_no_subscription(tmp_path):
    """Redis killed and started again, empty: the first publish meets the dropped
    connection and is tried again; the receiving side subscribes again by itself, so
    a member added before the restart gets messages sent after it, and a new member
    can join."""
    with redis_server(tmp_path) as server:
        layer = a_layer(server.url)
        try:
            channel = await layer.new_channel()
            await layer.group_add("table-1", channel)
            got: asyncio.Queue[dict] = asyncio.Queue()

            async def receiving() -> None:
                while True:
                    got.put_nowait(await layer.receive(channel))

            receiver = asyncio.ensure_future(receiving())
            await layer.group_send("table-1", {"type": "frame", "n": 1})
            assert (await asyncio.wait_for(got.get(), TIMEOUT))["n"] == 1

            server.restart()
            await layer.group_send("table-1", {"type": "frame", "n": 2})  # no exception
            assert (await asyncio.wait_for(got.get(), TIMEOUT))["n"] == 2
            other = await layer.new_channel()
            await layer.group_add("table-1", other)
            await layer.group_send("table-1", {"type": "frame", "n": 3})
            assert (await asyncio.wait_for(got.get(), TIMEOUT))["n"] == 3
            assert (await asyncio.wait_for(layer.receive(other), TIMEOUT))["n"] == 3
            receiver.cancel()
        finally:
            await layer.flush()


@pytest.mark.redis
async def test_a_send_while_redis_is_down_is_tried_once_more_then_raises(tmp_path):
    with redis_server(tmp_path) as server:
        layer = a_layer(server.url)
        try:
            await layer.group_send("table-1", {"type": "frame"})
            server.stop()
            started = asyncio.get_running_loop().time()
            with pytest.raises(RedisConnectionError):
                await layer.group_send("table-1", {"type": "frame"})
            # One pause before the second try, never a long wait.
            assert asyncio.get_running_loop().time() - started < 5
        finally:
            await layer.flush()

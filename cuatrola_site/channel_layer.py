"""channels-redis's pub/sub channel layer, its publishes pipelined.

The package's layer publishes under one asyncio lock per Redis host: each
`group_send` waits for the reply to the one before it, so a web process
publishes at most one message per trip through its event loop. Under load that
trip takes milliseconds, and a move's frames queued behind hundreds of others
(measured: 700 ms median wait at 180 moves a second; docs/operations.md,
"Tables benchmark"). Here publishes do not take that lock: they are queued, and
one task per host sends everything queued as one pipeline per round trip, in
the order they came. Each `group_send` still returns once its message is
published and raises if it could not be.

Receiving is the package's, with three changes for the tables' frames (a move's
one message carries every seat's frame, docs/operations.md):

- a message read from Redis is decoded once, not once per member channel of the
  group it was sent to (the queues hold decoded messages);
- `group_send_local` hands a message to this process's members of a group without
  Redis, when no other process has one (games/fanout/listeners.py decides);
- a consumer may take its messages straight from the layer
  (`deliver_directly`): they skip its queue and the wake-up of its own task, and
  one task per loop hands every such message to its handler in arrival order
  (so handlers must not wait on anything slow).

A Redis restart (docs/operations.md, "Mechanisms"): the package's receiving task
reconnects by itself and redis-py subscribes its channels again as it does; a
publish or a subscribe that meets the dropped connection is tried once more after
a short pause (`ops.cache.redis_retry_async`), and only a second failure is raised.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts

from ops.cache import REDIS_DOWN, REDIS_RETRY_PAUSE_SECONDS, redis_retry_async

logger = logging.getLogger(__name__)

Handler = Callable[[dict[str, Any]], Awaitable[None]]


class PipelinedShardConnection(RedisSingleShardConnection):
    """One Redis host: publishes queued and sent together, in order."""

    def __init__(self, host: Any, channel_layer: Any) -> None:
        super().__init__(host, channel_layer)
        self._outbox: list[tuple[str, bytes, asyncio.Future[None]]] = []
        self._sender: asyncio.Task[None] | None = None
        self.pipelines_sent = 0  # round trips that carried publishes (read by the tests)

    async def publish(self, channel: str, message: bytes) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, message, future))
        if self._sender is None or self._sender.done():
            self._sender = asyncio.ensure_future(self._send_outbox())
        await future

    async def subscribe(self, channel: str) -> None:
        subscribe = super().subscribe
        await redis_retry_async(lambda: subscribe(channel), what="subscribe")

    async def unsubscribe(self, channel: str) -> None:
        unsubscribe = super().unsubscribe
        await redis_retry_async(lambda: unsubscribe(channel), what="unsubscribe")

    async def _publish_batch(self, batch: list[tuple[str, bytes, asyncio.Future[None]]]) -> None:
        self._ensure_redis()
        async with self._redis.pipeline(transaction=False) as pipe:
            for channel, message, _ in batch:
                pipe.publish(channel, message)
            await pipe.execute()

    async def _send_outbox(self) -> None:
        # No await between the last look at the outbox and the task's end, so a
        # publish either lands in a batch or finds this task done and starts another.
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                try:
                    await self._publish_batch(batch)
                except REDIS_DOWN as error:
                    # Redis restarted (the pooled connection is closed): once more, on
                    # a new connection. A frame sent twice is dropped by its `seq`.
                    logger.info("channel layer: publishing failed (%r), trying again", error)
                    await asyncio.sleep(REDIS_RETRY_PAUSE_SECONDS)
                    await self._publish_batch(batch)
                self.pipelines_sent += 1
            except Exception as error:  # every waiting publish raises it, the task goes on
                for *_, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            for *_, future in batch:
                if not future.done():
                    future.set_result(None)

    async def _do_receiving(self) -> None:
        """As the package's loop, but a dropped connection (Redis restarting) is
        tried again after REDIS_RETRY_PAUSE_SECONDS, not a second, and logged once
        per outage: the frames published before redis-py has subscribed again are
        lost (the pages ask for the state after a silence, docs/protocol.md), so
        the sooner the better."""
        down = False
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(
                        ignore_subscribe_messages=True, timeout=0.1
                    )
                    if down:
                        down = False
                        logger.warning("channel layer: receiving from Redis again")
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)
            except (asyncio.CancelledError, TimeoutError, GeneratorExit):
                raise
            except REDIS_DOWN as error:
                if not down:
                    down = True
                    logger.warning("channel layer: Redis dropped the connection (%r)", error)
                await asyncio.sleep(REDIS_RETRY_PAUSE_SECONDS)
            except Exception:  # logged, and the loop goes on receiving
                logger.exception("channel layer: unexpected exception while receiving")
                await asyncio.sleep(1)

    async def flush(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            self._sender = None
        for *_, future in self._outbox:
            future.cancel()
        self._outbox = []
        await super().flush()

    def _receive_message(self, message: Any) -> None:
        """As the package's, but the message is decoded once for all its members."""
        if message is None:
            return
        name = message["channel"]
        if isinstance(name, bytes):
            name = name.decode()
        layer = self.channel_layer
        if name in layer.channels:
            members: Any = (name,)
        elif name in layer.groups:
            members = layer.groups[name]
        else:
            return
        layer.deliver(members, layer.channel_layer.deserialize(message["data"]))


class PipelinedLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(hosts, *args, **kwargs)
        self._shards = [PipelinedShardConnection(host, self) for host in decode_hosts(hosts)]
        # channel name -> the consumer's handler (`deliver_directly`)
        self._direct: dict[str, Handler] = {}
        self._handed: asyncio.Queue[tuple[list[Handler], dict[str, Any]]] | None = None
        self._hander: asyncio.Task[None] | None = None

    def deliver_directly(self, channel: str, handler: Handler) -> None:
        """Messages for `channel` go to `handler`, not to its queue."""
        self._direct[channel] = handler

    def forget_directly(self, channel: str) -> None:
        self._direct.pop(channel, None)

    async def group_send_local(self, group: str, message: dict[str, Any]) -> None:
        """`group_send` to this process's members of `group` only, without Redis."""
        members = self.groups.get(self._get_group_channel_name(group))
        if members:
            self.deliver(members, message)

    def deliver(self, members: Any, message: dict[str, Any]) -> None:
        """Hands a decoded message to each member channel in this process: to its
        direct handler, else to its queue."""
        handlers = []
        for channel in members:
            handler = self._direct.get(channel)
            if handler is not None:
                handlers.append(handler)
            elif channel in self.channels:
                self.channels[channel].put_nowait(message)
        if handlers:
            if self._handed is None:
                self._handed = asyncio.Queue()
            if self._hander is None or self._hander.done():
                self._hander = asyncio.ensure_future(self._hand_over(self._handed))
            self._handed.put_nowait((handlers, message))

    async def _hand_over(self, handed: asyncio.Queue[tuple[list[Handler], dict[str, Any]]]) -> None:
        while True:
            handlers, message = await handed.get()
            for handler in handlers:
                try:
                    await handler(message)
                except Exception:  # one socket's failure never stops the others' frames
                    logger.exception("direct delivery of %s failed", message.get("type"))

    async def flush(self) -> None:
        if self._hander is not None:
            self._hander.cancel()
            self._hander = None
        self._handed = None
        self._direct = {}
        await super().flush()


class PipelinedPubSubChannelLayer(RedisPubSubChannelLayer):
    """Settings: CHANNEL_LAYERS' BACKEND, with the package's own CONFIG."""

    def deserialize(self, message: Any) -> Any:
        # The queues hold messages decoded on arrival (PipelinedShardConnection).
        return message if isinstance(message, dict) else super().deserialize(message)

    def _get_layer(self) -> PipelinedLoopLayer:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = PipelinedLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer

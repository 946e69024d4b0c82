"""channels-redis's pub/sub channel layer, its publishes pipelined.

The package's layer publishes under one asyncio lock per Redis host: each
`group_send` waits for the reply to the one before it, so a web process
publishes at most one message per trip through its event loop. Under load that
trip takes milliseconds, and a move's frames queued behind hundreds of others
(measured: 700 ms median wait at 180 moves a second; docs/operations.md,
"Tables benchmark"). Here publishes do not take that lock: they are queued, and
one task per host sends everything queued as one pipeline per round trip, in
the order they came. Each `group_send` still returns once its message is
published and raises if it could not be. Subscribing, receiving and the rest
are the package's own.
"""

from __future__ import annotations

import asyncio
from typing import Any

from channels_redis.pubsub import (
    RedisPubSubChannelLayer,
    RedisPubSubLoopLayer,
    RedisSingleShardConnection,
)
from channels_redis.utils import _wrap_close, decode_hosts


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

    async def _send_outbox(self) -> None:
        # No await between the last look at the outbox and the task's end, so a
        # publish either lands in a batch or finds this task done and starts another.
        while self._outbox:
            batch, self._outbox = self._outbox, []
            try:
                self._ensure_redis()
                async with self._redis.pipeline(transaction=False) as pipe:
                    for channel, message, _ in batch:
                        pipe.publish(channel, message)
                    await pipe.execute()
                self.pipelines_sent += 1
            except Exception as error:  # every waiting publish raises it, the task goes on
                for *_, future in batch:
                    if not future.done():
                        future.set_exception(error)
                continue
            for *_, future in batch:
                if not future.done():
                    future.set_result(None)

    async def flush(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            self._sender = None
        for *_, future in self._outbox:
            future.cancel()
        self._outbox = []
        await super().flush()


class PipelinedLoopLayer(RedisPubSubLoopLayer):
    def __init__(self, hosts: Any = None, *args: Any, **kwargs: Any) -> None:
        super().__init__(hosts, *args, **kwargs)
        self._shards = [PipelinedShardConnection(host, self) for host in decode_hosts(hosts)]


class PipelinedPubSubChannelLayer(RedisPubSubChannelLayer):
    """Settings: CHANNEL_LAYERS' BACKEND, with the package's own CONFIG."""

    def _get_layer(self) -> PipelinedLoopLayer:
        loop = asyncio.get_running_loop()
        try:
            return self._layers[loop]
        except KeyError:
            layer = PipelinedLoopLayer(*self._args, **self._kwargs, channel_layer=self)
            self._layers[loop] = layer
            _wrap_close(self, loop)
            return layer

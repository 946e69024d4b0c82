"""The Celery broker's transport: kombu's Redis transport, surviving a Redis restart.

When the broker goes away, the worker's consumer first collects its connection
(kombu's `Connection.collect`, which forgets the transport's client) and then
closes it. Closing a channel puts back the messages it holds unacknowledged
(`restore_unacked`: a task running, acknowledged late), which needs a new Redis
pool, built from the client the collect just forgot: an AttributeError, which the
close does not expect, and the worker stops ("Unrecoverable error"). Measured by
`bench/chaos_bench.py` (a Redis restart while bots move; kombu 5.7): the worker
died, every bot stopped and no match ended.

Here that pool is refused with a connection error, the kind the close expects and
ignores, so the consumer goes on to reconnect. Nothing is lost: the messages stay in
Redis's unacknowledged set, which kombu gives back to the queue after its
visibility timeout, and what they would have done is done meanwhile by the safety
nets (a bot's lost turn is played by the table sweep; a settlement is part of the
move that ends a match; league and daily closes have their catch-up entries:
docs/operations.md, "Mechanisms").
"""

from __future__ import annotations

from typing import Any

from kombu.transport import redis
from redis.exceptions import ConnectionError as RedisConnectionError


class Channel(redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> Any:
        if self.connection.client is None:  # collected: closing after the broker went away
            raise RedisConnectionError("the broker's connection was collected")
        return super()._connparams(asynchronous=asynchronous)


class Transport(redis.Transport):
    Channel = Channel

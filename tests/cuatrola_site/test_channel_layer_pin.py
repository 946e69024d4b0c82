"""cuatrola_site/channel_layer.py overrides and calls private parts of channels-redis:
pyproject.toml pins the package to the releases they were written for, and this test
fails when a release changes any of them (names, signatures, the attributes the
layer reads), so an upgrade is a deliberate change of both."""

from __future__ import annotations

import inspect
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from channels_redis import pubsub, utils

from cuatrola_site import channel_layer

ROOT = Path(__file__).resolve().parents[2]

# What channel_layer.py overrides or calls, with the signatures it was written for.
PRIVATE_SIGNATURES = {
    (pubsub.RedisSingleShardConnection, "__init__"): "(self, host, channel_layer)",
    (pubsub.RedisSingleShardConnection, "publish"): "(self, channel, message)",
    (pubsub.RedisSingleShardConnection, "flush"): "(self)",
    (pubsub.RedisSingleShardConnection, "_receive_message"): "(self, message)",
    (pubsub.RedisSingleShardConnection, "_ensure_redis"): "(self)",
    # Retried once across a Redis restart (channel_layer.py, issue 42).
    (pubsub.RedisSingleShardConnection, "subscribe"): "(self, channel)",
    (pubsub.RedisSingleShardConnection, "unsubscribe"): "(self, channel)",
    (pubsub.RedisSingleShardConnection, "_do_receiving"): "(self)",
    (pubsub.RedisPubSubLoopLayer, "__init__"): (
        "(self, hosts=None, prefix='asgi', on_disconnect=None, on_reconnect=None,"
        " channel_layer=None, **kwargs)"
    ),
    (pubsub.RedisPubSubLoopLayer, "_get_group_channel_name"): "(self, group)",
    (pubsub.RedisPubSubLoopLayer, "flush"): "(self)",
    (pubsub.RedisPubSubChannelLayer, "__init__"): (
        "(self, *args, symmetric_encryption_keys=None, serializer_format='msgpack',"
        " **kwargs) -> None"
    ),
    (pubsub.RedisPubSubChannelLayer, "_get_layer"): "(self)",
    (pubsub.RedisPubSubChannelLayer, "deserialize"): "(self, message)",
    (utils, "_wrap_close"): "(proxy, loop)",
    (utils, "decode_hosts"): "(hosts)",
}


@pytest.mark.parametrize(
    ("owner", "name"), list(PRIVATE_SIGNATURES), ids=lambda v: getattr(v, "__name__", v)
)
def test_the_private_methods_the_layer_overrides_keep_their_signatures(owner, name):
    found = getattr(owner, name, None)
    assert found is not None, f"channels-redis has no {owner.__name__}.{name} any more"
    assert str(inspect.signature(found)) == PRIVATE_SIGNATURES[(owner, name)]


def test_every_override_of_the_layer_is_one_of_those_checked():
    checked = {(owner.__name__, name) for owner, name in PRIVATE_SIGNATURES}
    for ours, theirs in (
        (channel_layer.PipelinedShardConnection, pubsub.RedisSingleShardConnection),
        (channel_layer.PipelinedLoopLayer, pubsub.RedisPubSubLoopLayer),
        (channel_layer.PipelinedPubSubChannelLayer, pubsub.RedisPubSubChannelLayer),
    ):
        overridden = {name for name in vars(ours) if callable(getattr(theirs, name, None))}
        assert overridden, ours
        assert {(theirs.__name__, name) for name in overridden} <= checked, ours


def test_the_private_attributes_the_layer_reads_are_set_by_the_package():
    layer = pubsub.RedisPubSubChannelLayer(hosts=["redis://127.0.0.1:1/0"])
    assert {"_args", "_kwargs", "_layers"} <= set(vars(layer))
    loop_layer = pubsub.RedisPubSubLoopLayer(hosts=["redis://127.0.0.1:1/0"], channel_layer=layer)
    assert {"channel_layer", "channels", "groups", "_shards"} <= set(vars(loop_layer))
    shard = loop_layer._shards[0]
    assert {"channel_layer", "_redis"} <= set(vars(shard))


#: The releases the signatures above are those of.
PINNED = "channels-redis>=4.3,<4.4"


def test_pyproject_pins_channels_redis_to_the_releases_checked_here():
    dependencies = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    assert PINNED in dependencies
    assert version("channels-redis").startswith("4.3.")

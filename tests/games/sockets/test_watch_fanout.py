"""A move's frame to a table's watchers (docs/watching.md, "What a watcher receives";
games/fanout/audience.py): built and encoded once per move whatever the number of
watchers, handed to every watcher of the process as the same message, across Redis
once per process; and a watcher's garbage, a closed socket or the table's end cost
the others nothing. Against PostgreSQL and Redis."""

from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer

from games import bot_runner, services
from games.fanout import audience, transport, watchers
from games.frames import builder, live
from games.models import Match, MatchStatus, Seat
from games.sockets import consumers
from games.state import rebuild
from tests.games.sockets.test_consumers import TIMEOUT, communicator, receive

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


@pytest.fixture
def watched_room(started_room, player):
    """The started room (ana, olga, pablo and a bot), open to watch."""
    services.table_configure(user=player, table_id=started_room.pk, open_to_watch=True)
    return started_room


@pytest.fixture
def no_counts(monkeypatch):
    """No `watchers` count frames (sent at most once a second as watchers come): a
    move's frames are then the only thing the sockets receive."""
    monkeypatch.setattr(watchers, "changed", lambda table_id, layer: None)


async def _watch(users, table_id):
    sockets = []
    for user in users:
        comm = communicator(user, table_id)
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        state = await receive(comm)
        assert state["type"] == "state" and state["seat"] is None, state
        while (await receive(comm))["type"] != "watchers":  # how many watch: the last
            pass
        sockets.append(comm)
    return sockets


def _move(table_id: int) -> int:
    """Whoever is to play moves (the bot, or the person at that seat); returns the
    match's version after it."""
    match = Match.objects.get(table_id=table_id, status=MatchStatus.PLAYING)
    seat = Seat.objects.select_related("user").get(table_id=table_id, position=match.to_play)
    if seat.user_id is None:
        assert bot_runner.play_one(table_id)
    else:
        action = rebuild(match).legal_actions()[0]
        services.match_play(user=seat.user, table_id=table_id, action=action, version=match.version)
    return match.version + 1


async def _frames_of(sockets, version):
    """Each socket's ASGI message carrying the update of `version` (earlier skipped)."""
    messages = []
    for comm in sockets:
        while True:
            message = await comm.receive_output(timeout=TIMEOUT)
            frame = json.loads(message["text"])
            if frame["type"] == "update" and frame["version"] >= version:
                messages.append(message)
                break
    return messages


async def test_a_moves_watcher_frame_is_built_and_encoded_once_for_1_or_50_watchers(
    watched_room, make_user, no_counts, monkeypatch
):
    built, encoded, dumped = [], [], []
    real_frames, real_encode, real_dumps = live.table_frames, live._encode, json.dumps

    def table_frames(**kwargs):
        built.append(kwargs["table"].pk)
        return real_frames(**kwargs)

    def encode(value):
        encoded.append(1)
        return real_encode(value)

    def dumps(*args, **kwargs):
        dumped.append(1)
        return real_dumps(*args, **kwargs)

    monkeypatch.setattr(live, "table_frames", table_frames)
    monkeypatch.setattr(live, "_encode", encode)
    # What the sockets serialise themselves (the consumer's own json.dumps).
    monkeypatch.setattr(consumers, "json", SimpleNamespace(dumps=dumps, loads=json.loads))
    made = await database_sync_to_async(lambda: [make_user(f"miron{n}") for n in range(50)])()
    costs = {}
    sockets = []
    for count in (1, 50):
        sockets += await _watch(made[len(sockets) : count], watched_room.pk)
        built.clear(), encoded.clear(), dumped.clear()
        version = await database_sync_to_async(_move)(watched_room.pk)
        messages = await _frames_of(sockets, version)
        costs[count] = (len(built), len(encoded), len(dumped))
        # One message, the same object, handed to every watcher of the process.
        assert all(message is messages[0] for message in messages)
        assert json.loads(messages[0]["text"])["seat"] is None
    assert costs[1] == costs[50]
    assert costs[50][0] == 1  # one build of the move's frames
    assert costs[50][2] == 0  # nothing serialised by the sockets
    await asyncio.gather(*(comm.disconnect() for comm in sockets))
    assert audience.audience_of(watched_room.pk) is None  # the last one took it away


async def test_a_move_crosses_redis_once_per_process_for_any_number_of_watchers(
    watched_room, make_user, no_counts, monkeypatch
):
    made = await database_sync_to_async(lambda: [make_user(f"mirona{n}") for n in range(12)])()
    sockets = await _watch(made, watched_room.pk)
    # Another process listens to the table: the frames go over Redis.
    await database_sync_to_async(services.table_listening)(
        table_id=watched_room.pk, process="another-process", listening=True
    )
    loop_layer = get_channel_layer()._get_layer()
    group = loop_layer._get_group_channel_name(transport.table_group(watched_room.pk))
    (shard,) = loop_layer._shards
    published, read = [], []
    real_publish, real_receive = shard.publish, shard._receive_message

    async def publish(channel, message):
        published.append(channel)
        await real_publish(channel, message)

    def receive_message(message):
        if message is not None:
            name = message["channel"]
            read.append(name.decode() if isinstance(name, bytes) else name)
        real_receive(message)

    monkeypatch.setattr(shard, "publish", publish)
    monkeypatch.setattr(shard, "_receive_message", receive_message)
    before = audience.audience_of(watched_room.pk).messages
    version = await database_sync_to_async(_move)(watched_room.pk)
    messages = await _frames_of(sockets, version)
    assert published.count(group) == 1 and read.count(group) == 1
    assert audience.audience_of(watched_room.pk).messages == before + 1
    assert all(message is messages[0] for message in messages)
    await asyncio.gather(*(comm.disconnect() for comm in sockets))


async def test_a_watchers_garbage_gets_error_frames_and_every_watcher_still_watches(
    watched_room, stranger, spectator, no_counts
):
    noisy, quiet = await _watch([stranger, spectator], watched_room.pk)
    for garbage, code in (
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        (json.dumps({"type": "launch"}), "unknown_type"),
        (json.dumps({"type": "play", "action": "B1", "version": 1}), "not_seated"),
        (json.dumps({"type": "talk", "text": "hola"}), "watcher_phrases_only"),
    ):
        await noisy.send_to(text_data=garbage)
        error = await receive(noisy)
        assert (error["type"], error["code"]) == ("error", code), garbage
    version = await database_sync_to_async(_move)(watched_room.pk)
    await _frames_of([noisy, quiet], version)
    await noisy.disconnect()
    await quiet.disconnect()


async def test_a_watcher_of_a_table_that_ends_gets_its_end_and_stays_until_it_leaves(
    watched_room, stranger, spectator, staff_user, no_counts
):
    sockets = await _watch([stranger, spectator], watched_room.pk)
    match = await database_sync_to_async(Match.objects.get)(table=watched_room)
    await database_sync_to_async(services.match_abort)(
        match_id=match.pk, staff_user=staff_user, reason="a test"
    )
    for comm in sockets:
        while True:
            frame = await receive(comm)
            if frame["type"] == "update" and frame["table"]["status"] != "playing":
                break
        await comm.send_to(text_data=json.dumps({"type": "ping", "id": 3}))
        assert (await receive(comm)) == {"type": "pong", "id": 3}
    await asyncio.gather(*(comm.disconnect() for comm in sockets))
    assert audience.audience_of(watched_room.pk) is None


class _Socket:
    """A watching socket as the audience sees it: `fails` like one closed meanwhile."""

    def __init__(self, name: str, fails: bool = False) -> None:
        self.channel_name = name
        self.fails = fails
        self.got: list[dict | None] = []
        self.dispatched: list[dict] = []

    async def spectate(self, event, shared):
        if self.fails:
            raise RuntimeError("the socket is closed")
        self.got.append(shared)

    async def dispatch(self, message):
        if self.fails:
            raise RuntimeError("the socket is closed")
        self.dispatched.append(message)


async def test_a_watcher_closed_mid_fan_out_costs_the_others_nothing(watched_room):
    table_id = watched_room.pk
    first, closed, last = _Socket("a"), _Socket("b", fails=True), _Socket("c")
    for socket in (first, closed, last):
        await audience.join(table_id, socket, get_channel_layer(), frame_key=builder.WATCH_KEY)
    theirs = audience.audience_of(table_id)
    frames = {"0": "{}", builder.WATCH_KEY: '{"seat":null}'}
    await theirs.deliver({"type": "table.frames", "frames": frames, "seq": 9})
    await theirs.deliver({"type": "table.watchers", "count": 2})
    assert first.got == last.got == [{"type": "websocket.send", "text": '{"seat":null}'}]
    assert first.got[0] is last.got[0]
    assert [m["type"] for m in first.dispatched] == [m["type"] for m in last.dispatched]
    # Through the layer too: the table's group reaches the audience once.
    await get_channel_layer().group_send(
        transport.table_group(table_id), {"type": "table.frames", "frames": frames, "seq": 10}
    )
    for _ in range(200):
        if len(last.got) == 2:
            break
        await asyncio.sleep(0.01)
    assert len(first.got) == len(last.got) == 2
    for socket in (first, closed, last):
        await audience.leave(table_id, socket)
    assert audience.audience_of(table_id) is None
    await audience.leave(table_id, first)  # a second leave changes nothing

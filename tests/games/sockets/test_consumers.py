"""The table websocket against PostgreSQL and the Redis channel layer."""

from __future__ import annotations

import asyncio
import json
import threading
from types import SimpleNamespace

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import translation

from cuatrola.engine import Match as EngineMatch
from cuatrola_site.asgi import application
from games import errors, selectors, services
from games.models import Match, MatchStatus, Seat
from games.sockets import admission, consumers, heartbeat, inbound
from games.sockets.consumers import TableConsumer
from games.sockets.routing import websocket_urlpatterns
from games.state import rebuild
from games.words.translated import refusal_label
from tests.games.hidden import leaks_in_frame

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]

TIMEOUT = 10


def communicator(user, table_id) -> WebsocketCommunicator:
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tables/{table_id}/")
    comm.scope["user"] = user
    return comm


async def receive(comm) -> dict:
    return json.loads(await comm.receive_from(timeout=TIMEOUT))


async def receive_until(comm, predicate) -> dict:
    while True:
        frame = await receive(comm)
        if predicate(frame):
            return frame


@pytest.fixture
def threaded_bots(settings):
    settings.BOT_RUNNER = "thread"


async def refused_with(comm) -> int:
    """The close code of a socket the server accepted and closed at once."""
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected  # accepted, so that the browser's close event carries the code
    message = await comm.receive_output(timeout=TIMEOUT)
    assert message["type"] == "websocket.close"
    return message["code"]


async def test_an_anonymous_socket_is_closed_with_4401(started_room):
    from django.contrib.auth.models import AnonymousUser

    assert await refused_with(communicator(AnonymousUser(), started_room.pk)) == 4401


async def test_the_real_application_refuses_a_foreign_origin(started_room):
    comm = WebsocketCommunicator(
        application, f"/ws/tables/{started_room.pk}/", headers=[(b"origin", b"http://evil.com")]
    )
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert not connected


async def test_a_stranger_and_an_unknown_table_are_closed_with_4404(started_room, stranger):
    for table_id in (started_room.pk, 999999):
        assert await refused_with(communicator(stranger, table_id)) == 4404


async def test_a_refused_socket_gets_no_frame_and_its_messages_go_nowhere(started_room, stranger):
    comm = communicator(stranger, started_room.pk)
    assert await refused_with(comm) == 4404
    await comm.send_to(text_data=json.dumps({"type": "play", "action": "pass", "version": 0}))
    assert await comm.receive_nothing(timeout=0.3)


async def test_an_anonymous_lobby_socket_is_closed_with_4401_and_not_answered():
    from django.contrib.auth.models import AnonymousUser

    lobby = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    lobby.scope["user"] = AnonymousUser()
    assert await refused_with(lobby) == 4401
    await lobby.send_to(text_data="{}")
    assert await lobby.receive_nothing(timeout=0.3)


async def test_a_seated_player_gets_only_their_own_hand(started_room, player):
    comm = communicator(player, started_room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    frame = await receive(comm)
    assert frame["type"] == "state" and frame["view"]["hand"]["seat"] == 0
    match = await database_sync_to_async(Match.objects.get)(table=started_room)
    state = await database_sync_to_async(rebuild)(match)
    assert frame["view"]["hand"]["hand"] == list(state.hand.hand_of(0))
    assert not leaks_in_frame(frame, state, 0)
    await comm.disconnect()


async def test_a_process_vouches_for_its_players_sockets_while_they_are_open(
    started_room, player, settings, monkeypatch
):
    settings.PRESENCE_HEARTBEAT_SECONDS = 0.05
    heard = threading.Event()
    seats_heard = services.seats_heard

    def record_beat(**kwargs):
        stored = seats_heard(**kwargs)
        heard.set()
        return stored

    monkeypatch.setattr(services, "seats_heard", record_beat)
    seat = await database_sync_to_async(Seat.objects.get)(table=started_room, user=player)
    comm = communicator(player, started_room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    await receive(comm)
    assert seat.pk in heartbeat.open_seats()
    joined = (await database_sync_to_async(Seat.objects.get)(pk=seat.pk)).seen_at
    # The heartbeat runs every 0.05 s and goes before any other database call: a beat
    # may have written `joined` itself. Beats after it write a later time.
    for _ in range(20):
        heard.clear()
        assert await asyncio.to_thread(heard.wait, TIMEOUT)  # the process's heartbeat came
        beaten = await database_sync_to_async(Seat.objects.get)(pk=seat.pk)
        if beaten.seen_at > joined:
            break
    assert beaten.seen_at > joined and beaten.connections == 1
    await comm.disconnect()
    assert seat.pk not in heartbeat.open_seats()


async def test_bad_messages_get_an_error_and_keep_the_connection(
    started_room, player, opponent, partner
):
    comm = communicator(player, started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    state = await receive(comm)
    version = state["version"]
    to_play = state["view"]["to_play"]
    bad = [
        ("not json", "malformed"),
        ("[1, 2]", "malformed"),
        (json.dumps({"type": "dance"}), "unknown_type"),
        (json.dumps({"type": "play", "action": 3, "version": version}), "malformed"),
        (json.dumps({"type": "play", "action": "pass", "version": "x"}), "malformed"),
        (json.dumps({"type": "play", "action": "pass", "version": True}), "malformed"),
        (json.dumps({"type": "play", "action": ["pass"], "version": version}), "malformed"),
        (json.dumps({"type": None}), "unknown_type"),
        (json.dumps({"type": "play", "action": "pass", "version": version + 7}), "stale_version"),
    ]
    if to_play != 0:
        bad.append(
            (json.dumps({"type": "play", "action": "pass", "version": version}), "not_your_turn")
        )
    else:
        bad.append(
            (json.dumps({"type": "play", "action": "1z", "version": version}), "illegal_action")
        )
    for text, code in bad:
        await comm.send_to(text_data=text)
        frame = await receive(comm)
        assert frame["type"] == "error" and frame["code"] == code, (text, frame)
        if code == "stale_version":
            resync = await receive(comm)
            assert resync["type"] == "state" and resync["version"] == version
    await comm.send_to(text_data=json.dumps({"type": "sync", "id": 5}))
    frame = await receive(comm)
    assert frame["type"] == "state" and frame["id"] == 5 and frame["version"] == version
    await comm.disconnect()


async def test_an_id_that_is_not_a_string_or_an_integer_is_not_echoed(
    started_room, player, settings
):
    settings.SOCKET_SYNC_SECONDS = 0
    comm = communicator(player, started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    for bad_id in ({"x": 1}, [1], True, None, 1.5):
        await comm.send_to(text_data=json.dumps({"type": "sync", "id": bad_id}))
        frame = await receive(comm)
        assert frame["type"] == "state" and "id" not in frame
    await comm.disconnect()


async def test_syncs_asked_sooner_than_the_interval_get_one_answer_with_the_last_id(
    started_room, player, settings, monkeypatch
):
    """A `sync` reads the whole state: one socket gets it read once per
    SOCKET_SYNC_SECONDS, however many it asks for meanwhile."""
    settings.SOCKET_SYNC_SECONDS = 0.3
    reads = []
    real = selectors.seat_frame

    def seat_frame(**kwargs):
        reads.append(kwargs)
        return real(**kwargs)

    monkeypatch.setattr(selectors, "seat_frame", seat_frame)
    comm = communicator(player, started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    for request_id in (1, 2, 3, 4):
        await comm.send_to(text_data=json.dumps({"type": "sync", "id": request_id}))
    await comm.send_to(text_data=json.dumps({"type": "ping", "id": "after"}))
    first = await receive(comm)
    assert first["type"] == "state" and first["id"] == 1
    # The other three wait for the interval: the ping sent after them is answered first.
    assert await receive(comm) == {"type": "pong", "id": "after"}
    later = await receive(comm)
    assert later["type"] == "state" and later["id"] == 4
    assert len(reads) == 2
    await comm.send_to(text_data=json.dumps({"type": "ping", "id": "end"}))
    assert await receive(comm) == {"type": "pong", "id": "end"}  # nothing else came
    await comm.disconnect()


async def test_a_socket_has_one_database_call_at_a_time_however_fast_it_sends(
    started_room, player, settings, monkeypatch
):
    settings.SOCKET_SYNC_SECONDS = 0
    entered, gate = threading.Event(), threading.Event()
    real = selectors.seat_frame

    def seat_frame(**kwargs):
        entered.set()
        assert gate.wait(TIMEOUT)
        return real(**kwargs)

    monkeypatch.setattr(selectors, "seat_frame", seat_frame)
    comm = communicator(player, started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    for request_id in range(10):
        await comm.send_to(text_data=json.dumps({"type": "sync", "id": request_id}))
        await comm.send_to(text_data="{not json")
    assert await asyncio.to_thread(entered.wait, TIMEOUT)
    assert consumers.db_threads().waiting() == 0  # the rest wait in the socket, not the queue
    gate.set()
    answered = [await receive(comm) for _ in range(20)]
    assert [f["id"] for f in answered if f["type"] == "state"] == list(range(10))
    assert [f["code"] for f in answered if f["type"] == "error"] == ["malformed"] * 10
    await comm.disconnect()


async def test_a_message_over_4_kib_gets_a_too_large_error_and_keeps_the_connection(
    started_room, player
):
    comm = communicator(player, started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    version = (await receive(comm))["version"]
    padding = {"type": "sync", "pad": ""}
    too_big = [
        json.dumps({**padding, "pad": "x" * 4097}),  # 4 KiB of ASCII and more
        json.dumps({**padding, "pad": "ก" * 1400}, ensure_ascii=False),  # 1.4 k chars, 4.2 KB
        "x" * (1024 * 1024 - 100),  # just under the server's own 1 MiB limit
    ]
    for text in too_big:
        await comm.send_to(text_data=text)
        frame = await receive(comm)
        assert (frame["type"], frame["code"], frame["message"]) == (
            "error",
            "too_large",
            "Envía tramas de texto JSON de 4 KiB como mucho.",
        )
    await comm.send_to(bytes_data=b"\x00" * 10)
    assert (await receive(comm))["code"] == "malformed"
    # Still open and answering.
    await comm.send_to(text_data=json.dumps({"type": "sync", "id": 6}))
    frame = await receive(comm)
    assert frame["type"] == "state" and frame["id"] == 6 and frame["version"] == version
    await comm.disconnect()


async def test_a_play_is_broadcast_to_every_seat_with_its_own_view(
    started_room, player, partner, opponent
):
    users = {0: player, 1: opponent, 2: partner}
    comms = {}
    for seat, user in users.items():
        comms[seat] = communicator(user, started_room.pk)
        await comms[seat].connect(timeout=TIMEOUT)
        await receive(comms[seat])
    # The bot in seat 3 moves only through the sweep here; find a human's turn.
    match = await database_sync_to_async(Match.objects.get)(table=started_room)
    if match.to_play == 3:
        from games import bot_runner

        await database_sync_to_async(bot_runner.play_one)(started_room.pk)
        match = await database_sync_to_async(Match.objects.get)(table=started_room)
    seat = match.to_play
    state = await database_sync_to_async(rebuild)(match)
    for comm in comms.values():
        await comm.receive_nothing(timeout=0.05) or None
    # Drain connection frames (presence broadcasts) so the next frames are the play's.
    action = state.legal_actions()[0]
    await comms[seat].send_to(
        text_data=json.dumps({"type": "play", "action": action, "version": match.version})
    )
    for position, comm in comms.items():
        frame = await receive_until(
            comm, lambda f: f["type"] == "update" and f["version"] == match.version + 1
        )
        assert frame["view"]["hand"]["seat"] == position
        assert frame["events"][0]["seat"] == seat
        new_state, _ = state.apply(action)
        assert not leaks_in_frame(frame, new_state, position)
    for comm in comms.values():
        await comm.disconnect()


async def a_humans_turn(room):
    """The match at a human's turn (the bot in seat 3 moved if it was its turn):
    (the match, the seat to play, a legal action)."""
    match = await database_sync_to_async(Match.objects.get)(table=room)
    if match.to_play == 3:
        from games import bot_runner

        await database_sync_to_async(bot_runner.play_one)(room.pk)
        match = await database_sync_to_async(Match.objects.get)(table=room)
    state = await database_sync_to_async(rebuild)(match)
    return match, match.to_play, state.legal_actions()[0]


async def test_a_play_with_an_id_is_acknowledged_with_it(started_room, player, partner, opponent):
    match, seat, action = await a_humans_turn(started_room)
    comm = communicator({0: player, 1: opponent, 2: partner}[seat], started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    play = {"type": "play", "action": action, "version": match.version, "id": "m-1"}
    await comm.send_to(text_data=json.dumps(play))
    # The update (sent to every seat once committed) may come before the ack.
    seen = [await receive(comm)]
    while {"ack", "update"} - {frame["type"] for frame in seen}:
        seen.append(await receive(comm))
    assert [f for f in seen if f["type"] in ("ack", "error")] == [{"type": "ack", "id": "m-1"}]
    assert [f["version"] for f in seen if f["type"] == "update"] == [match.version + 1]
    await comm.disconnect()


async def test_a_play_without_an_id_is_answered_by_the_update_alone(
    started_room, player, partner, opponent
):
    """The update every seat gets confirms the move: no `ack` frame besides it."""
    match, seat, action = await a_humans_turn(started_room)
    comm = communicator({0: player, 1: opponent, 2: partner}[seat], started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    play = {"type": "play", "action": action, "version": match.version}
    await comm.send_to(text_data=json.dumps(play))
    # The socket answers its messages in order: any ack for the play would come
    # before the pong of a ping sent after it.
    await comm.send_to(text_data=json.dumps({"type": "ping", "id": "after"}))
    seen = [await receive(comm)]
    while {"update", "pong"} - {frame["type"] for frame in seen}:
        seen.append(await receive(comm))
    assert [f["version"] for f in seen if f["type"] == "update"] == [match.version + 1]
    assert [f["type"] for f in seen if f["type"] not in ("update", "pong")] == []
    await comm.disconnect()


def _run_in_new_loop(coro_factory):
    result = {}

    def runner():
        try:
            result["value"] = asyncio.run(coro_factory())
        except BaseException as error:
            result["error"] = error

    thread = threading.Thread(target=runner)
    thread.start()
    return thread, result


class OtherProcessConsumer(TableConsumer):
    # Its own channels-redis connection and its own name in the table's listeners,
    # as another web process would have.
    channel_layer_alias = "other"
    process_id = "another-process"


async def test_two_consumers_in_different_event_loops_share_the_redis_layer(
    started_room, player, partner, opponent, settings
):
    """The partner listens from another thread's event loop, like another web process."""
    settings.CHANNEL_LAYERS = {
        **settings.CHANNEL_LAYERS,
        "other": settings.CHANNEL_LAYERS["default"],
    }
    match = await database_sync_to_async(Match.objects.get)(table=started_room)
    if match.to_play in (2, 3):
        from games import bot_runner

        while match.to_play in (2, 3):
            if match.to_play == 3:
                await database_sync_to_async(bot_runner.play_one)(started_room.pk)
            else:
                state = await database_sync_to_async(rebuild)(match)
                await database_sync_to_async(services.match_play)(
                    user=partner,
                    table_id=started_room.pk,
                    action=state.legal_actions()[0],
                    version=match.version,
                )
            match = await database_sync_to_async(Match.objects.get)(table=started_room)
    mover = {0: player, 1: opponent}[match.to_play]
    ready = threading.Event()

    async def partner_listens():
        comm = WebsocketCommunicator(
            OtherProcessConsumer.as_asgi(), f"/ws/tables/{started_room.pk}/"
        )
        comm.scope["user"] = partner
        comm.scope["url_route"] = {"kwargs": {"table_id": started_room.pk}}
        await comm.connect(timeout=TIMEOUT)
        await receive(comm)
        ready.set()
        frame = await receive_until(comm, lambda f: f["version"] == match.version + 1)
        await comm.disconnect()
        return frame

    thread, result = _run_in_new_loop(partner_listens)
    await asyncio.get_running_loop().run_in_executor(None, ready.wait, TIMEOUT)
    comm = communicator(mover, started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    state = await database_sync_to_async(rebuild)(match)
    await comm.send_to(
        text_data=json.dumps(
            {"type": "play", "action": state.legal_actions()[0], "version": match.version}
        )
    )
    await asyncio.get_running_loop().run_in_executor(None, thread.join, TIMEOUT)
    await comm.disconnect()
    assert "error" not in result, result.get("error")
    assert result["value"]["view"]["hand"]["seat"] == 2
    assert result["value"]["events"][0]["seat"] == match.to_play


async def test_whole_practice_matches_never_show_a_hidden_card(
    player, threaded_bots, staff_user, settings
):
    """The player plays through the socket, bots on threads; every frame is checked."""
    # The bots answer at once, so this player plays faster than the socket's budget
    # allows a person (a whole match in seconds on a quick machine): lifted here.
    settings.SOCKET_MESSAGE_RATE = 1000
    for rules in ("online", "classic"):
        table = await database_sync_to_async(services.table_create_practice)(
            user=player, rules=rules, bot_level="easy"
        )
        comm = communicator(player, table.pk)
        await comm.connect(timeout=TIMEOUT)
        watcher = communicator(staff_user, table.pk)
        await watcher.connect(timeout=TIMEOUT)
        frames = []
        played = set()  # versions played at: one play each
        while True:
            frame = await receive(comm)
            frames.append(frame)
            if frame["type"] in ("error", "ack"):
                assert frame["type"] == "ack" or frame["code"] == "stale_version", frame
                continue
            if frame["table"]["status"] == "finished":
                break
            hand = (frame["view"] or {}).get("hand") or {}
            if (
                frame["view"]["to_play"] == 0
                and hand.get("legal_actions")
                and frame["version"] not in played
            ):
                played.add(frame["version"])
                await comm.send_to(
                    text_data=json.dumps(
                        {
                            "type": "play",
                            "action": hand["legal_actions"][-1],
                            "version": frame["version"],
                        }
                    )
                )
        watched = []
        while not await watcher.receive_nothing(timeout=0.2):
            watched.append(json.loads(await watcher.receive_from()))
        await comm.disconnect()
        await watcher.disconnect()
        match = await database_sync_to_async(Match.objects.get)(table=table)
        assert match.status == MatchStatus.FINISHED
        steps = [s for s, _ in EngineMatch.replay(match.record)]
        for frame in frames:
            if frame.get("view") and not steps[frame["version"]].is_over:
                assert frame["seat"] == 0
                assert not leaks_in_frame(frame, steps[frame["version"]], 0), frame
        assert watched
        for frame in watched:
            if frame.get("view") and not steps[frame["version"]].is_over:
                assert frame["seat"] is None and frame["view"]["hand"]["hand"] is None
                assert not frame["view"]["hand"]["legal_actions"]
                assert not leaks_in_frame(frame, steps[frame["version"]], None), frame
        # The last frames: the deciding hand summarised, the player's own result.
        final = frames[-1]
        assert final["summary"]["final"] and final["summary"]["hand_no"] == match.hand_no
        assert final["result"]["you"]["position"] == 0
        assert watched[-1]["result"]["you"] is None


@pytest.mark.parametrize("language", ["en", "es"])
async def test_error_messages_are_in_the_users_language(started_room, player, language):
    player.language = language
    await database_sync_to_async(player.save)(update_fields=["language"])
    comm = communicator(player, started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    state = await receive(comm)
    await comm.send_to(text_data="not json")
    not_json = await receive(comm)
    await comm.send_to(
        text_data=json.dumps({"type": "play", "action": "1z", "version": state["version"]})
    )
    refused = await receive(comm)

    def expected_refusal() -> str:  # in the language active when called
        if refused["code"] == "not_your_turn":
            return str(errors.NotYourTurn.default_message)
        return refusal_label("malformed_action")

    expected_params = {
        "not_your_turn": {},
        "illegal_action": {"reason": "malformed_action", "action": "1z"},
    }[refused["code"]]
    assert refused["params"] == expected_params and not_json["params"] == {}
    with translation.override(language):
        assert not_json["message"] == str(inbound.NOT_JSON)
        assert refused["message"] == expected_refusal()
    with translation.override("en" if language == "es" else "es"):
        assert not_json["message"] != str(inbound.NOT_JSON)
    await comm.disconnect()


@pytest.mark.parametrize(
    ("saved", "cookies", "accept", "expected"),
    [
        ("en", {"django_language": "es"}, b"es", "en"),
        ("", {"django_language": "en"}, b"es", "en"),
        ("", {}, b"en-GB,en;q=0.9", "en"),
        ("", {}, b"", "es"),
        ("", {"django_language": "xx"}, b"zz", "es"),
    ],
)
def test_a_socket_speaks_the_language_of_the_users_pages(saved, cookies, accept, expected):
    user = SimpleNamespace(language=saved)
    scope = {"cookies": cookies, "headers": [(b"accept-language", accept)]}
    assert consumers.socket_language(scope, user) == expected


async def test_a_payout_tells_every_socket_of_the_user_their_new_balance(started_room, player):
    from economy.services import ledger_grant

    comm = communicator(player, started_room.pk)
    await comm.connect(timeout=TIMEOUT)
    await receive(comm)
    await database_sync_to_async(ledger_grant)(user=player, amount=25, idempotency_key="h16c-t1")
    frame = await receive_until(comm, lambda f: f["type"] == "balance")
    expected = await database_sync_to_async(selectors.user_balances)([player.pk])
    assert frame == {"type": "balance", **expected[player.pk]}
    await comm.disconnect()


async def test_a_payout_reaches_the_users_lobby_socket_too(player):
    from economy.services import ledger_grant

    lobby = WebsocketCommunicator(URLRouter(websocket_urlpatterns), "/ws/lobby/")
    lobby.scope["user"] = player
    connected, _ = await lobby.connect(timeout=TIMEOUT)
    assert connected
    await database_sync_to_async(ledger_grant)(user=player, amount=5, idempotency_key="h16c-t2")
    frame = json.loads(await lobby.receive_from(timeout=TIMEOUT))
    expected = await database_sync_to_async(selectors.user_balances)([player.pk])
    assert frame == {"type": "balance", **expected[player.pk]}
    await lobby.disconnect()


async def test_a_player_moved_to_another_seat_gets_that_seats_view(room, player, partner):
    comm = communicator(partner, room.pk)  # pablo sits at seat 2
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    await receive(comm)
    await database_sync_to_async(services.seat_swap)(
        user=player, table_id=room.pk, first=2, second=1
    )
    await database_sync_to_async(services.match_start)(user=player, table_id=room.pk, seed=7)
    frame = await receive_until(comm, lambda f: f.get("view") is not None)
    assert frame["view"]["hand"]["seat"] == 1
    match = await database_sync_to_async(Match.objects.get)(table=room)
    state = await database_sync_to_async(rebuild)(match)
    assert frame["view"]["hand"]["hand"] == list(state.hand.hand_of(1))
    assert not leaks_in_frame(frame, state, 1)
    await comm.disconnect()


async def _frames_until_state(comm) -> list[dict]:
    """Every frame the socket receives up to and including its first `state`."""
    frames = [await receive(comm)]
    while frames[-1]["type"] != "state":
        frames.append(await receive(comm))
    return frames


def _swap_and_start(room, owner):
    """The owner swaps seats 0 and 1 (taking seat 1) and starts the match."""
    services.seat_swap(user=owner, table_id=room.pk, first=0, second=1)
    services.match_start(user=owner, table_id=room.pk, seed=7)


async def _assert_sees_only_seat(frames, room, seat):
    match = await database_sync_to_async(Match.objects.get)(table=room)
    state = await database_sync_to_async(rebuild)(match)
    for frame in frames:
        if frame.get("view") is None:
            continue
        assert frame["seat"] == seat, frame["seat"]
        assert frame["view"]["hand"]["hand"] == list(state.hand.hand_of(seat))
        assert not leaks_in_frame(frame, state, seat)


@pytest.mark.parametrize("step", ["admit", "listing"])
async def test_a_seat_swap_and_a_start_while_the_socket_connects_show_the_new_seat_only(
    room, player, step, monkeypatch
):
    """The owner (seat 0 when the socket is admitted) swaps to seat 1 and starts the
    match before the socket reads the state: its first frame is seat 1's, and no
    frame ever carries seat 0's hand (now the opponent's)."""
    swapped = asyncio.Event()
    if step == "admit":
        # Between the access check and the group joins: the socket misses the
        # broadcasts of the swap and the start altogether.
        admit = admission.read

        def admit_then_swap(user, table_id):
            access = admit(user, table_id)
            _swap_and_start(room, player)
            return access

        monkeypatch.setattr(admission, "read", admit_then_swap)
    else:
        real = consumers._list_process

        async def swap_then_list(table_id, process, listening):
            if listening and not swapped.is_set():
                swapped.set()
                await database_sync_to_async(_swap_and_start)(room, player)
            return await real(table_id, process, listening)

        monkeypatch.setattr(consumers, "_list_process", swap_then_list)
    comm = communicator(player, room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    frames = await _frames_until_state(comm)
    assert frames[0]["seat"] == 1
    await _assert_sees_only_seat(frames, room, 1)
    # And it goes on receiving seat 1's frames, whoever moves next.
    match, seat, action = await a_humans_turn(room)
    mover = await database_sync_to_async(
        lambda: Seat.objects.select_related("user").get(table=room, position=seat).user
    )()
    await database_sync_to_async(services.match_play)(
        user=mover, table_id=room.pk, action=action, version=match.version
    )
    update = await receive_until(comm, lambda f: f.get("version") == match.version + 1)
    await _assert_sees_only_seat([update], room, 1)
    await comm.disconnect()


async def test_a_seat_change_while_the_socket_connects_is_vouched_for_once(
    room, player, monkeypatch
):
    """The swap's broadcast reaches the socket while it reads its first state: the
    process vouches for the owner's new seat once while the socket is open, and for
    no seat once it has closed."""
    handled = asyncio.Event()
    real_frames = TableConsumer.table_frames

    async def table_frames(self, event):
        await real_frames(self, event)
        handled.set()

    monkeypatch.setattr(TableConsumer, "table_frames", table_frames)
    real_list = consumers._list_process

    async def list_then_swap(table_id, process, listening):
        await real_list(table_id, process, listening)
        if listening and not handled.is_set():
            await database_sync_to_async(services.seat_swap)(
                user=player, table_id=room.pk, first=0, second=1
            )
            await asyncio.wait_for(handled.wait(), TIMEOUT)  # the socket had the broadcast

    monkeypatch.setattr(consumers, "_list_process", list_then_swap)
    seats = {
        seat.position: seat.pk
        for seat in await database_sync_to_async(list)(Seat.objects.filter(table=room))
    }
    comm = communicator(player, room.pk)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    frame = await _frames_until_state(comm)
    assert frame[-1]["seat"] == 1
    assert heartbeat._open[seats[1]] == 1 and seats[0] not in heartbeat.open_seats()
    await comm.disconnect()
    assert seats[0] not in heartbeat.open_seats() and seats[1] not in heartbeat.open_seats()


async def test_a_broadcast_older_than_the_sockets_state_does_not_move_it_back(room, player):
    """A message delivered late (its `seq` lower than the frame the socket already
    gave) is dropped, `sitting` and all; one without `seq` (an older process's, in a
    rolling upgrade) is forwarded as before."""
    from channels.layers import get_channel_layer

    from games.fanout import transport

    comm = communicator(player, room.pk)
    await comm.connect(timeout=TIMEOUT)
    state = await receive(comm)
    assert state["seat"] == 0
    seats = {
        seat.position: seat.pk
        for seat in await database_sync_to_async(list)(Seat.objects.filter(table=room))
    }
    layer, group = get_channel_layer(), transport.table_group(room.pk)

    def message(seq, sitting=None):
        frames = {str(p): json.dumps({"type": "probe", "seat": p}) for p in range(4)}
        event = {"type": "table.frames", "frames": frames}
        if sitting is not None:
            event["sitting"] = {str(player.pk): [sitting, seats[sitting]]}
        if seq is not None:
            event["seq"] = seq
        return event

    await layer.group_send(group, message(state["seq"] - 1, sitting=1))  # late: dropped
    await layer.group_send(group, message(None))  # no seq: forwarded, for its seat
    assert await receive(comm) == {"type": "probe", "seat": 0}
    await layer.group_send(group, message(state["seq"] + 1))
    assert await receive(comm) == {"type": "probe", "seat": 0}
    assert heartbeat._open[seats[0]] == 1 and seats[1] not in heartbeat.open_seats()
    await comm.disconnect()

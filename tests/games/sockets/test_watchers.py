"""Watchers' sockets (docs/watching.md): who is refused and with which close code, the
limits per table and per user, the count told to the table, sockets closed when the
rules change, and the watchers' talk. Against PostgreSQL and Redis."""

from __future__ import annotations

import json

import pytest
from channels.db import database_sync_to_async

from accounts.services import user_ban
from games import services
from games.fanout import presence
from games.models import Mode, Seat, TalkLine
from social import services as social
from tests.games.sockets.test_consumers import TIMEOUT, communicator, receive, refused_with

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def _against_bots(user, mode=Mode.ONLINE):
    return services.table_create_against_bots(
        user=user, mode=mode, rules="online", bot_level="easy", seed=5
    )


@pytest.fixture
def online_table(player):
    """An online match in play: ana and three bots (the bots wait: BOT_RUNNER off)."""
    return _against_bots(player)


async def opened(user, table_id):
    comm = communicator(user, table_id)
    connected, _ = await comm.connect(timeout=TIMEOUT)
    assert connected
    state = await receive(comm)
    assert state["type"] == "state", state
    return comm, state


async def next_of(comm, kind, predicate=lambda frame: True):
    while True:
        frame = await receive(comm)
        if frame["type"] == kind and predicate(frame):
            return frame


async def close_code(comm):
    """The code of a close that comes (frames before it are skipped)."""
    while True:
        message = await comm.receive_output(timeout=TIMEOUT)
        if message["type"] == "websocket.close":
            return message["code"]


async def still_answers(comm, request_id):
    """The socket is still open: it answers a ping (frames before the pong skipped),
    and is then closed by the test."""
    await comm.send_to(text_data=json.dumps({"type": "ping", "id": request_id}))
    assert (await next_of(comm, "pong"))["id"] == request_id
    await comm.disconnect()


# --- who watches ------------------------------------------------------------------------


async def test_a_stranger_watches_an_online_match_without_any_hand(online_table, stranger):
    comm, state = await opened(stranger, online_table.pk)
    assert state["seat"] is None and state["view"]["hand"]["hand"] is None
    assert not state["view"]["hand"]["legal_actions"]
    assert await next_of(comm, "watchers") == {"type": "watchers", "count": 1}
    await comm.disconnect()


@pytest.mark.parametrize("mode", [Mode.PRACTICE, Mode.DAILY])
async def test_practice_and_daily_tables_are_closed_to_strangers_with_4404(player, stranger, mode):
    table = await database_sync_to_async(_against_bots)(player, mode)
    assert await refused_with(communicator(stranger, table.pk)) == 4404


async def test_a_room_not_open_to_watch_is_closed_with_4404(started_room, stranger):
    assert await refused_with(communicator(stranger, started_room.pk)) == 4404


async def test_a_banned_user_cannot_watch(online_table, stranger, staff_user):
    await database_sync_to_async(user_ban)(user=stranger, staff_user=staff_user, reason="abuse")
    assert await refused_with(communicator(stranger, online_table.pk)) == 4403


async def test_watchers_forbidden_by_a_player_are_refused_with_4433_but_staff_watch(
    online_table, stranger, staff_user
):
    await database_sync_to_async(Seat.objects.filter(table=online_table, position=0).update)(
        forbids_watchers=True
    )
    assert await refused_with(communicator(stranger, online_table.pk)) == 4433
    comm, state = await opened(staff_user, online_table.pk)
    assert state["seat"] is None
    await comm.disconnect()


async def test_a_user_playing_a_match_of_their_own_is_refused_with_4436(online_table, stranger):
    await database_sync_to_async(_against_bots)(stranger, Mode.PRACTICE)
    assert await refused_with(communicator(stranger, online_table.pk)) == 4436


async def test_a_watcher_whose_own_match_starts_is_closed_with_4436(online_table, stranger, player):
    room = await database_sync_to_async(services.table_create_friends)(user=stranger)
    for position in (1, 2, 3):
        await database_sync_to_async(services.seat_set_bot)(
            user=stranger, table_id=room.pk, position=position, bot=True
        )
    watching, _ = await opened(stranger, online_table.pk)
    seated, _ = await opened(player, online_table.pk)  # a player of the table stays
    own, _ = await opened(stranger, room.pk)  # the user's socket at their own table stays
    await database_sync_to_async(services.match_start)(user=stranger, table_id=room.pk, seed=2)
    assert await close_code(watching) == 4436
    assert (await next_of(own, "update"))["table"]["status"] == "playing"
    await seated.send_to(text_data=json.dumps({"type": "ping", "id": 1}))
    assert (await next_of(seated, "pong"))["id"] == 1
    await seated.disconnect()
    await own.disconnect()


async def test_closing_a_room_to_watchers_closes_theirs_but_not_an_invitees(
    started_room, player, stranger, spectator, staff_user
):
    await database_sync_to_async(services.table_configure)(
        user=player, table_id=started_room.pk, open_to_watch=True
    )
    # sara is invited to the room (she watches whether or not it is open).
    from games.models import Invitation

    await database_sync_to_async(Invitation.objects.create)(
        table=started_room, from_user=player, to_user=spectator
    )
    stranger_socket, _ = await opened(stranger, started_room.pk)
    invitee_socket, _ = await opened(spectator, started_room.pk)
    staff_socket, _ = await opened(staff_user, started_room.pk)
    await database_sync_to_async(services.table_configure)(
        user=player, table_id=started_room.pk, open_to_watch=False
    )
    assert await close_code(stranger_socket) == 4433
    for kept in (invitee_socket, staff_socket):
        await still_answers(kept, 7)


# --- limits -------------------------------------------------------------------------------


async def test_a_table_with_its_watchers_refuses_one_more_with_4434_but_not_staff(
    online_table, stranger, spectator, staff_user, settings
):
    settings.WATCHERS_PER_TABLE = 1
    first, _ = await opened(stranger, online_table.pk)
    assert await refused_with(communicator(spectator, online_table.pk)) == 4434
    staff_socket, _ = await opened(staff_user, online_table.pk)
    assert await presence.watchers_counted(online_table.pk) == 1  # staff not counted
    await first.disconnect()
    again, _ = await opened(spectator, online_table.pk)  # a place freed
    await again.disconnect()
    await staff_socket.disconnect()
    assert await presence.watchers_counted(online_table.pk) == 0


async def test_a_user_watching_enough_is_refused_one_more_with_4435(
    online_table, stranger, partner, settings
):
    settings.WATCH_SOCKETS_PER_USER = 2
    other = await database_sync_to_async(_against_bots)(partner)
    sockets = [(await opened(stranger, online_table.pk))[0], (await opened(stranger, other.pk))[0]]
    assert await refused_with(communicator(stranger, online_table.pk)) == 4435
    assert await presence.watching_counted(stranger.pk) == 2
    await sockets.pop().disconnect()
    sockets.append((await opened(stranger, other.pk))[0])
    for comm in sockets:
        await comm.disconnect()
    assert await presence.watching_counted(stranger.pk) == 0


async def test_a_players_socket_is_not_a_watcher(online_table, player):
    comm, state = await opened(player, online_table.pk)
    assert state["seat"] == 0
    assert await presence.watchers_counted(online_table.pk) == 0
    assert await presence.watching_counted(player.pk) == 0
    await comm.disconnect()


# --- the count --------------------------------------------------------------------------


async def test_the_players_are_told_how_many_watch_as_watchers_come_and_go(
    online_table, player, stranger, spectator
):
    seated, _ = await opened(player, online_table.pk)
    first, _ = await opened(stranger, online_table.pk)
    assert (await next_of(seated, "watchers"))["count"] == 1
    second, _ = await opened(spectator, online_table.pk)
    assert (await next_of(second, "watchers"))["count"] == 2  # right after its state
    await next_of(seated, "watchers", lambda frame: frame["count"] == 2)
    await first.disconnect()
    await second.disconnect()
    await next_of(seated, "watchers", lambda frame: frame["count"] == 0)
    await seated.disconnect()


async def test_a_socket_of_a_table_nobody_watches_gets_no_count(online_table, player):
    seated, _ = await opened(player, online_table.pk)
    await seated.send_to(text_data=json.dumps({"type": "ping", "id": 2}))
    assert await receive(seated) == {"type": "pong", "id": 2}  # nothing came before it
    await seated.disconnect()


# --- talk ---------------------------------------------------------------------------------


async def test_a_watchers_phrase_reaches_the_watchers_and_never_the_players(
    online_table, player, stranger, spectator
):
    seated, _ = await opened(player, online_table.pk)
    speaker, _ = await opened(stranger, online_table.pk)
    listener, _ = await opened(spectator, online_table.pk)
    await speaker.send_to(text_data=json.dumps({"type": "talk", "phrase": "wow"}))
    heard = await next_of(listener, "talk")
    assert heard["seat"] is None and heard["watcher"] is True
    assert (heard["name"], heard["phrase"]) == ("zoe", "wow")
    assert (await next_of(speaker, "talk"))["phrase"] == "wow"  # their own comes back
    # The player's next talk frame is their own line: the watcher's never came.
    await seated.send_to(text_data=json.dumps({"type": "talk", "phrase": "hello"}))
    own = await next_of(seated, "talk")
    assert (own["name"], own["seat"]) == ("ana", 0)
    line = await database_sync_to_async(TalkLine.objects.get)(user=stranger)
    assert (line.position, line.phrase, line.table_id) == (None, "wow", online_table.pk)
    for comm in (seated, speaker, listener):
        await comm.disconnect()


async def test_a_players_talk_reaches_watchers_but_not_one_blocked_or_hiding_talk(
    online_table, player, stranger, spectator, make_user
):
    hiding = await database_sync_to_async(make_user)("hugo")
    await database_sync_to_async(social.block_add)(user=spectator, username=player.username)
    await database_sync_to_async(social.privacy_update)(
        user=hiding, requests_from="everyone", show_table=True, talk_hidden=True
    )
    seated, _ = await opened(player, online_table.pk)
    watcher, _ = await opened(stranger, online_table.pk)
    blocked, _ = await opened(spectator, online_table.pk)
    hider, _ = await opened(hiding, online_table.pk)
    await seated.send_to(text_data=json.dumps({"type": "talk", "phrase": "thanks"}))
    heard = await next_of(watcher, "talk")
    assert (heard["name"], heard["seat"], heard["phrase"]) == ("ana", 0, "thanks")
    # Then zoe (a watcher) speaks: sara hears it, and it is the first talk she gets;
    # hugo hides all talk, so he gets nothing but his own line.
    await watcher.send_to(text_data=json.dumps({"type": "talk", "phrase": "laugh"}))
    assert (await next_of(blocked, "talk"))["name"] == "zoe"
    await hider.send_to(text_data=json.dumps({"type": "talk", "phrase": "oops"}))
    assert (await next_of(hider, "talk"))["name"] == "hugo"
    for comm in (seated, watcher, blocked, hider):
        await comm.disconnect()


async def test_the_log_a_socket_opens_with_keeps_the_watchers_lines_among_watchers(
    online_table, player, stranger, spectator, settings
):
    settings.TALK_MIN_SECONDS = 0
    await database_sync_to_async(services.talk_send)(
        user=player, table_id=online_table.pk, phrase="hello"
    )
    await database_sync_to_async(services.talk_watch_send)(
        user=stranger, table_id=online_table.pk, phrase="wow"
    )
    watcher, _ = await opened(spectator, online_table.pk)
    log = await next_of(watcher, "talk_log")
    assert [(line["name"], line["seat"], line.get("watcher")) for line in log["lines"]] == [
        ("ana", 0, None),
        ("zoe", None, True),
    ]
    seated, _ = await opened(player, online_table.pk)
    log = await next_of(seated, "talk_log")
    assert [line["name"] for line in log["lines"]] == ["ana"]  # never what watchers say
    await still_answers(watcher, 1)
    await still_answers(seated, 2)


@pytest.mark.parametrize(
    ("message", "code"),
    [
        ({"type": "talk", "text": "hola"}, "watcher_phrases_only"),
        ({"type": "talk", "phrase": "12e"}, "unknown_phrase"),
        ({"type": "talk", "phrase": ""}, "malformed"),
        ({"type": "talk", "phrase": 5}, "malformed"),
        ({"type": "talk", "phrase": ["hello"]}, "malformed"),
        ({"type": "talk", "phrase": None}, "malformed"),
        ({"type": "talk", "phrase": "hello", "text": "hola"}, "malformed"),
        ({"type": "talk"}, "malformed"),
        ({"type": "mute", "seat": 0, "muted": True}, "not_seated"),
        ({"type": "play", "action": "pass", "version": 0}, "not_seated"),
    ],
)
async def test_a_watchers_bad_talk_gets_an_error_frame_and_nothing_is_said(
    online_table, stranger, message, code
):
    comm, _ = await opened(stranger, online_table.pk)
    await comm.send_to(text_data=json.dumps({**message, "id": 9}))
    error = await next_of(comm, "error")
    assert (error["code"], error["id"]) == (code, 9) and error["message"]
    await comm.send_to(text_data=json.dumps({"type": "ping", "id": 10}))
    assert (await next_of(comm, "pong"))["id"] == 10  # still open
    assert not await database_sync_to_async(TalkLine.objects.filter(user=stranger).exists)()
    await comm.disconnect()


async def test_a_watcher_talking_too_fast_gets_an_error_frame(online_table, stranger):
    comm, _ = await opened(stranger, online_table.pk)
    await comm.send_to(text_data=json.dumps({"type": "talk", "phrase": "hello"}))
    await next_of(comm, "talk")
    await comm.send_to(text_data=json.dumps({"type": "talk", "phrase": "hello"}))
    assert (await next_of(comm, "error"))["code"] == "talk_too_fast"
    await comm.disconnect()


async def test_one_address_fills_at_most_its_share_of_a_tables_watchers_4437(
    online_table, stranger, spectator, partner, make_user, settings
):
    """The hole: four addresses (50 sockets each, about 17 accounts an address)
    filled a table's 200 places and crowded everyone else out."""
    settings.WATCHERS_PER_ADDRESS_PER_TABLE = 2
    more = await database_sync_to_async(make_user)("teo")

    def from_address(user, address):
        comm = communicator(user, online_table.pk)
        comm.scope["client"] = (address, 40000)
        return comm

    sockets = []
    for user in (stranger, spectator):
        sockets.append(from_address(user, "198.51.100.20"))
        connected, _ = await sockets[-1].connect(timeout=TIMEOUT)
        assert connected and (await receive(sockets[-1]))["type"] == "state"
    assert await refused_with(from_address(more, "198.51.100.20")) == 4437
    elsewhere = from_address(more, "198.51.100.21")  # another address is another share
    connected, _ = await elsewhere.connect(timeout=TIMEOUT)
    assert connected and (await receive(elsewhere))["type"] == "state"
    assert await presence.watchers_counted(online_table.pk) == 3
    for comm in [*sockets, elsewhere]:
        await comm.disconnect()
    assert await presence.watchers_counted(online_table.pk) == 0

"""Table talk: fixed phrases everywhere, free text only in friends rooms while nobody
holds cards, the rate limit, blocks and mutes, over the socket and in the service."""

from __future__ import annotations

import json
import re
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.utils import timezone, translation

from games import errors, selectors, services
from games.models import Mode, TalkLine, TalkMute
from games.sockets.routing import websocket_urlpatterns
from games.words.talk_phrases import PHRASES
from social import services as social

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

TIMEOUT = 10


@pytest.fixture
def full_room(player, partner, opponent, stranger):
    """A friends room of four people: ana (0), olga (1), pablo (2), zoe (3); not started."""
    table = services.table_create_friends(user=player)
    for user in (opponent, partner, stranger):
        invitation = services.invitation_create(
            user=player, table_id=table.pk, username=user.username
        )
        services.invitation_accept(user=user, invitation_id=invitation.pk)
    return table


# --- the service ------------------------------------------------------------------


def test_a_phrase_is_stored_with_the_table_and_the_speakers_seat(full_room, partner):
    line = services.talk_send(user=partner, table_id=full_room.pk, phrase="hello")
    stored = TalkLine.objects.get()
    assert (stored.pk, stored.position, stored.phrase, stored.text) == (line.pk, 2, "hello", "")
    assert stored.match is None  # said before the first deal


def test_talk_in_a_match_is_stored_with_the_match_and_in_its_transcript(full_room, player):
    services.match_start(user=player, table_id=full_room.pk, seed=3)
    services.talk_send(user=player, table_id=full_room.pk, phrase="good_luck")
    match = full_room.matches.get()
    assert [(t["name"], t["phrase"]) for t in selectors.talk_transcript(match.pk)] == [
        ("ana", "good_luck")
    ]


@pytest.mark.parametrize("phrase", ["12e", "as de oros", "", "HELLO", "hello ", "x" * 5000])
def test_only_a_phrase_id_of_the_list_is_accepted(full_room, player, phrase):
    with pytest.raises(errors.UnknownPhrase):
        services.talk_send(user=player, table_id=full_room.pk, phrase=phrase)
    assert not TalkLine.objects.exists()


def test_someone_not_seated_cannot_talk(full_room, spectator):
    with pytest.raises(errors.NotSeated):
        services.talk_send(user=spectator, table_id=full_room.pk, phrase="hello")
    with pytest.raises(errors.TableNotFound):
        services.talk_send(user=spectator, table_id=10**9, phrase="hello")


def test_free_text_in_a_friends_room_before_the_first_deal_and_after_the_match(full_room, player):
    services.talk_send(user=player, table_id=full_room.pk, text="  ¿Jugamos?  ")
    assert TalkLine.objects.get().text == "¿Jugamos?"


def test_free_text_during_a_match_is_refused_and_nothing_is_stored(full_room, player):
    services.match_start(user=player, table_id=full_room.pk, seed=3)
    with pytest.raises(errors.FreeTextDuringHand):
        services.talk_send(user=player, table_id=full_room.pk, text="tengo el as")
    assert not TalkLine.objects.exists()


def test_free_text_from_a_room_that_ended_is_refused_while_the_speaker_plays_elsewhere(
    full_room, player, partner
):
    """The hole: a room cancelled by its owner left its people on their seats, so one
    of them, now holding cards at a practice table, told the others their hand."""
    services.seat_leave(user=player, table_id=full_room.pk)  # the owner closes the room
    services.table_create_practice(user=partner, rules="online", bot_level="easy")
    with pytest.raises(errors.NotSeated):
        services.talk_send(user=partner, table_id=full_room.pk, text="my cards: 3o 12c 1e")
    assert not TalkLine.objects.exists()


def test_free_text_is_refused_while_a_reader_holds_cards_at_another_table(
    player, partner, stranger
):
    table = services.table_create_friends(user=player)
    invitation = services.invitation_create(user=player, table_id=table.pk, username="pablo")
    services.invitation_accept(user=partner, invitation_id=invitation.pk)
    services.invitation_create(user=player, table_id=table.pk, username="zoe")  # pending
    services.table_create_practice(user=stranger, rules="online", bot_level="easy")
    with pytest.raises(errors.FreeTextDuringHand):
        services.talk_send(user=partner, table_id=table.pk, text="¿Qué llevas?")
    services.talk_send(user=partner, table_id=table.pk, phrase="hello")  # phrases still go
    assert list(TalkLine.objects.values_list("text", "phrase")) == [("", "hello")]


def test_free_text_is_refused_at_a_practice_or_online_table(player):
    table = services.table_create_practice(user=player, rules="online", bot_level="easy")
    with pytest.raises(errors.FreeTextNotHere):
        services.talk_send(user=player, table_id=table.pk, text="hola")
    assert table.mode == Mode.PRACTICE and not TalkLine.objects.exists()


def test_free_text_over_200_characters_is_refused(full_room, player):
    with pytest.raises(errors.TextTooLong) as raised:
        services.talk_send(user=player, table_id=full_room.pk, text="a" * 201)
    assert "200" in raised.value.message
    services.talk_send(user=player, table_id=full_room.pk, text="a" * 200)


def test_the_rate_limit_one_every_two_seconds_five_every_thirty(full_room, player):
    start = timezone.now()

    def say(after):
        return services.talk_send(
            user=player, table_id=full_room.pk, phrase="oops", now=start + timedelta(seconds=after)
        )

    say(0)
    with pytest.raises(errors.TalkTooFast):
        say(1.9)
    for at in (2, 4, 6, 8):
        say(at)
    with pytest.raises(errors.TalkTooFast):
        say(10)  # a sixth within 30 s
    say(30.5)  # the first has left the window
    assert TalkLine.objects.count() == 6


def test_a_mute_is_of_a_seated_person_other_than_yourself(full_room, player):
    services.talk_mute(user=player, table_id=full_room.pk, position=1, muted=True)
    assert TalkMute.objects.count() == 1
    services.talk_mute(user=player, table_id=full_room.pk, position=1, muted=True)
    assert TalkMute.objects.count() == 1
    for position in (0, 4, -1, "1", True, None):
        with pytest.raises(errors.InvalidSeat):
            services.talk_mute(user=player, table_id=full_room.pk, position=position, muted=True)
    services.talk_mute(user=player, table_id=full_room.pk, position=1, muted=False)
    assert not TalkMute.objects.exists()


def test_the_table_page_draws_the_mute_toggles_already_on(full_room, player, partner, client):
    """The talk panel lists each other person once with one Mute toggle: the seats muted
    here before the page opened come with it (`data-muted`), for the muter only."""
    assert selectors.talk_muted_seats(full_room.pk, user_id=player.pk) == []
    client.force_login(player)
    url = f"/tables/{full_room.pk}/"
    assert "data-muted" not in client.get(url).content.decode()
    for position in (3, 1):
        services.talk_mute(user=player, table_id=full_room.pk, position=position, muted=True)
    assert selectors.talk_muted_seats(full_room.pk, user_id=player.pk) == [1, 3]
    assert 'data-muted="1,3"' in client.get(url).content.decode()
    client.force_login(partner)  # another reader's mutes are theirs
    assert "data-muted" not in client.get(url).content.decode()


# --- nothing in the list can carry a card -------------------------------------------


def _game_words(language):
    """Every rank, suit and bid word of the game (games/words/catalogue.py), in `language`."""
    from games.words.translated import game_words

    with translation.override(language):
        catalogue = game_words()
        words = {w.lower() for part in ("ranks", "suits", "bids") for w in catalogue[part].values()}
        words.add(translation.gettext("Trumps").lower())
    return {w for w in words if len(w) >= 3}


@pytest.mark.parametrize("language", ["es", "en", "fr", "it", "ko", "th"])
def test_no_phrase_names_a_card_a_suit_a_count_or_a_bid_in_any_language(language):
    words = _game_words(language)
    with translation.override(language):
        for phrase in PHRASES.values():
            text = f"{phrase.text()} {phrase.label}".lower()
            assert not re.search(r"\d", text), (language, text)
            assert not [w for w in words if w in text], (language, text)
            assert str(phrase.label) and (phrase.emoji or str(phrase.label) != "")


def test_no_phrase_id_is_a_card_code_or_a_bid():
    codes = {f"{rank}{suit}" for rank in range(1, 13) for suit in "oceb"}
    bids = {"pass", "solo", "cuatrola", "quintola"}
    assert not set(PHRASES) & (codes | bids)
    assert all(re.fullmatch(r"[a-z_]+", p) for p in PHRASES)


# --- over the socket -----------------------------------------------------------------


def communicator(user, table_id):
    comm = WebsocketCommunicator(URLRouter(websocket_urlpatterns), f"/ws/tables/{table_id}/")
    comm.scope["user"] = user
    return comm


async def receive(comm):
    return json.loads(await comm.receive_from(timeout=TIMEOUT))


async def next_of(comm, kind):
    while True:
        frame = await receive(comm)
        if frame["type"] == kind:
            return frame


async def opened(users, table_id):
    sockets = []
    for user in users:
        comm = communicator(user, table_id)
        connected, _ = await comm.connect(timeout=TIMEOUT)
        assert connected
        assert (await receive(comm))["type"] == "state"
        sockets.append(comm)
    return sockets


async def close_all(sockets):
    for comm in sockets:
        await comm.disconnect()


async def test_a_phrase_reaches_every_seat_in_its_readers_language(
    full_room, player, partner, opponent, stranger
):
    users = [player, opponent, partner, stranger]
    for user, language in zip(users, ["es", "fr", "en", "ko"], strict=True):
        user.language = language  # each socket's language (games.sockets.consumers.socket_language)
    sockets = await opened(users, full_room.pk)
    await sockets[0].send_to(text_data=json.dumps({"type": "talk", "phrase": "well_played"}))
    got = [await next_of(comm, "talk") for comm in sockets]
    assert [g["text"] for g in got] == ["¡Bien jugado!", "Bien joué !", "Well played!", "잘했어요!"]
    assert {(g["seat"], g["name"], g["phrase"]) for g in got} == {(0, "ana", "well_played")}
    await close_all(sockets)


async def test_free_text_at_the_table_is_sent_as_written_for_the_page_to_escape(
    full_room, player, partner
):
    sockets = await opened([player, partner], full_room.pk)
    attack = "<img src=x onerror=alert(1)>"
    await sockets[0].send_to(text_data=json.dumps({"type": "talk", "text": attack}))
    line = await next_of(sockets[1], "talk")
    assert line["text"] == attack and line["phrase"] is None
    await close_all(sockets)


@pytest.mark.parametrize(
    "message",
    [
        {"type": "talk"},
        {"type": "talk", "phrase": 12},
        {"type": "talk", "phrase": ["hello"]},
        {"type": "talk", "phrase": "hello", "text": "hola"},
        {"type": "talk", "text": None},
        {"type": "mute", "seat": "1", "muted": True},
        {"type": "mute", "seat": 1, "muted": "yes"},
        {"type": "mute", "seat": True, "muted": True},
    ],
)
async def test_a_malformed_talk_or_mute_gets_an_error_and_the_socket_stays_open(
    full_room, player, message
):
    (comm,) = await opened([player], full_room.pk)
    await comm.send_to(text_data=json.dumps({**message, "id": 7}))
    error = await next_of(comm, "error")
    assert (error["code"], error["id"]) == ("malformed", 7)
    await comm.send_to(text_data=json.dumps({"type": "ping", "id": 8}))
    assert (await next_of(comm, "pong"))["id"] == 8
    await comm.disconnect()
    assert not await database_sync_to_async(TalkLine.objects.exists)()


async def test_a_card_as_a_phrase_is_refused_with_unknown_phrase(full_room, player, partner):
    sockets = await opened([player, partner], full_room.pk)
    for attempt in ("12e", "1o", "pass", "cuatrola", "hello\u0000"):
        await sockets[0].send_to(text_data=json.dumps({"type": "talk", "phrase": attempt}))
        error = await next_of(sockets[0], "error")
        assert error["code"] == "unknown_phrase"
    assert await sockets[1].receive_nothing(timeout=0.3)
    await close_all(sockets)
    assert not await database_sync_to_async(TalkLine.objects.exists)()


async def test_free_text_during_a_hand_is_an_error_frame_and_nothing_is_stored(
    full_room, player, partner
):
    await database_sync_to_async(services.match_start)(user=player, table_id=full_room.pk, seed=3)
    sockets = await opened([player, partner], full_room.pk)
    await sockets[0].send_to(
        text_data=json.dumps({"type": "talk", "text": "tengo 3 oros", "id": 1})
    )
    error = await next_of(sockets[0], "error")
    assert (error["code"], error["id"]) == ("free_text_during_hand", 1)
    await sockets[0].send_to(text_data=json.dumps({"type": "talk", "phrase": "sorry", "id": 2}))
    assert (await next_of(sockets[1], "talk"))["phrase"] == "sorry"
    await close_all(sockets)
    assert await database_sync_to_async(TalkLine.objects.count)() == 1


async def test_free_text_at_an_online_table_is_refused(player, settings):
    from online.services import queue_join, queue_match

    settings.ONLINE_BOT_FILL_SECONDS = 0

    def seat():
        queue_join(user=player)  # the pass after its commit seats the player with bots
        queue_match()
        return selectors.live_table_for(player).pk

    table_id = await database_sync_to_async(seat)()
    (comm,) = await opened([player], table_id)
    await comm.send_to(text_data=json.dumps({"type": "talk", "text": "hola"}))
    assert (await next_of(comm, "error"))["code"] == "free_text_not_here"
    await comm.send_to(text_data=json.dumps({"type": "talk", "phrase": "hello"}))
    assert (await next_of(comm, "talk"))["phrase"] == "hello"
    await comm.disconnect()


async def test_talking_too_fast_gets_an_error_frame(full_room, player):
    (comm,) = await opened([player], full_room.pk)
    await comm.send_to(text_data=json.dumps({"type": "talk", "phrase": "hello"}))
    await next_of(comm, "talk")
    await comm.send_to(text_data=json.dumps({"type": "talk", "phrase": "hello"}))
    error = await next_of(comm, "error")
    assert error["code"] == "talk_too_fast" and "2" in error["message"]
    await comm.disconnect()


async def test_a_blocked_or_muted_player_is_not_heard_and_others_still_are(
    full_room, player, partner, opponent, stranger
):
    await database_sync_to_async(social.block_add)(user=player, username=partner.username)
    await database_sync_to_async(services.talk_mute)(
        user=opponent, table_id=full_room.pk, position=2, muted=True
    )
    sockets = await opened([player, opponent, partner, stranger], full_room.pk)
    await sockets[2].send_to(text_data=json.dumps({"type": "talk", "phrase": "thanks"}))
    assert (await next_of(sockets[3], "talk"))["name"] == "pablo"  # zoe hears pablo
    assert (await next_of(sockets[2], "talk"))["name"] == "pablo"  # pablo sees his own
    await sockets[3].send_to(text_data=json.dumps({"type": "talk", "phrase": "hello"}))
    # ana (blocked pablo) and olga (muted him) hear zoe's next, never pablo's.
    assert (await next_of(sockets[0], "talk"))["name"] == "zoe"
    assert (await next_of(sockets[1], "talk"))["name"] == "zoe"
    await close_all(sockets)


async def test_a_socket_that_opens_shows_what_was_said_before_it_in_its_language(
    full_room, player, partner, opponent, settings
):
    """A line said before a reader's socket opened (or while it was away, or before a
    reload) comes in the `talk_log` after the first state, in that reader's language."""
    settings.TALK_MIN_SECONDS = 0
    partner.language = "fr"
    for phrase in ("hello", "good_luck"):
        await database_sync_to_async(services.talk_send)(
            user=player, table_id=full_room.pk, phrase=phrase
        )
    await database_sync_to_async(services.talk_send)(
        user=opponent, table_id=full_room.pk, text="¿Jugamos?"
    )
    (comm,) = await opened([partner], full_room.pk)
    log = await next_of(comm, "talk_log")
    assert [(line["name"], line["phrase"], line["text"]) for line in log["lines"]] == [
        ("ana", "hello", "Bonjour !"),
        ("ana", "good_luck", "Bonne chance !"),
        ("olga", None, "¿Jugamos?"),
    ]
    ids = [line["id"] for line in log["lines"]]
    assert ids == sorted(ids)
    # A line said now comes live with its id, after the log.
    await database_sync_to_async(services.talk_send)(
        user=player, table_id=full_room.pk, phrase="thanks"
    )
    assert (await next_of(comm, "talk"))["id"] > ids[-1]
    await comm.disconnect()


async def test_the_log_a_socket_opens_with_leaves_out_the_blocked_and_the_muted(
    full_room, player, partner, opponent, stranger, settings
):
    settings.TALK_MIN_SECONDS = 0
    await database_sync_to_async(social.block_add)(user=player, username=partner.username)
    await database_sync_to_async(services.talk_mute)(
        user=player, table_id=full_room.pk, position=1, muted=True
    )
    for speaker in (partner, opponent, stranger):
        await database_sync_to_async(services.talk_send)(
            user=speaker, table_id=full_room.pk, phrase="hello"
        )
    ana, pablo = await opened([player, partner], full_room.pk)
    # ana blocked pablo and muted olga (seat 1) here: she reads zoe only. The block
    # works both ways, but ana said nothing: pablo reads all three.
    assert [line["name"] for line in (await next_of(ana, "talk_log"))["lines"]] == ["zoe"]
    assert [line["name"] for line in (await next_of(pablo, "talk_log"))["lines"]] == [
        "pablo",
        "olga",
        "zoe",
    ]
    await close_all([ana, pablo])


async def test_the_log_keeps_the_last_lines_only(full_room, player, settings):
    settings.TALK_MIN_SECONDS = 0
    settings.TALK_BURST = 10
    settings.TALK_LOG_LINES = 2
    for phrase in ("hello", "good_luck", "thanks"):
        await database_sync_to_async(services.talk_send)(
            user=player, table_id=full_room.pk, phrase=phrase
        )
    (comm,) = await opened([player], full_room.pk)
    log = await next_of(comm, "talk_log")
    assert [line["phrase"] for line in log["lines"]] == ["good_luck", "thanks"]
    await comm.disconnect()


async def test_a_mute_over_the_socket_is_confirmed(full_room, player, partner):
    (comm,) = await opened([player], full_room.pk)
    await comm.send_to(text_data=json.dumps({"type": "mute", "seat": 2, "muted": True, "id": 3}))
    assert await next_of(comm, "muted") == {"type": "muted", "seat": 2, "muted": True, "id": 3}
    await comm.send_to(text_data=json.dumps({"type": "mute", "seat": 0, "muted": True}))
    assert (await next_of(comm, "error"))["code"] == "invalid_seat"
    await comm.disconnect()


# --- the transcript beside a report --------------------------------------------------


@pytest.fixture
def moderator(make_user):
    from django.contrib.auth.models import Group

    user = make_user("mod", is_staff=True)
    user.groups.add(Group.objects.get(name="moderators"))
    return user


def test_a_report_about_the_match_shows_its_talk_to_moderators_escaped(
    client, full_room, player, partner, moderator
):
    from accounts.services import report_create
    from games.models import Match, MatchStatus

    services.match_start(user=player, table_id=full_room.pk, seed=3)
    start = timezone.now()
    services.talk_send(user=partner, table_id=full_room.pk, phrase="oops", now=start)
    match = Match.objects.get(table=full_room)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, finished_at=start)
    TalkLine.objects.create(
        table=full_room,
        match=match,
        user=player,
        position=0,
        text="<script>alert(1)</script>",
        created_at=start + timedelta(seconds=5),
    )
    report = report_create(reporter=player, reported=partner, reason="abuse", match_id=match.pk)
    client.force_login(moderator)
    page = client.get(
        f"/admin/accounts/report/{report.pk}/change/", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "pablo (seat 3): Oops!" in page.replace("&#x27;", "'")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "<script>alert(1)" not in page


def test_the_match_page_shows_its_talk_at_its_step_to_players_only(
    client, full_room, player, partner, opponent, stranger, spectator
):
    from tests.games.conftest import play_out

    services.match_start(user=player, table_id=full_room.pk, seed=3)
    services.talk_send(user=partner, table_id=full_room.pk, phrase="good_luck")
    match = play_out(full_room, {0: player, 1: opponent, 2: partner, 3: stranger})
    services.talk_send(
        user=player, table_id=full_room.pk, text="<i>gg</i>", now=timezone.now() + timedelta(1)
    )
    lines = selectors.talk_transcript(match.pk)
    assert [(line["step"], line["phrase"] or line["text"]) for line in lines] == [
        (0, "good_luck"),
        (match.version, "<i>gg</i>"),
    ]
    url = f"/history/matches/{match.pk}/"
    client.force_login(player)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "pablo:</strong> Good luck!" in page
    assert "&lt;i&gt;gg&lt;/i&gt;" in page and "<i>gg</i>" not in page
    assert f"?step={match.version}" in page
    client.force_login(spectator)
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "talk-transcript" not in page and "&lt;i&gt;gg" not in page
    assert "pablo:</strong> Good luck!" not in page


# --- watchers' talk (docs/watching.md) ----------------------------------------------------


@pytest.fixture
def online_player(make_user):
    return make_user("omar")


@pytest.fixture
def watched(online_player):
    """An online match in play (omar and three bots): anyone may watch it."""
    return services.table_create_against_bots(
        user=online_player, mode=Mode.ONLINE, rules="online", bot_level="easy", seed=4
    )


def test_a_watchers_phrase_is_stored_without_a_seat(watched, stranger):
    line = services.talk_watch_send(user=stranger, table_id=watched.pk, phrase="applause")
    stored = TalkLine.objects.get()
    assert (stored.pk, stored.position, stored.phrase) == (line.pk, None, "applause")
    assert stored.text == ""
    assert stored.match == watched.matches.get()


@pytest.mark.parametrize("phrase", ["12e", "", "HELLO", None, 5, ["hello"], {"id": "hello"}])
def test_a_watcher_says_only_a_phrase_id_of_the_list(watched, stranger, phrase):
    with pytest.raises(errors.UnknownPhrase):
        services.talk_watch_send(user=stranger, table_id=watched.pk, phrase=phrase)
    assert not TalkLine.objects.exists()


def test_a_player_a_stranger_to_a_closed_table_or_a_forbidden_watcher_cannot_talk_as_one(
    watched, online_player, stranger, spectator, full_room
):
    from games.models import Seat

    with pytest.raises(errors.NotWatching):  # seated there: a player talks as one
        services.talk_watch_send(user=online_player, table_id=watched.pk, phrase="hello")
    with pytest.raises(errors.NotWatching):  # a room closed to watchers
        services.talk_watch_send(user=spectator, table_id=full_room.pk, phrase="hello")
    Seat.objects.filter(table=watched, position=0).update(forbids_watchers=True)
    with pytest.raises(errors.NotWatching):
        services.talk_watch_send(user=stranger, table_id=watched.pk, phrase="hello")
    with pytest.raises(errors.TableNotFound):
        services.talk_watch_send(user=stranger, table_id=987654, phrase="hello")
    assert not TalkLine.objects.exists()


def test_a_watcher_talks_under_the_players_rate_limit(watched, stranger):
    start = timezone.now()
    services.talk_watch_send(user=stranger, table_id=watched.pk, phrase="hello", now=start)
    with pytest.raises(errors.TalkTooFast):
        services.talk_watch_send(
            user=stranger, table_id=watched.pk, phrase="hello", now=start + timedelta(seconds=1)
        )


def test_the_players_replay_leaves_watchers_lines_out_and_the_moderators_keep_them(
    client, full_room, player, partner, stranger, moderator
):
    from accounts.services import report_create
    from games.models import Match, MatchStatus
    from history.selectors import match_talk

    services.match_start(user=player, table_id=full_room.pk, seed=3)
    services.table_configure(user=player, table_id=full_room.pk, open_to_watch=True)
    watcher = moderator  # staff watch any table; they talk as watchers
    start = timezone.now()
    services.talk_send(user=partner, table_id=full_room.pk, phrase="oops", now=start)
    services.talk_watch_send(user=watcher, table_id=full_room.pk, phrase="wow", now=start)
    match = Match.objects.get(table=full_room)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, finished_at=start)
    transcript = selectors.talk_transcript(match.pk)
    assert [(line["name"], line["seat"]) for line in transcript] == [("pablo", 2), ("mod", None)]
    assert [line["name"] for line in match_talk(match.pk)] == ["pablo"]
    report = report_create(reporter=player, reported=partner, reason="abuse", match_id=match.pk)
    client.force_login(moderator)
    page = client.get(
        f"/admin/accounts/report/{report.pk}/change/", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    assert "mod (watcher): Surprised" in page

"""A table where linked accounts sit tells everyone at it: in every frame
(`table.linked`) and on the server-rendered board (docs/moderation.md, "Linked
accounts"; docs/protocol.md)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from accounts.services import sign_in_record
from games import services
from games.frames import live
from games.state import engine_match
from tests.games.conftest import drive_bots, live_match
from tests.games.frames.test_live import frames_now

pytestmark = pytest.mark.django_db

MARKER = "Linked accounts: ana and olga"


def link(*users, device="L" * 32):
    for user in users:
        sign_in_record(user_id=user.pk, address=None, device_id=device)


def page(client, user, table):
    client.force_login(user)
    response = client.get(reverse("games:table", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200
    return response.content.decode()


def test_every_frame_of_the_table_names_the_linked_pair_in_seat_order(
    player, opponent, partner, room
):
    link(opponent, player)
    services.match_start(user=player, table_id=room.pk, seed=7)
    frames = frames_now(room)
    assert set(frames) == {"0", "1", "2", "3", "watch"}  # each seat's and the watchers'
    for frame in frames.values():
        assert frame["table"]["linked"] == [["ana", "olga"]]


def test_a_table_without_linked_accounts_has_an_empty_list(started_room):
    assert all(frame["table"]["linked"] == [] for frame in frames_now(started_room).values())


def test_every_linked_pair_is_listed(player, opponent, partner, room):
    link(player, opponent)
    link(opponent, partner, device="M" * 32)
    services.match_start(user=player, table_id=room.pk, seed=7)
    assert frames_now(room)["watch"]["table"]["linked"] == [["ana", "olga"], ["olga", "pablo"]]


def test_the_board_shows_the_marker_to_everyone_at_the_table(
    client, player, opponent, partner, room
):
    link(player, opponent)
    for user in (player, partner):  # the waiting room
        assert MARKER in page(client, user, room)
    services.match_start(user=player, table_id=room.pk, seed=7)
    for user in (player, opponent, partner):
        assert MARKER in page(client, user, room)


def test_no_marker_where_nobody_is_linked(client, player, started_room):
    assert 'data-testid="linked-accounts"' not in page(client, player, started_room)


def test_a_move_asks_no_query_for_the_marker(
    monkeypatch, player, opponent, partner, room, settings, django_capture_on_commit_callbacks
):
    """A set of players' pairs is read once per process, and again after
    LINKED_TABLE_MEMO_SECONDS: a move's frames read none (a move is two statements)."""
    link(player, opponent)
    with django_capture_on_commit_callbacks(execute=True):  # the start's frames
        services.match_start(user=player, table_id=room.pk, seed=7)
    asked = []
    real = live.linked_pairs
    monkeypatch.setattr(live, "linked_pairs", lambda ids: asked.append(ids) or real(ids))
    users = {0: player, 1: opponent, 2: partner}
    drive_bots(room)
    match = live_match(room)
    engine = engine_match(match)
    with django_capture_on_commit_callbacks(execute=True) as sent:  # the move's frames
        services.match_play(
            user=users[engine.to_play],
            table_id=room.pk,
            action=engine.legal_actions()[0],
            version=match.version,
        )
    assert sent  # the frames were built and sent
    assert frames_now(room)["0"]["table"]["linked"] == [["ana", "olga"]]
    assert asked == []
    settings.LINKED_TABLE_MEMO_SECONDS = 0  # read again once the memo is older than this
    assert frames_now(room)["0"]["table"]["linked"] == [["ana", "olga"]]
    assert asked == [frozenset({player.pk, opponent.pk, partner.pk})]


def test_a_link_made_while_seated_shows_once_the_memo_is_read_again(
    player, opponent, started_room, settings
):
    assert frames_now(started_room)["0"]["table"]["linked"] == []
    link(player, opponent)
    settings.LINKED_TABLE_MEMO_SECONDS = 0
    assert frames_now(started_room)["0"]["table"]["linked"] == [["ana", "olga"]]

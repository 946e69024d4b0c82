"""Who may watch a table (games.selectors: table_access, watchable, watch_refusal) and
the services that change it: a room opened or closed to watchers, a seat forgetting
its player's choice, a match start ending its players' watching (docs/watching.md)."""

from __future__ import annotations

import pytest

from games import errors, selectors, services
from games.fanout import transport
from games.models import Mode, Seat, Table

pytestmark = pytest.mark.django_db


def _against_bots(user, mode: str) -> Table:
    return services.table_create_against_bots(
        user=user, mode=mode, rules="online", bot_level="easy", seed=5
    )


@pytest.fixture
def online_table(player):
    """An online match in play: ana and three bots."""
    return _against_bots(player, Mode.ONLINE)


def test_anyone_signed_in_watches_an_online_table_and_a_player_sees_their_seat(
    online_table, player, stranger
):
    assert selectors.table_access(user=stranger, table_id=online_table.pk).position is None
    assert selectors.table_access(user=player, table_id=online_table.pk).position == 0
    assert selectors.watch_refusal(user=stranger, table=online_table) is None


@pytest.mark.parametrize("mode", [Mode.PRACTICE, Mode.DAILY, Mode.POSITION])
def test_practice_daily_and_position_tables_are_seen_by_nobody_but_their_player_and_staff(
    player, stranger, staff_user, mode
):
    table = _against_bots(player, mode)
    assert selectors.table_access(user=stranger, table_id=table.pk) is None
    assert selectors.table_access(user=staff_user, table_id=table.pk).position is None
    assert not selectors.watchable(table, selectors.table_seats(table))


def test_an_unknown_table_is_seen_by_nobody(stranger):
    assert selectors.table_access(user=stranger, table_id=987654) is None


def test_a_room_is_watched_by_anyone_only_once_its_owner_opens_it(started_room, player, stranger):
    assert selectors.table_access(user=stranger, table_id=started_room.pk) is None
    services.table_configure(user=player, table_id=started_room.pk, open_to_watch=True)
    assert selectors.table_access(user=stranger, table_id=started_room.pk).position is None
    started_room.refresh_from_db()
    assert selectors.watchable(started_room, selectors.table_seats(started_room))
    services.table_configure(user=player, table_id=started_room.pk, open_to_watch=False)
    assert selectors.table_access(user=stranger, table_id=started_room.pk) is None


def test_an_invitee_watches_a_room_closed_to_watchers_and_is_not_refused(player, spectator):
    room = services.table_create_friends(user=player)
    services.invitation_create(user=player, table_id=room.pk, username=spectator.username)
    assert selectors.table_access(user=spectator, table_id=room.pk).position is None
    assert selectors.watch_refusal(user=spectator, table=room) is None


def test_a_player_forbidding_watchers_refuses_everyone_but_staff_and_the_players(
    online_table, player, stranger, staff_user
):
    Seat.objects.filter(table=online_table, position=0).update(forbids_watchers=True)
    seats = selectors.table_seats(online_table)
    assert not selectors.watchable(online_table, seats)
    assert selectors.table_access(user=stranger, table_id=online_table.pk) is not None
    assert selectors.watch_refusal(user=stranger, table=online_table) == selectors.FORBIDDEN
    assert selectors.watch_refusal(user=staff_user, table=online_table) is None
    assert selectors.watch_refusal(user=player, table=online_table) is None


def test_a_user_whose_own_match_is_in_play_is_refused_but_one_waiting_is_not(
    online_table, stranger, make_user
):
    elsewhere = _against_bots(stranger, Mode.PRACTICE)
    assert selectors.watch_refusal(user=stranger, table=online_table) == (
        selectors.PLAYING_ELSEWHERE
    )
    assert selectors.watch_refusal(user=stranger, table=elsewhere) is None  # their own seat
    waiting = make_user("wendy")
    services.table_create_friends(user=waiting)  # an open room: not playing
    assert selectors.watch_refusal(user=waiting, table=online_table) is None


def test_staff_are_never_refused_even_while_playing(online_table, staff_user):
    _against_bots(staff_user, Mode.PRACTICE)
    assert selectors.watch_refusal(user=staff_user, table=online_table) is None


# --- the room's owner opens and closes it -----------------------------------------------


def test_only_the_owner_opens_a_room_to_watchers(room, partner):
    with pytest.raises(errors.NotOwner):
        services.table_configure(user=partner, table_id=room.pk, open_to_watch=True)
    assert not Table.objects.get(pk=room.pk).open_to_watch


def test_a_table_that_is_not_a_room_cannot_be_opened_to_watchers(player):
    table = _against_bots(player, Mode.PRACTICE)
    with pytest.raises(errors.TableNotOpen):
        services.table_configure(user=player, table_id=table.pk, open_to_watch=True)
    assert not Table.objects.get(pk=table.pk).open_to_watch


def test_a_room_in_play_may_be_opened_to_watchers_but_its_rules_not_changed(started_room, player):
    services.table_configure(user=player, table_id=started_room.pk, open_to_watch=True)
    assert Table.objects.get(pk=started_room.pk).open_to_watch
    with pytest.raises(errors.TableNotOpen):
        services.table_configure(user=player, table_id=started_room.pk, rules="classic")


def test_a_finished_room_cannot_be_opened_to_watchers(started_room, player):
    Table.objects.filter(pk=started_room.pk).update(status="finished")
    with pytest.raises(errors.TableNotOpen):
        services.table_configure(user=player, table_id=started_room.pk, open_to_watch=True)


def test_closing_a_room_to_watchers_closes_their_sockets_but_players_and_invitees(
    player, partner, spectator, monkeypatch, django_capture_on_commit_callbacks
):
    room = services.table_create_friends(user=player)
    invitation = services.invitation_create(
        user=player, table_id=room.pk, username=partner.username
    )
    services.invitation_accept(user=partner, invitation_id=invitation.pk)
    services.invitation_create(user=player, table_id=room.pk, username=spectator.username)
    closed = []
    monkeypatch.setattr(transport, "watchers_close", lambda *args: closed.append(args))
    with django_capture_on_commit_callbacks(execute=True):
        services.table_configure(user=player, table_id=room.pk, open_to_watch=True)
    assert closed == []  # opening closes nothing
    with django_capture_on_commit_callbacks(execute=True):
        services.table_configure(user=player, table_id=room.pk, open_to_watch=False)
    assert closed == [(room.pk, sorted([player.pk, partner.pk, spectator.pk]))]


# --- seats forget, matches end watching ----------------------------------------------------


def test_a_freed_or_released_seat_forgets_that_its_player_forbade_watchers(room, partner):
    seat = Seat.objects.get(table=room, user=partner)
    Seat.objects.filter(pk=seat.pk).update(forbids_watchers=True)
    seat.refresh_from_db()
    services.seat_free(seat=seat)
    assert not Seat.objects.get(pk=seat.pk).forbids_watchers
    Seat.objects.filter(pk=seat.pk).update(forbids_watchers=True)
    seat.refresh_from_db()
    services.seat_release(seat=seat)
    assert not Seat.objects.get(pk=seat.pk).forbids_watchers


def test_a_new_player_on_a_seat_does_not_inherit_a_forbidding(room, partner, stranger):
    seat = Seat.objects.get(table=room, user=partner)
    Seat.objects.filter(pk=seat.pk).update(forbids_watchers=True)
    services.seat_leave(user=partner, table_id=room.pk)
    seat.refresh_from_db()
    services.seat_take(seat=seat, user=stranger)
    assert not Seat.objects.get(pk=seat.pk).forbids_watchers


def test_a_match_start_ends_its_players_watching_elsewhere(
    room, player, partner, opponent, monkeypatch, django_capture_on_commit_callbacks
):
    ended = []
    monkeypatch.setattr(
        transport, "watching_end", lambda users, *, playing_at: ended.append((users, playing_at))
    )
    with django_capture_on_commit_callbacks(execute=True):
        services.match_start(user=player, table_id=room.pk, seed=3)
    assert ended == [(sorted([player.pk, partner.pk, opponent.pk]), room.pk)]


@pytest.mark.parametrize("value", ["yes", "false", 1, 0, [], {"on": True}])
def test_open_to_watch_that_is_not_a_boolean_is_refused_and_nothing_changes(room, player, value):
    with pytest.raises(errors.InvalidChoice):
        services.table_configure(user=player, table_id=room.pk, open_to_watch=value)
    assert not Table.objects.get(pk=room.pk).open_to_watch


def test_a_player_you_blocked_cannot_watch_your_table(online_table, player, stranger):
    """The hole: a blocked player watched the blocker's tables (no block check)."""
    from social import services as social

    social.block_add(user=player, username=stranger.username)
    assert selectors.watch_refusal(user=stranger, table=online_table) == selectors.FORBIDDEN
    admission = selectors.table_admission(user=stranger, table_id=online_table.pk)
    assert admission.refusal == selectors.FORBIDDEN


def test_blocking_a_player_does_not_keep_you_from_watching_them(online_table, player, stranger):
    """Only the blocker is protected: the one who blocked may still watch (their
    talk is hidden from them, docs/social.md)."""
    from social import services as social

    social.block_add(user=stranger, username=player.username)
    assert selectors.watch_refusal(user=stranger, table=online_table) is None


def test_a_former_or_declined_invitee_no_longer_sees_a_room(player, spectator, make_user):
    """The hole: an invitation gave a view of the room whatever its status."""
    room = services.table_create_friends(user=player)
    declined = services.invitation_create(user=player, table_id=room.pk, username="sara")
    services.invitation_decline(user=spectator, invitation_id=declined.pk)
    assert selectors.table_access(user=spectator, table_id=room.pk) is None
    former = make_user("teo")
    accepted = services.invitation_create(user=player, table_id=room.pk, username="teo")
    services.invitation_accept(user=former, invitation_id=accepted.pk)
    assert selectors.table_access(user=former, table_id=room.pk).position is not None
    services.seat_leave(user=former, table_id=room.pk)
    assert selectors.table_access(user=former, table_id=room.pk) is None

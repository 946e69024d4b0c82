"""Matchmaking through the services: joining, leaving, grouping, bot fill."""

from __future__ import annotations

import pytest

from games import services as games
from games.models import Match, MatchSeat, Mode, RuleSetName, Seat, SeatKind, Table, TableStatus
from online import errors as err
from online import services
from online.models import QueueEntry

pytestmark = pytest.mark.django_db


@pytest.fixture
def join(django_capture_on_commit_callbacks, clock):
    """Join as the site does: the matchmaking pass queued after commit runs too."""

    def run(user):
        with django_capture_on_commit_callbacks(execute=True):
            return services.queue_join(user=user, now=clock())

    return run


def test_a_player_who_joins_waits_in_the_queue(player, clock):
    entry = services.queue_join(user=player, now=clock())
    assert entry.user == player
    assert QueueEntry.objects.count() == 1
    assert not Table.objects.exists()


def test_joining_twice_keeps_the_first_place(player, clock):
    first = services.queue_join(user=player, now=clock())
    clock.advance(5)
    second = services.queue_join(user=player, now=clock())
    assert second.pk == first.pk and second.joined_at == first.joined_at
    assert QueueEntry.objects.count() == 1


def test_a_player_can_leave_the_queue(player, clock):
    services.queue_join(user=player, now=clock())
    services.queue_leave(user=player)
    assert not QueueEntry.objects.exists()


def test_leaving_a_queue_you_are_not_in_is_refused(player):
    with pytest.raises(err.NotQueued):
        services.queue_leave(user=player)


def test_a_player_at_a_live_table_cannot_queue(player):
    games.table_create_practice(user=player, rules=RuleSetName.ONLINE, bot_level="easy")
    with pytest.raises(err.AlreadyAtTable) as caught:
        services.queue_join(user=player)
    assert caught.value.code == "already_at_table" and caught.value.message
    assert not QueueEntry.objects.exists()


def test_four_queued_players_become_an_online_table_seated_at_random(players, join):
    cast = players(4)
    for user in cast:
        join(user)
    table = Table.objects.get()
    assert table.mode == Mode.ONLINE and table.rules == RuleSetName.ONLINE
    assert table.status == TableStatus.PLAYING
    seats = Seat.objects.filter(table=table)
    assert {s.user_id for s in seats} == {u.pk for u in cast}
    assert all(s.kind == SeatKind.HUMAN and s.live for s in seats)
    assert not QueueEntry.objects.exists()
    match = Match.objects.get(table=table)
    assert not MatchSeat.objects.filter(match=match, is_bot=True).exists()


def test_three_players_wait_until_the_bot_fill_time(players, clock, join):
    cast = players(3)
    for user in cast:
        join(user)
    clock.advance(19.9)
    assert services.queue_match(now=clock()) == []
    assert QueueEntry.objects.count() == 3


def test_after_the_bot_fill_time_bots_take_the_empty_seats_and_the_match_starts(
    players, clock, join
):
    cast = players(2)
    for user in cast:
        join(user)
    clock.advance(20)
    [table_id] = services.queue_match(now=clock())
    seats = list(Seat.objects.filter(table_id=table_id))
    assert sorted(s.kind for s in seats) == ["bot", "bot", "human", "human"]
    match = Match.objects.get(table_id=table_id)
    assert MatchSeat.objects.filter(match=match, is_bot=True).count() == 2
    assert Table.objects.get(pk=table_id).status == TableStatus.PLAYING
    assert not QueueEntry.objects.exists()


def test_the_bot_fill_time_is_a_setting(players, clock, settings, join):
    settings.ONLINE_BOT_FILL_SECONDS = 5
    [user] = players(1)
    join(user)
    clock.advance(5)
    assert len(services.queue_match(now=clock())) == 1


def test_the_sweep_fills_with_bots(players, clock, join):
    [user] = players(1)
    join(user)
    assert services.online_sweep(now=clock.advance(25)) == {"tables": 1, "cancelled": 0}


def test_a_queued_player_who_sat_elsewhere_is_dropped_not_seated_twice(players, join):
    cast = players(4)
    for user in cast[:3]:
        join(user)
    games.table_create_practice(user=cast[0], rules=RuleSetName.ONLINE, bot_level="easy")
    join(cast[3])
    # Three are left: cast[0] is at their practice table and was dropped from the queue.
    assert Table.objects.filter(mode=Mode.ONLINE).count() == 0
    assert set(QueueEntry.objects.values_list("user_id", flat=True)) == {u.pk for u in cast[1:]}
    assert Seat.objects.filter(user=cast[0], live=True).count() == 1


def test_nine_players_make_two_tables_and_one_waits(players, clock, join):
    cast = players(9)
    for user in cast:
        clock.advance(0.1)
        join(user)
    assert Table.objects.filter(mode=Mode.ONLINE).count() == 2
    # First come, first seated: the last one waits.
    assert list(QueueEntry.objects.values_list("user_id", flat=True)) == [cast[-1].pk]


def test_a_banned_player_leaves_the_queue(
    player, staff_user, clock, django_capture_on_commit_callbacks
):
    from accounts.services import user_ban

    services.queue_join(user=player, now=clock())
    with django_capture_on_commit_callbacks(execute=True):
        user_ban(staff_user=staff_user, user=player, reason="cheating")
    assert not QueueEntry.objects.exists()

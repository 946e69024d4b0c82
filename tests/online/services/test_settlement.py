"""The end of online and stake matches: coins and XP per place, the pot, league points."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import transaction
from django.utils import timezone

from economy.models import Effect, Perk
from games import services as games
from games.models import MatchSeat, MatchStatus, Table
from online import services
from online.models import MatchLeaguePoints
from tests.online.conftest import escrow_balance, play_out

pytestmark = pytest.mark.django_db

REWARDS = {1: (60, 40), 2: (40, 30), 3: (20, 20), 4: (10, 10)}
LEAGUE = {1: 20, 2: 14, 3: 8, 4: 4}


def _online_table(cast, clock, django_capture_on_commit_callbacks):
    for user in cast:
        with django_capture_on_commit_callbacks(execute=True):
            services.queue_join(user=user, now=clock())
    if len(cast) < 4:
        services.queue_match(now=clock.advance(20))
    return Table.objects.get(mode="online")


def _stake_table(cast, stake, clock):
    table = services.stake_table_open(user=cast[0], stake=stake, now=clock())
    for user in cast[1:]:
        services.stake_table_sit(user=user, table_id=table.pk, now=clock())
    return table


def _seats(match):
    return {ms.user_id: ms for ms in MatchSeat.objects.filter(match=match)}


def test_an_online_match_pays_every_place_and_stores_full_league_points(
    players, clock, coins_of, xp_of, django_capture_on_commit_callbacks
):
    cast = players(4)
    match = _finish_by_hand(_online_table(cast, clock, django_capture_on_commit_callbacks), 1)
    assert match.status == MatchStatus.FINISHED
    seats = _seats(match)
    for user in cast:
        place = seats[user.pk].place
        assert (coins_of(user) - 1000, xp_of(user)) == REWARDS[place]
    rows = {r.user_id: r for r in MatchLeaguePoints.objects.filter(match=match)}
    assert {uid: r.points for uid, r in rows.items()} == {
        u.pk: LEAGUE[seats[u.pk].place] for u in cast
    }
    assert not any(r.halved for r in rows.values())


def test_the_league_points_reach_the_league_when_it_is_installed(
    players, clock, django_capture_on_commit_callbacks
):
    leagues = pytest.importorskip("leagues.models")
    cast = players(4)
    match = _finish_by_hand(_online_table(cast, clock, django_capture_on_commit_callbacks), 0)
    recorded = dict(
        leagues.LeaguePoints.objects.filter(match_id=match.pk).values_list("user_id", "points")
    )
    stored = dict(MatchLeaguePoints.objects.filter(match=match).values_list("user_id", "points"))
    assert recorded == stored


def test_a_bot_at_the_table_halves_the_league_points_but_not_the_coins(
    players, clock, coins_of, django_capture_on_commit_callbacks
):
    cast = players(2)
    match = _finish_by_hand(_online_table(cast, clock, django_capture_on_commit_callbacks), 0)
    seats = _seats(match)
    rows = MatchLeaguePoints.objects.filter(match=match)
    assert rows.count() == 4
    for row in rows:
        if row.user_id is None:
            assert row.points == 0
        else:
            assert row.points == LEAGUE[row.place] // 2 and row.halved
    for user in cast:
        assert coins_of(user) - 1000 == REWARDS[seats[user.pk].place][0]


def test_boosters_multiply_online_rewards(
    players, clock, coins_of, django_capture_on_commit_callbacks
):
    cast = players(4)
    Perk.objects.create(
        user=cast[0], effect=Effect.BOOSTER, ends_at=timezone.now() + timedelta(hours=1)
    )
    match = _finish_by_hand(_online_table(cast, clock, django_capture_on_commit_callbacks), 1)
    place = _seats(match)[cast[0].pk].place
    assert coins_of(cast[0]) - 1000 == 2 * REWARDS[place][0]


def test_a_stake_match_gives_the_whole_pot_to_the_winners_and_xp_to_everyone(
    players, clock, coins_of, xp_of
):
    cast = players(4)
    Perk.objects.create(
        user=cast[0], effect=Effect.BOOSTER, ends_at=timezone.now() + timedelta(hours=1)
    )
    table = _stake_table(cast, 250, clock)
    match = play_out(table)
    seats = _seats(match)
    for user in cast:
        seat = seats[user.pk]
        won = seat.position % 2 == match.winner
        multiplier = 2 if user == cast[0] else 1
        assert coins_of(user) == (1000 - 250 + (500 if won else 0))  # pot never multiplied
        assert xp_of(user) == REWARDS[seat.place][1] * multiplier
    assert escrow_balance(table.pk) == 0
    points = dict(MatchLeaguePoints.objects.filter(match=match).values_list("user_id", "points"))
    assert points == {u.pk: LEAGUE[seats[u.pk].place] for u in cast}
    call_command("audit_ledger")


class _Ended:
    """What the end of a match (games.services.play) reads from a finished engine
    match, with a chosen winner."""

    hands = ()  # no hands: the history records the match without hand figures

    def __init__(self, winner: int, points=(30, 20, 10, 5)) -> None:
        self.winner = winner
        self._points = points

    def personal_points(self):
        return self._points

    def tricks_won(self):
        return (3, 2, 3, 2)


def _finish_by_hand(table, winner: int, points=(30, 20, 10, 5)):
    """End the live match with `winner` as the last move does (places, the mode's
    settlement, the hook)."""
    from games.services.play import _finish

    with transaction.atomic():
        locked = games.table_lock(table_id=table.pk)
        match = games.match_lock(table=locked)
        seats = games.seats_lock(table=locked)
        _finish(locked, match, seats, _Ended(winner, points))
        match.save()
    return match


def _user_at(table, position):
    return MatchSeat.objects.get(match__table=table, position=position).user


def test_an_abandoners_stake_stays_in_the_pot_and_their_partner_takes_the_pairs_share(
    players, clock, coins_of, xp_of
):
    cast = players(4)
    table = _stake_table(cast, 100, clock)
    abandoner, partner = _user_at(table, 0), _user_at(table, 2)
    losers = [_user_at(table, 1), _user_at(table, 3)]
    games.seat_leave(user=abandoner, table_id=table.pk)
    _finish_by_hand(table, winner=0)
    assert coins_of(abandoner) == 900 and xp_of(abandoner) == 0
    assert coins_of(partner) == 900 + 400
    assert [coins_of(u) for u in losers] == [900, 900]
    assert escrow_balance(table.pk) == 0
    points = dict(
        MatchLeaguePoints.objects.filter(match__table=table).values_list("user_id", "points")
    )
    assert points[abandoner.pk] == 0 and points[partner.pk] > 0
    call_command("audit_ledger")


def test_an_abandoner_on_the_losing_side_loses_the_stake(players, clock, coins_of):
    cast = players(4)
    table = _stake_table(cast, 1000, clock)
    abandoner = _user_at(table, 1)
    games.seat_leave(user=abandoner, table_id=table.pk)
    _finish_by_hand(table, winner=0)
    assert coins_of(abandoner) == 0
    assert coins_of(_user_at(table, 0)) == coins_of(_user_at(table, 2)) == 2000
    assert escrow_balance(table.pk) == 0


def test_when_both_winners_abandoned_the_players_who_stayed_share_the_pot(players, clock, coins_of):
    cast = players(4)
    table = _stake_table(cast, 100, clock)
    for position in (0, 2):
        games.seat_leave(user=_user_at(table, position), table_id=table.pk)
    _finish_by_hand(table, winner=0)
    assert coins_of(_user_at(table, 1)) == coins_of(_user_at(table, 3)) == 1100
    assert escrow_balance(table.pk) == 0


def test_a_player_who_never_opens_the_table_earns_nothing_and_it_counts_as_a_loss(
    players, clock, coins_of, xp_of, settings, django_capture_on_commit_callbacks
):
    from games.models import Match, Seat

    cast = players(4)
    table = _online_table(cast, clock, django_capture_on_commit_callbacks)
    farmer = _user_at(table, 0)
    for position in (1, 2, 3):
        games.seat_connect(user=_user_at(table, position), table_id=table.pk)
    grace = settings.ABSENCE_CONNECT_GRACE_SECONDS
    Match.objects.filter(table=table).update(
        started_at=timezone.now() - timedelta(seconds=grace + 1)
    )
    assert games.tables_sweep()["no_shows"] == 1
    # Away for the rest of the match: a bot plays every one of the farmer's turns.
    Seat.objects.filter(table=table, position=0).update(
        absent_since=timezone.now() - timedelta(seconds=settings.ABSENT_AT_END_SECONDS + 1)
    )
    match = play_out(table)
    seats = _seats(match)
    assert seats[farmer.pk].abandoned and seats[farmer.pk].won is False
    assert (coins_of(farmer), xp_of(farmer)) == (1000, 0)
    points = dict(MatchLeaguePoints.objects.filter(match=match).values_list("user_id", "points"))
    assert points.get(farmer.pk, 0) == 0
    for position in (1, 2, 3):
        assert coins_of(_user_at(table, position)) > 1000  # the others are paid


def test_a_connection_lost_just_before_the_end_still_pays(
    players, clock, coins_of, django_capture_on_commit_callbacks
):
    cast = players(4)
    table = _online_table(cast, clock, django_capture_on_commit_callbacks)
    dropped = _user_at(table, 0)
    for position in range(4):
        games.seat_connect(user=_user_at(table, position), table_id=table.pk)
    games.seat_disconnect(user=dropped, table_id=table.pk)  # a bot plays the last cards
    match = _finish_by_hand(table, winner=0)
    assert not _seats(match)[dropped.pk].abandoned
    assert coins_of(dropped) > 1000
